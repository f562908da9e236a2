package org.jshmem.bootstrap;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import org.jshmem.BootstrapException;

/**
 * Bootstrap over OpenMPI's Java bindings ({@code mpi.jar} with {@code libmpi_java.so}).
 * Initializes MPI unless the program already did, and finalizes only what it initialized.
 * Only {@link Bootstraps} refers to this class, so a missing {@code mpi.jar} is reported there.
 */
final class MpiBootstrap implements Bootstrap {
    private final boolean ownsMpi;
    private final Intracomm world;
    private final Intracomm node;
    private final Placement placement;
    private boolean closed;

    /** @param multiple ask for MPI_THREAD_MULTIPLE (the remote transport's progress thread calls MPI too) */
    MpiBootstrap(boolean multiple) {
        try {
            ownsMpi = !MPI.isInitialized();
            if (ownsMpi) {
                if (multiple) {
                    MPI.InitThread(new String[0], MPI.THREAD_MULTIPLE);
                } else {
                    MPI.Init(new String[0]);
                }
            }
            world = MPI.COMM_WORLD;
            int rank = world.getRank();
            node = world.splitType(Intracomm.TYPE_SHARED, rank, MPI.INFO_NULL);
            placement = new Placement(rank, world.getSize(), node.getRank(), node.getSize());
        } catch (MPIException e) {
            throw new BootstrapException("MPI start-up failed in MPI_Init or MPI_Comm_split_type: " + e.getMessage()
                    + ". Check that the program was started with mpirun (or bin/jshmemrun) of the same OpenMPI as libmpi_java.so.", e);
        }
    }

    @Override
    public Placement placement() {
        return placement;
    }

    @Override
    public byte[] allgather(byte[] mine) {
        byte[] all = new byte[mine.length * size()];
        try {
            world.allGather(mine, mine.length, MPI.BYTE, all, mine.length, MPI.BYTE);
        } catch (MPIException e) {
            throw new BootstrapException("MPI_Allgather of " + mine.length + " bytes failed: " + e.getMessage(), e);
        }
        return all;
    }

    @Override
    public void barrier() {
        try {
            world.barrier();
        } catch (MPIException e) {
            throw new BootstrapException("MPI_Barrier failed: " + e.getMessage(), e);
        }
    }

    @Override
    public String describe() {
        return MpiDescription.of(MPI::getLibVersion, "Java bindings", rank(), size());
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            node.free();
            if (ownsMpi && !MPI.isFinalized()) {
                MPI.Finalize();
            }
        } catch (MPIException e) {
            throw new BootstrapException("MPI_Finalize failed: " + e.getMessage(), e);
        }
    }
}
