package org.jshmem.remote;

import static org.jshmem.bootstrap.OpenMpiAbi.AINT;
import static org.jshmem.bootstrap.OpenMpiAbi.HANDLE;
import static org.jshmem.bootstrap.OpenMpiAbi.INT;
import static org.jshmem.bootstrap.OpenMpiAbi.PTR;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.ref.Reference;
import java.util.Objects;
import org.jshmem.AtomicOp;
import org.jshmem.BootstrapException;
import org.jshmem.bootstrap.LibMpi;
import org.jshmem.bootstrap.OpenMpiAbi;

/**
 * The one-sided calls of Open MPI's C library that {@link RemoteTransport} makes, through FFM, in
 * the style of the bootstrap's {@code LibMpi} (whose loaded library it shares): passive-target
 * windows ({@code MPI_Win_create}, {@code MPI_Win_lock_all}), put, get, accumulate, fetch-and-op,
 * compare-and-swap, the flushes, and {@code MPI_Iprobe} to drive progress. One window per
 * instance. Every call checks its return code (the window returns errors:
 * {@code MPI_ERRORS_RETURN}); a failed access names the target PE in a {@link org.jshmem.PeFailedException}.
 * Each call is timed on a {@link CallClock}, so that a watchdog can tell one that never returns.
 */
final class MpiRma {

    private final LibMpi mpi;
    private final MemorySegment comm;
    private final MemorySegment[] intType = new MemorySegment[9];   // by width in bytes: 1, 2, 4, 8
    private final long byteType;            // the hot calls take their handles as numbers (MpiHandles.WORD)
    private final MemorySegment opSum;
    private final MemorySegment opReplace;
    private final MemorySegment opNoOp;
    private final MemorySegment opBand;
    private final MemorySegment opBor;
    private final MemorySegment opBxor;
    private final MethodHandle winCreate;
    private final MethodHandle commGetErrhandler;
    private final MethodHandle commSetErrhandler;
    private final MethodHandle errhandlerFree;
    private final MethodHandle winSetErrhandler;
    private final MethodHandle winLockAll;
    private final MethodHandle winUnlockAll;
    private final MethodHandle winFree;
    private final CallClock clock;
    private MemorySegment win = MemorySegment.NULL;
    private long winWord;

    /** The calls of {@code mpi}, timed on {@code clock} (which other windows of the transport may share). */
    MpiRma(LibMpi mpi, CallClock clock) {
        this.mpi = mpi;
        this.clock = clock;
        comm = mpi.commWorld();
        byteType = mpi.symbol(OpenMpiAbi.BYTE).address();
        intType[1] = mpi.symbol(OpenMpiAbi.INT8);
        intType[2] = mpi.symbol(OpenMpiAbi.INT16);
        intType[4] = mpi.symbol(OpenMpiAbi.INT32);
        intType[8] = mpi.symbol(OpenMpiAbi.INT64);
        opSum = mpi.symbol(OpenMpiAbi.OP_SUM);
        opReplace = mpi.symbol(OpenMpiAbi.OP_REPLACE);
        opNoOp = mpi.symbol(OpenMpiAbi.OP_NO_OP);
        opBand = mpi.symbol(OpenMpiAbi.OP_BAND);
        opBor = mpi.symbol(OpenMpiAbi.OP_BOR);
        opBxor = mpi.symbol(OpenMpiAbi.OP_BXOR);
        winCreate = fn("MPI_Win_create", PTR, AINT, INT, HANDLE, HANDLE, PTR);
        commGetErrhandler = fn("MPI_Comm_get_errhandler", HANDLE, PTR);
        commSetErrhandler = fn("MPI_Comm_set_errhandler", HANDLE, HANDLE);
        errhandlerFree = fn("MPI_Errhandler_free", PTR);
        winSetErrhandler = fn("MPI_Win_set_errhandler", HANDLE, HANDLE);
        winLockAll = fn("MPI_Win_lock_all", INT, HANDLE);
        winUnlockAll = fn("MPI_Win_unlock_all", HANDLE);
        winFree = fn("MPI_Win_free", PTR);
    }

