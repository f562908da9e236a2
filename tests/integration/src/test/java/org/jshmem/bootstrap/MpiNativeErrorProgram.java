package org.jshmem.bootstrap;

import static org.jshmem.it.PeProgram.report;

/**
 * Starts the mpi-native bootstrap and reports the exception an MPI error code (MPI_ERR_COMM, 5)
 * becomes: Open MPI's own text through MPI_Error_string. In the bootstrap's package (on the class
 * path) to reach what the library keeps internal.
 */
public final class MpiNativeErrorProgram {
    private static final int MPI_ERR_COMM = 5;

    public static void main(String[] args) {
        LibMpi mpi = LibMpi.load("");
        try (MpiNativeBootstrap boot = new MpiNativeBootstrap(mpi)) {
            report(boot.rank(), "size", boot.size());
            report(boot.rank(), "error", mpi.failure("MPI_Barrier", MPI_ERR_COMM).getMessage());
            boot.barrier();
        }
    }
}
