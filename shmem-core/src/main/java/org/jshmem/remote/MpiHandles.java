package org.jshmem.remote;

import static org.jshmem.bootstrap.OpenMpiAbi.AINT;
import static org.jshmem.bootstrap.OpenMpiAbi.HANDLE;
import static org.jshmem.bootstrap.OpenMpiAbi.INT;
import static org.jshmem.bootstrap.OpenMpiAbi.PTR;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import org.jshmem.bootstrap.LibMpi;

/**
 * The MPI functions the remote transport calls on every operation, in static finals: the JIT
 * inlines a downcall handle that it sees as a constant, while one read from a field goes through
 * the handle's invokers on every call (visible in a profile of small one-sided puts). Initialised on
 * first use from the library {@link LibMpi#load} loaded, which the transport does before it makes
 * any call.
 */
final class MpiHandles {
    private static final LibMpi MPI = LibMpi.loaded();
    /** A buffer's address passed as a number (a pointer on the 64-bit platforms jshmem runs on). */
    private static final ValueLayout.OfLong ORIGIN = ValueLayout.JAVA_LONG;
    /** An Open MPI handle (a pointer) passed as a number: no segment to check and no arena to acquire per call. */
    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG;

    // one-sided (MpiRma). MPI_Put's and MPI_Get's buffer goes as its address (ORIGIN): a segment argument would
    // need a slice per call for a piece of the heap, and acquiring the heap's shared arena (two atomics) per call.
    // The calls of every put and get take their datatype and window as numbers (WORD).
    static final MethodHandle PUT = fn("MPI_Put", ORIGIN, INT, WORD, INT, AINT, INT, WORD, WORD);
    static final MethodHandle GET = fn("MPI_Get", ORIGIN, INT, WORD, INT, AINT, INT, WORD, WORD);
    static final MethodHandle ACCUMULATE = fn("MPI_Accumulate", PTR, INT, HANDLE, INT, AINT, INT, HANDLE, HANDLE,
            HANDLE);
    static final MethodHandle FETCH_AND_OP = fn("MPI_Fetch_and_op", PTR, PTR, HANDLE, INT, AINT, HANDLE, HANDLE);
    static final MethodHandle COMPARE_AND_SWAP = fn("MPI_Compare_and_swap", PTR, PTR, PTR, HANDLE, INT, AINT, HANDLE);
    static final MethodHandle FLUSH = fn("MPI_Win_flush", INT, WORD);
    static final MethodHandle FLUSH_LOCAL = fn("MPI_Win_flush_local", INT, WORD);
    static final MethodHandle FLUSH_ALL = fn("MPI_Win_flush_all", HANDLE);
    static final MethodHandle IPROBE = fn("MPI_Iprobe", INT, INT, HANDLE, PTR, PTR);

    // two-sided (MpiMessages)
    static final MethodHandle SEND = fn("MPI_Send", PTR, INT, HANDLE, INT, INT, HANDLE);
    static final MethodHandle RECV = fn("MPI_Recv", PTR, INT, HANDLE, INT, INT, HANDLE, PTR);
    static final MethodHandle IRECV = fn("MPI_Irecv", PTR, INT, HANDLE, INT, INT, HANDLE, PTR);
    static final MethodHandle TEST = fn("MPI_Test", PTR, PTR, PTR);

    private MpiHandles() {
    }

    private static MethodHandle fn(String name, MemoryLayout... args) {
        return MPI.function(name, args);
    }
}
