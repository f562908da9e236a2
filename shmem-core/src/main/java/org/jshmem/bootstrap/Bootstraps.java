package org.jshmem.bootstrap;

import org.jshmem.BootstrapException;
import org.jshmem.ShmemConfig.BootstrapKind;

/** Picks and starts the bootstrap, turning a missing or mismatched MPI into a message that says what to do. */
public final class Bootstraps {
    private static final String FIX = "Start the program with bin/jshmemrun (it sets the class path and"
            + " -Djava.library.path), or run scripts/setup.sh, which builds build/mpi/mpi.jar.";

    private Bootstraps() {
    }

    /** Whether this process was started by OpenMPI's mpirun. */
    public static boolean startedByMpirun() {
        return System.getenv("OMPI_COMM_WORLD_SIZE") != null;
    }

    /** Starts the bootstrap {@code kind} asks for ({@code AUTO}: MPI under mpirun, else one PE). */
    public static Bootstrap start(BootstrapKind kind) {
        return switch (kind) {
            case SINGLE -> new SinglePeBootstrap();
            case MPI -> startMpi();
            case AUTO -> startedByMpirun() ? startMpi() : new SinglePeBootstrap();
        };
    }

    private static Bootstrap startMpi() {
        try {
            Class.forName("mpi.MPI", false, Bootstraps.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new BootstrapException("OpenMPI's Java bindings (class mpi.MPI, in mpi.jar) are not on the class path"
                    + (startedByMpirun() ? ", although this process was started by mpirun (OMPI_COMM_WORLD_SIZE="
                    + System.getenv("OMPI_COMM_WORLD_SIZE") + ")" : "") + ". " + FIX);
        }
        try {
            return new MpiBootstrap();
        } catch (UnsatisfiedLinkError e) {
            throw new BootstrapException("OpenMPI's Java bindings could not load their native part (libmpi_java.so): "
                    + e.getMessage() + ". java.library.path=" + System.getProperty("java.library.path")
                    + ". Install libopenmpi3 (Debian) and pass -Djava.library.path=<dir of libmpi_java.so>; " + FIX, e);
        } catch (NoSuchMethodError | NoSuchFieldError | NoClassDefFoundError | ExceptionInInitializerError e) {
            throw new BootstrapException("the mpi.jar on the class path does not match this OpenMPI's libmpi_java.so ("
                    + e + "). Rebuild it from the installed OpenMPI's source: " + FIX, e);
        }
    }
}
