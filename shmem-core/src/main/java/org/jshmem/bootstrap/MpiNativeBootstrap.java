package org.jshmem.bootstrap;

import java.lang.foreign.MemorySegment;
import org.jshmem.BootstrapException;

/**
 * Bootstrap over Open MPI's C library, called through FFM ({@link LibMpi}): needs no Java
 * bindings, only {@code libmpi.so.40}. Like {@link MpiBootstrap} it initializes MPI unless the
 * program already did, and finalizes only what it initialized. It works on a duplicate of
 * {@code MPI_COMM_WORLD} with {@code MPI_ERRORS_RETURN}, so that a failing call becomes a
 * {@link BootstrapException} instead of ending the process, without changing the world
 * communicator a program of its own may use.
 *
 * <p>Thread level: it asks for {@code MPI_THREAD_SERIALIZED}, because its calls come from whichever
 * thread calls {@code Shmem.init}, {@code close} or a collective checked under {@code JSHMEM_DEBUG}
 * (never two at once: the methods are synchronized), not always the thread that started MPI; and for
 * {@code MPI_THREAD_MULTIPLE} when the job may use the remote transport, whose progress thread
 * enters MPI beside the program's threads.
 */
final class MpiNativeBootstrap implements Bootstrap {
    private final LibMpi mpi;
    private final boolean ownsMpi;
    private final MemorySegment comm;
    private final MemorySegment node;
    private final Placement placement;
    private boolean closed;

    /** Starts with {@code MPI_THREAD_SERIALIZED}. */
    MpiNativeBootstrap(LibMpi mpi) {
        this(mpi, OpenMpiAbi.THREAD_SERIALIZED);
    }

    MpiNativeBootstrap(LibMpi mpi, int threadLevel) {
        this.mpi = mpi;
        ownsMpi = !mpi.initialized();
        if (ownsMpi) {
            int provided = mpi.initThread(threadLevel);
            if (provided < threadLevel) {
                throw new BootstrapException("MPI_Init_thread in " + mpi.library + " provided only "
                        + OpenMpiAbi.threadLevelName(provided) + "; the mpi-native bootstrap needs "
                        + OpenMpiAbi.threadLevelName(threadLevel) + " (its calls may come from more than one thread)."
                        + " Use an Open MPI built with thread support.");
            }
        }
        comm = mpi.dupReturningErrors(mpi.commWorld);
        int rank = mpi.rank(comm);
        node = mpi.splitShared(comm, rank);
        placement = new Placement(rank, mpi.size(comm), mpi.rank(node), mpi.size(node));
    }

    @Override
    public Placement placement() {
        return placement;
    }

    @Override
    public synchronized byte[] allgather(byte[] mine) {
        return mpi.allgather(comm, mine, size());
    }

    @Override
    public synchronized void barrier() {
        mpi.barrier(comm);
    }

    @Override
    public synchronized String describe() {
        return MpiDescription.of(mpi::libraryVersion, "libmpi through FFM", rank(), size());
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        mpi.free(node);
        mpi.free(comm);
        if (ownsMpi && !mpi.finalized()) {
            mpi.finalizeMpi();
        }
    }
}
