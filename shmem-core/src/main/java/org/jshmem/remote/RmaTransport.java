package org.jshmem.remote;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import org.jshmem.AtomicOp;
import org.jshmem.bootstrap.LibMpi;

/**
 * The one-sided {@link RemoteTransport}: this PE's access to the memory of PEs on other nodes, over MPI
 * passive-target windows ({@link MpiRma}). Every PE exposes its node's whole shared-memory file
 * (control block and the node's heaps) as its part of the window, so a displacement is an offset
 * in the target's node file: a heap byte of PE p is reached at rank p, a control word of a node at
 * its leader's rank; control words go through a second window over the control block alone
 * ({@link #open}). Each window is locked once ({@code MPI_Win_lock_all}) for its life.
 *
 * <p>Completion: blocking puts and gets, stores, loads and atomics are complete at the target
 * when they return ({@code MPI_Win_flush} of the target); the non-blocking puts and gets from
 * native memory are completed by {@link #quiet()} ({@code MPI_Win_flush_all}), which is also the
 * fence (MPI orders neither puts among themselves nor puts with accumulates). A quiet after none of
 * those has nothing to complete and makes no MPI call. Sources and destinations on the Java heap
 * go through a per-thread native staging buffer.
 *
 * <p>Progress: Open MPI 4.1's osc/rdma puts and gets reach a target on the same machine without the
 * target's help (single-copy), but applies atomics at the target only while the target is inside
 * MPI ({@code scripts/remote/mpi_rma_anchor.c --probe} shows it: an atomic to a process spinning
 * outside MPI never completes). So every wait of jshmem calls {@link #progress()} on each spin, and
 * a {@link ProgressThread} enters MPI every few hundred microseconds for a PE that computes outside
 * jshmem.
 */
final class RmaTransport implements RemoteTransport {
    private static final long MAX_CHUNK = 1L << 30;                     // MPI counts are int
    private static final long STAGING_BYTES = 1L << 20;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG;

    private final MpiRma rma;
    private final MpiRma control;
    private final CallClock clock;
    private final NodeLeaders leaders;
    private final ThreadLocal<Scratch> scratch = ThreadLocal.withInitial(Scratch::new);
    private boolean closed;
    /**
     * Whether a non-blocking put or get may be incomplete: set after one is issued, cleared by a
     * quiet before it flushes, so that one racing a quiet on another thread is either covered by
     * that flush or leaves the flag set. put + quiet made an MPI call more than MPI's put + flush.
     */
    private volatile boolean unflushed;

    /** A thread's native memory for operands, results and staged copies. */
    private static final class Scratch {
        final Arena arena = Arena.ofAuto();
        final MemorySegment operand = arena.allocate(8, 8);
        final MemorySegment compare = arena.allocate(8, 8);
        final MemorySegment result = arena.allocate(8, 8);
        final MemorySegment flag = arena.allocate(8, 8);
        MemorySegment staging;

        MemorySegment staging() {
            if (staging == null) {
                staging = arena.allocate(STAGING_BYTES, 64);
            }
            return staging;
        }
    }

    private RmaTransport(MpiRma rma, MpiRma control, CallClock clock, int myNode, int[] leaders) {
        this.rma = rma;
        this.control = control;
        this.clock = clock;
        this.leaders = new NodeLeaders(leaders, myNode);
    }

    /**
     * Collective over every PE of the job: opens the window over {@code nodeFile} (this PE's node's
     * shared-memory file), and a second one over its first {@code controlBytes} (the control block),
     * which carries only the control words ({@link #publish}). Open MPI's osc/rdma flushes a window
     * per target, not per operation: on the heap's window a heartbeat's flush waited behind the
     * program's stream of puts to the same node, spinning in MPI on the core the PE runs on, and
     * halved the program's bandwidth ({@code perf put_bw} on the remote transport).
     *
     * @param mpi          Open MPI's library
     * @param controlBytes the size of the control block at the start of {@code nodeFile}
     * @param myNode       this PE's node
     * @param leaders      the rank (PE) that takes control words for each node: its lowest PE
     */
    static RmaTransport open(LibMpi mpi, MemorySegment nodeFile, long controlBytes, int myNode, int[] leaders) {
        CallClock clock = new CallClock();
        MpiRma rma = new MpiRma(mpi, clock);
        rma.createWindow(nodeFile);
        MpiRma control = new MpiRma(mpi, clock);
        control.createWindow(nodeFile.asSlice(0, controlBytes));
        return new RmaTransport(rma, control, clock, myNode, leaders);
    }

