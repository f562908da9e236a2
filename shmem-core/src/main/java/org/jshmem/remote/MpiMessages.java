package org.jshmem.remote;

import static org.jshmem.bootstrap.OpenMpiAbi.INT;
import static org.jshmem.bootstrap.OpenMpiAbi.PTR;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import org.jshmem.bootstrap.LibMpi;
import org.jshmem.bootstrap.OpenMpiAbi;

/**
 * The two-sided calls of Open MPI's C library that {@link MessageTransport} makes, through FFM, on
 * a communicator of its own (a duplicate of {@code MPI_COMM_WORLD} that returns errors): a blocking
 * send and receive of bytes, a receive posted ahead ({@code MPI_Irecv}) and its test, and cancelling one. A
 * request handle lives in a caller's cell ({@link #requestCell}). A failed call names the PE it was
 * aimed at ({@link MpiFailures}).
 */
final class MpiMessages {

    private final LibMpi mpi;
    private final MemorySegment comm;
    private final MemorySegment byteType;
    private final MethodHandle cancel;
    private final MethodHandle waitRequest;

    /** Collective over {@code MPI_COMM_WORLD}: duplicates it. */
    MpiMessages(LibMpi mpi) {
        this.mpi = mpi;
        comm = mpi.dupReturningErrors(mpi.commWorld());
        byteType = mpi.symbol(OpenMpiAbi.BYTE);
        cancel = mpi.function("MPI_Cancel", new MemoryLayout[] {PTR});
        waitRequest = mpi.function("MPI_Wait", new MemoryLayout[] {PTR, PTR});
    }

    /** This process's rank. */
    int rank() {
        return mpi.rank(comm);
    }

    /** The number of processes. */
    int size() {
        return mpi.size(comm);
    }

    /** A cell for one request handle and the flag of its test, in {@code arena}. */
    static MemorySegment requestCell(Arena arena) {
        return arena.allocate(16, 8);
    }

    /** {@code MPI_Send} of {@code bytes} from {@code buf} to {@code rank} with {@code tag}: the buffer may be reused on return. */
    void send(MemorySegment buf, int bytes, int rank, int tag) {
        int rc;
        try {
            rc = (int) MpiHandles.SEND.invokeExact(buf, bytes, byteType, rank, tag, comm);
        } catch (Throwable t) {
            throw MpiFailures.unexpected("MPI_Send", t);
        }
        check(rc, "MPI_Send", rank);
    }

    /** {@code MPI_Recv} of {@code bytes} into {@code buf} from {@code rank} with {@code tag}. */
    void receive(MemorySegment buf, int bytes, int rank, int tag) {
        int rc;
        try {
            rc = (int) MpiHandles.RECV.invokeExact(buf, bytes, byteType, rank, tag, comm, MemorySegment.NULL);   // MPI_STATUS_IGNORE
        } catch (Throwable t) {
            throw MpiFailures.unexpected("MPI_Recv", t);
        }
        check(rc, "MPI_Recv", rank);
    }

    /** {@code MPI_Irecv} of up to {@code bytes} into {@code buf} from {@code rank} (or {@link OpenMpiAbi#ANY_SOURCE}) with {@code tag}. */
    void postReceive(MemorySegment buf, int bytes, int rank, int tag, MemorySegment cell) {
        int rc;
        try {
            rc = (int) MpiHandles.IRECV.invokeExact(buf, bytes, byteType, rank, tag, comm, cell);
        } catch (Throwable t) {
            throw MpiFailures.unexpected("MPI_Irecv", t);
        }
        check(rc, "MPI_Irecv", rank);
    }

    /** {@code MPI_Test} of the receive in {@code cell}: whether it is complete (then the cell holds no request). */
    boolean test(MemorySegment cell, int rank) {
        int rc;
        MemorySegment flag = cell.asSlice(8, 4);
        try {
            rc = (int) MpiHandles.TEST.invokeExact(cell, flag, MemorySegment.NULL);   // NULL: MPI_STATUS_IGNORE
        } catch (Throwable t) {
            throw MpiFailures.unexpected("MPI_Test", t);
        }
        check(rc, "MPI_Test", rank);
        return flag.get(INT, 0) != 0;
    }

    /** Cancels the receive in {@code cell} and waits until it is gone. */
    void cancel(MemorySegment cell) {
        try {
            check((int) cancel.invokeExact(cell), "MPI_Cancel", -1);
            check((int) waitRequest.invokeExact(cell, MemorySegment.NULL), "MPI_Wait", -1);
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw MpiFailures.unexpected("MPI_Cancel", t);
        }
    }

    /** Frees the communicator: after the last message. */
    void free() {
        mpi.free(comm);
    }

    private void check(int rc, String what, int rank) {
        if (rc != OpenMpiAbi.SUCCESS) {
            throw MpiFailures.failed(mpi, rc, what, rank);
        }
    }
}