    private MethodHandle fn(String name, MemoryLayout... args) {
        return mpi.function(name, args);
    }

    // ------------------------------------------------------------------ the window

    /**
     * Collective over {@code MPI_COMM_WORLD}: exposes {@code memory} as this process's part of the
     * window (displacements in bytes), makes its errors return, and opens a passive-target epoch
     * to every process ({@code MPI_Win_lock_all}) for the window's life.
     */
    void createWindow(MemorySegment memory) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(HANDLE);
            setup("MPI_Comm_get_errhandler", (int) commGetErrhandler.invokeExact(comm, out));
            MemorySegment previous = out.get(ValueLayout.ADDRESS, 0);
            // MPI_Win_create reports on the communicator, whose handler may abort the job: return instead, and explain
            setup("MPI_Comm_set_errhandler(MPI_ERRORS_RETURN)",
                    (int) commSetErrhandler.invokeExact(comm, mpi.symbol(OpenMpiAbi.ERRORS_RETURN)));
            int rc = (int) winCreate.invokeExact(memory, memory.byteSize(), 1, mpi.symbol(OpenMpiAbi.INFO_NULL), comm, out);
            setup("MPI_Comm_set_errhandler", (int) commSetErrhandler.invokeExact(comm, previous));
            MemorySegment got = a.allocate(HANDLE);   // MPI_Comm_get_errhandler gave a reference of our own
            got.set(ValueLayout.ADDRESS, 0, previous);
            setup("MPI_Errhandler_free", (int) errhandlerFree.invokeExact(got));
            if (rc != OpenMpiAbi.SUCCESS) {
                throw new BootstrapException("the remote transport (PEs on other nodes, or JSHMEM_TRANSPORT /"
                        + " JSHMEM_NODE_OF_RANK) could not create its MPI window: MPI_Win_create of " + memory.byteSize()
                        + " bytes of jshmem's shared memory failed in " + mpi.library() + ": " + mpi.errorString(rc)
                        + ". This MPI's one-sided layer cannot serve a window over memory it did not allocate: Open MPI"
                        + " needs osc/rdma with a byte-transfer layer that reaches other processes' memory (btl/vader"
                        + " with CMA, which a container allows with the SYS_PTRACE capability; or a network's) or"
                        + " osc/ucx; `ompi_info | grep osc` lists what is built, OMPI_MCA_osc_base_verbose=100 why one"
                        + " declines. Run the PEs on one node without forcing remote peers, or use such an MPI.");
            }
            win = out.get(ValueLayout.ADDRESS, 0);
            winWord = win.address();
            setup("MPI_Win_set_errhandler(MPI_ERRORS_RETURN)",
                    (int) winSetErrhandler.invokeExact(win, mpi.symbol(OpenMpiAbi.ERRORS_RETURN)));
            setup("MPI_Win_lock_all", (int) winLockAll.invokeExact(OpenMpiAbi.MODE_NOCHECK, win));
        } catch (BootstrapException e) {
            throw e;
        } catch (Throwable t) {
            throw new BootstrapException("creating the remote transport's MPI window failed: " + t, t);
        }
    }

    /** Collective: ends the epoch and frees the window. */
    void freeWindow() {
        try (Arena a = Arena.ofConfined()) {
            setup("MPI_Win_unlock_all", (int) winUnlockAll.invokeExact(win));
            MemorySegment p = a.allocate(HANDLE);
            p.set(ValueLayout.ADDRESS, 0, win);
            setup("MPI_Win_free", (int) winFree.invokeExact(p));
        } catch (BootstrapException e) {
            throw e;
        } catch (Throwable t) {
            throw new BootstrapException("freeing the remote transport's MPI window failed: " + t, t);
        }
    }

    private void setup(String what, int rc) {
        if (rc != OpenMpiAbi.SUCCESS) {
            throw mpi.failure(what, rc);
        }
    }

    // ------------------------------------------------------------------ one-sided calls

    /**
     * {@code MPI_Put} of {@code bytes} from native {@code src} at {@code offset} to {@code rank}'s window at
     * {@code disp}; not complete until a flush, and {@code src} must stay alive until then, as any MPI buffer.
     */
    void put(MemorySegment src, long offset, int bytes, int rank, long disp) {
        long origin = origin(src, offset, bytes, "MPI_Put");
        int rc;
        CallClock.Slot call = clock.enter("MPI_Put", rank);
        try {
            rc = (int) MpiHandles.PUT.invokeExact(origin, bytes, byteType, rank, disp, bytes, byteType, winWord);
        } catch (Throwable t) {
            throw MpiFailures.unexpected("MPI_Put", t);
        } finally {
            call.leave();
            Reference.reachabilityFence(src);   // an automatic arena must not free it during the call
        }
        check(rc, "MPI_Put", rank);
    }

    /** {@code MPI_Get} of {@code bytes} from {@code rank}'s window at {@code disp} into native {@code dst} at {@code offset}; not complete until a flush. */
    void get(MemorySegment dst, long offset, int bytes, int rank, long disp) {
        long origin = origin(dst, offset, bytes, "MPI_Get");
        int rc;
        CallClock.Slot call = clock.enter("MPI_Get", rank);
        try {
            rc = (int) MpiHandles.GET.invokeExact(origin, bytes, byteType, rank, disp, bytes, byteType, winWord);
        } catch (Throwable t) {
            throw MpiFailures.unexpected("MPI_Get", t);
        } finally {
            call.leave();
            Reference.reachabilityFence(dst);   // an automatic arena must not free it during the call
        }
        check(rc, "MPI_Get", rank);
    }

    /**
     * The address of {@code bytes} of {@code buffer} at {@code offset}, checked as a downcall would check a segment
     * argument (native, alive, in bounds), without the slice and the arena's acquisition that one would cost. The
     * caller keeps the buffer reachable until the call returns (a segment argument would have).
     */
    private static long origin(MemorySegment buffer, long offset, int bytes, String call) {
        if (!buffer.isNative() || !buffer.scope().isAlive()) {
            throw new IllegalStateException(call + ": the buffer must be native memory that is still allocated: " + buffer);
        }
        return buffer.address() + Objects.checkFromIndexSize(offset, bytes, buffer.byteSize());
    }

    /**
     * {@code MPI_Accumulate} of one integer of {@code width} bytes from {@code operand} with
     * {@code op} ({@code SET}: replace; {@code ADD}, {@code AND}, {@code OR}, {@code XOR}).
     */
    void accumulate(MemorySegment operand, int width, AtomicOp op, int rank, long disp) {
        int rc;
        MemorySegment type = intType[width];
        CallClock.Slot call = clock.enter("MPI_Accumulate", rank);
        try {
            rc = (int) MpiHandles.ACCUMULATE.invokeExact(operand, 1, type, rank, disp, 1, type, mpiOp(op), win);
        } catch (Throwable t) {
            throw MpiFailures.unexpected("MPI_Accumulate", t);
        } finally {
            call.leave();
        }
        check(rc, "MPI_Accumulate", rank);
    }

    /** {@code MPI_Fetch_and_op}: the old value into {@code result}; {@code FETCH} is {@code MPI_NO_OP}, {@code SWAP} {@code MPI_REPLACE}. */
    void fetchAndOp(MemorySegment operand, MemorySegment result, int width, AtomicOp op, int rank, long disp) {
        int rc;
        CallClock.Slot call = clock.enter("MPI_Fetch_and_op", rank);
        try {
            rc = (int) MpiHandles.FETCH_AND_OP.invokeExact(operand, result, intType[width], rank, disp, mpiOp(op), win);
        } catch (Throwable t) {
            throw MpiFailures.unexpected("MPI_Fetch_and_op", t);
        } finally {
            call.leave();
        }
        check(rc, "MPI_Fetch_and_op", rank);
    }

    /** {@code MPI_Compare_and_swap}: the old value into {@code result}. */
    void compareAndSwap(MemorySegment value, MemorySegment compare, MemorySegment result, int width, int rank, long disp) {
        int rc;
        CallClock.Slot call = clock.enter("MPI_Compare_and_swap", rank);
        try {
            rc = (int) MpiHandles.COMPARE_AND_SWAP.invokeExact(value, compare, result, intType[width], rank, disp, win);
        } catch (Throwable t) {
            throw MpiFailures.unexpected("MPI_Compare_and_swap", t);
        } finally {
            call.leave();
        }
        check(rc, "MPI_Compare_and_swap", rank);
    }

    private MemorySegment mpiOp(AtomicOp op) {
        return switch (op) {
            case FETCH -> opNoOp;
            case SET, SWAP -> opReplace;
            case ADD, FETCH_ADD -> opSum;
            case AND, FETCH_AND -> opBand;
            case OR, FETCH_OR -> opBor;
            case XOR, FETCH_XOR -> opBxor;
            case COMPARE_SWAP -> throw new IllegalArgumentException("compare-and-swap has its own call");
        };
    }

    /** {@code MPI_Win_flush}: every operation to {@code rank} is complete at the target. */
    void flush(int rank) {
        int rc;
        CallClock.Slot call = clock.enterProgressing("MPI_Win_flush", rank);
        try {
            rc = (int) MpiHandles.FLUSH.invokeExact(rank, winWord);
        } catch (Throwable t) {
            throw MpiFailures.unexpected("MPI_Win_flush", t);
        } finally {
            call.leave();
        }
        check(rc, "MPI_Win_flush", rank);
    }

    /** {@code MPI_Win_flush_local}: the buffers of every operation to {@code rank} may be reused. */
    void flushLocal(int rank) {
        int rc;
        CallClock.Slot call = clock.enterProgressing("MPI_Win_flush_local", rank);
        try {
            rc = (int) MpiHandles.FLUSH_LOCAL.invokeExact(rank, winWord);
        } catch (Throwable t) {
            throw MpiFailures.unexpected("MPI_Win_flush_local", t);
        } finally {
            call.leave();
        }
        check(rc, "MPI_Win_flush_local", rank);
    }

    /** {@code MPI_Win_flush_all}: every operation to every target is complete there. */
    void flushAll() {
        int rc;
        CallClock.Slot call = clock.enterProgressing("MPI_Win_flush_all", -1);
        try {
            rc = (int) MpiHandles.FLUSH_ALL.invokeExact(win);
        } catch (Throwable t) {
            throw MpiFailures.unexpected("MPI_Win_flush_all", t);
        } finally {
            call.leave();
        }
        check(rc, "MPI_Win_flush_all", -1);
    }

    /** Enters MPI so that it applies operations other processes target this one with ({@code MPI_Iprobe} on an unused tag). */
    void progress(MemorySegment flagOut) {
        CallClock.Slot call = clock.enterProgressing("MPI_Iprobe", -1);
        int rc;
        try {
            rc = (int) MpiHandles.IPROBE.invokeExact(OpenMpiAbi.ANY_SOURCE, OpenMpiAbi.PROGRESS_TAG, comm, flagOut, MemorySegment.NULL);
        } catch (Throwable t) {
            throw MpiFailures.unexpected("MPI_Iprobe", t);
        } finally {
            call.leave();
        }
        check(rc, "MPI_Iprobe", -1);
    }

    private void check(int rc, String what, int rank) {
        if (rc != OpenMpiAbi.SUCCESS) {
            throw MpiFailures.failed(mpi, rc, what, rank);
        }
    }
}