    @Override
    public String describe() {
        return "MPI one-sided";
    }

    /** A window cannot reach GPU memory without a CUDA-aware MPI, which jshmem does not assume. */
    @Override
    public boolean carriesDeviceHeaps() {
        return false;
    }

    @Override
    public void serveDeviceHeap(TargetMemory heap) {
        throw new UnsupportedOperationException("the one-sided transport carries no device heaps: use"
                + " JSHMEM_REMOTE_PROTOCOL=messages");
    }

    // ------------------------------------------------------------------ heap data

    @Override
    public void put(int pe, long disp, MemorySegment src, boolean nbi) {
        put(pe, disp, src, 0, src.byteSize(), nbi);
    }

    /** Bytes {@code [srcOffset, srcOffset + bytes)} of {@code src}, with no slice made for them on the way. */
    @Override
    public void put(int pe, long disp, MemorySegment src, long srcOffset, long bytes, boolean nbi) {
        if (src.isNative()) {
            for (long done = 0; done < bytes; done += MAX_CHUNK) {
                rma.put(src, srcOffset + done, (int) Math.min(MAX_CHUNK, bytes - done), pe, disp + done);
            }
            if (nbi) {
                issuedUnflushed();
            } else {
                rma.flush(pe);
            }
            return;
        }
        MemorySegment stage = scratch.get().staging();
        for (long done = 0; done < bytes; done += STAGING_BYTES) {
            int len = (int) Math.min(STAGING_BYTES, bytes - done);
            MemorySegment.copy(src, srcOffset + done, stage, 0, len);
            rma.put(stage, 0, len, pe, disp + done);
            rma.flush(pe);                     // the staging buffer is reused next
        }
    }

    @Override
    public void get(MemorySegment dst, int pe, long disp, boolean nbi) {
        get(dst, 0, dst.byteSize(), pe, disp, nbi);
    }

    /** Into bytes {@code [dstOffset, dstOffset + bytes)} of {@code dst}, with no slice made for them on the way. */
    @Override
    public void get(MemorySegment dst, long dstOffset, long bytes, int pe, long disp, boolean nbi) {
        if (dst.isNative()) {
            for (long done = 0; done < bytes; done += MAX_CHUNK) {
                rma.get(dst, dstOffset + done, (int) Math.min(MAX_CHUNK, bytes - done), pe, disp + done);
            }
            if (nbi) {
                issuedUnflushed();
            } else {
                rma.flushLocal(pe);
            }
            return;
        }
        MemorySegment stage = scratch.get().staging();
        for (long done = 0; done < bytes; done += STAGING_BYTES) {
            int len = (int) Math.min(STAGING_BYTES, bytes - done);
            rma.get(stage, 0, len, pe, disp + done);
            rma.flushLocal(pe);
            MemorySegment.copy(stage, 0, dst, dstOffset + done, len);
        }
    }

    /**
     * Strided put, complete at the target on return: element i ({@code elemBytes}) from {@code src}
     * at {@code i * srcPitch} to {@code disp + i * destPitch}. The elements are gathered into the
     * staging buffer and put back to back, with one flush per buffer, not one per element.
     */
    @Override
    public void putStrided(int pe, long disp, long destPitch, MemorySegment src, long srcPitch, long elemBytes,
                           long nelems) {
        if (elemBytes > STAGING_BYTES) {
            for (long i = 0; i < nelems; i++) {
                put(pe, disp + i * destPitch, src.asSlice(i * srcPitch, elemBytes), false);
            }
            return;
        }
        MemorySegment stage = scratch.get().staging();
        long perBuffer = STAGING_BYTES / elemBytes;
        for (long first = 0; first < nelems; first += perBuffer) {
            long count = Math.min(perBuffer, nelems - first);
            for (long k = 0; k < count; k++) {
                MemorySegment.copy(src, (first + k) * srcPitch, stage, k * elemBytes, elemBytes);
                rma.put(stage, k * elemBytes, (int) elemBytes, pe, disp + (first + k) * destPitch);
            }
            rma.flush(pe);
        }
    }

    /** Strided get, the mirror of {@link #putStrided}: element i from {@code disp + i * srcPitch} to {@code dst} at {@code i * dstPitch}. */
    @Override
    public void getStrided(MemorySegment dst, long dstPitch, int pe, long disp, long srcPitch, long elemBytes, long nelems) {
        if (elemBytes > STAGING_BYTES) {
            for (long i = 0; i < nelems; i++) {
                get(dst.asSlice(i * dstPitch, elemBytes), pe, disp + i * srcPitch, false);
            }
            return;
        }
        MemorySegment stage = scratch.get().staging();
        long perBuffer = STAGING_BYTES / elemBytes;
        for (long first = 0; first < nelems; first += perBuffer) {
            long count = Math.min(perBuffer, nelems - first);
            for (long k = 0; k < count; k++) {
                rma.get(stage, k * elemBytes, (int) elemBytes, pe, disp + (first + k) * srcPitch);
            }
            rma.flushLocal(pe);
            for (long k = 0; k < count; k++) {
                MemorySegment.copy(stage, k * elemBytes, dst, (first + k) * dstPitch, elemBytes);
            }
        }
    }

    // ------------------------------------------------------------------ atomics, stores, loads

    /**
     * An atomic on the integer of {@code width} (4 or 8) bytes at {@code disp} of {@code pe}'s node
     * file; returns the old value (sign-extended) for the fetching forms, complete at the target
     * on return.
     */
    @Override
    public long atomic(AtomicOp op, int width, int pe, long disp, long value, long comparand) {
        Scratch s = scratch.get();
        put(s.operand, width, value);
        switch (op) {
            case SET, ADD, AND, OR, XOR -> {
                rma.accumulate(s.operand, width, op, pe, disp);
                rma.flush(pe);
                return 0;
            }
            case COMPARE_SWAP -> {
                if (width == 4) {
                    return compareSwapInt(s, pe, disp, (int) value, (int) comparand);
                }
                put(s.compare, width, comparand);
                rma.compareAndSwap(s.operand, s.compare, s.result, width, pe, disp);
            }
            default -> rma.fetchAndOp(s.operand, s.result, width, op, pe, disp);
        }
        rma.flush(pe);
        return width == 4 ? s.result.get(ValueLayout.JAVA_INT, 0) : s.result.get(LONG, 0);
    }

    /**
     * A 4-byte compare-and-swap done as 8-byte ones on the aligned long that holds the int. Open MPI
     * 4.1's osc/rdma applies a 4-byte {@code MPI_Compare_and_swap} as a get, a compare and a put,
     * which is not atomic with respect to the target PE's own CPU atomics on the int (its local
     * PEs' atomics are CPU atomics): it loses concurrent adds of the target, and jshmem's queue lock
     * would lose its tail that way and hang. Its 8-byte compare-and-swap, like its other atomics, is
     * a CPU atomic at the target, so this one is too.
     */
    private long compareSwapInt(Scratch s, int pe, long disp, int value, int comparand) {
        long wordDisp = disp & ~7L;
        int byteInWord = (int) (disp - wordDisp);
        int shift = Byte.SIZE * (ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? byteInWord : 4 - byteInWord);
        long mask = 0xFFFF_FFFFL << shift;
        rma.fetchAndOp(s.operand, s.result, 8, AtomicOp.FETCH, pe, wordDisp);
        rma.flush(pe);
        long seen = s.result.get(LONG, 0);
        while (true) {
            int old = (int) (seen >>> shift);
            if (old != comparand) {
                return old;                  // the 8-byte read is the compare's atomic moment
            }
            s.operand.set(LONG, 0, (seen & ~mask) | (((long) value << shift) & mask));
            s.compare.set(LONG, 0, seen);
            rma.compareAndSwap(s.operand, s.compare, s.result, 8, pe, wordDisp);
            rma.flush(pe);
            long now = s.result.get(LONG, 0);
            if (now == seen) {
                return old;
            }
            seen = now;                      // the other int of the long, or this one, changed: retry
        }
    }

    @Override
    public void store(int pe, long disp, int width, long bits) {
        Scratch s = scratch.get();
        put(s.operand, width, bits);
        rma.accumulate(s.operand, width, AtomicOp.SET, pe, disp);
        rma.flush(pe);
    }

    @Override
    public long load(int pe, long disp, int width) {
        Scratch s = scratch.get();
        rma.fetchAndOp(s.operand, s.result, width, AtomicOp.FETCH, pe, disp);
        rma.flush(pe);
        return switch (width) {
            case 1 -> s.result.get(ValueLayout.JAVA_BYTE, 0) & 0xFFL;
            case 2 -> s.result.get(ValueLayout.JAVA_SHORT, 0) & 0xFFFFL;
            case 4 -> s.result.get(ValueLayout.JAVA_INT, 0) & 0xFFFF_FFFFL;
            default -> s.result.get(LONG, 0);
        };
    }

    private static void put(MemorySegment cell, int width, long bits) {
        switch (width) {
            case 1 -> cell.set(ValueLayout.JAVA_BYTE, 0, (byte) bits);
            case 2 -> cell.set(ValueLayout.JAVA_SHORT, 0, (short) bits);
            case 4 -> cell.set(ValueLayout.JAVA_INT, 0, (int) bits);
            default -> cell.set(LONG, 0, bits);
        }
    }

    // ------------------------------------------------------------------ ordering and progress

    /** {@code MPI_Win_flush_all}: MPI orders neither puts among themselves nor puts with accumulates. */
    @Override
    public void quiet() {
        if (unflushed) {
            unflushed = false;
            rma.flushAll();
        }
    }

    /** After a non-blocking put or get: the next quiet flushes (a volatile write only when the flag is clear). */
    private void issuedUnflushed() {
        if (!unflushed) {
            unflushed = true;
        }
    }

    @Override
    public void progress() {
        rma.progress(scratch.get().flag);
    }

    /**
     * Whether another thread of this PE is in MPI now or entered a call that drives progress (a
     * flush, a probe) within {@code nanos}: then MPI is being driven without the caller.
     */
    @Override
    public boolean drivenByOthersWithin(long nanos) {
        return clock.othersProgressedWithin(nanos);
    }

    /**
     * The transport's MPI call that has been in progress the longest, on any thread, if one is:
     * what a watchdog looks at, since a call to a process that died may never return.
     */
    @Override
    public java.util.Optional<MpiCall> oldestCall() {
        return clock.oldest();
    }

    // ------------------------------------------------------------------ control plane

    /**
     * Writes {@code value} ({@code width} 4 or 8 bytes) at {@code controlOffset} of every other
     * node's file (its leader's part of the window), complete there on return: how a PE's control
     * words (barrier generations, state, heartbeat) reach the nodes that read them locally. A
     * single-copy put, so the target need not be in MPI. An aligned word only grows in the
     * generations and heartbeats, so a reader never sees a torn value as a later one. A node that
     * cannot be reached does not keep the word from the others; the first failure is thrown after.
     */
    @Override
    public void publish(long controlOffset, int width, long value) {
        Scratch s = scratch.get();
        put(s.operand, width, value);
        leaders.toOtherNodes(leader -> {
            control.put(s.operand, 0, width, leader, controlOffset);
            control.flush(leader);
        });
    }

    /**
     * Collective after the PEs' last use: ends the epoch and frees the window, when {@code clean};
     * after a failure it leaves the window to the process's exit (freeing it would wait for a dead PE).
     */
    @Override
    public synchronized void close(boolean clean) {
        if (closed) {
            return;
        }
        closed = true;
        if (clean) {
            control.freeWindow();
            rma.freeWindow();
        }
    }
}
