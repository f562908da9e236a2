package org.jshmem.bootstrap;

import org.jshmem.BootstrapException;
import org.jshmem.ShmemConfig;

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

    /** Whether OpenMPI's Java bindings ({@code mpi.MPI}, in mpi.jar) are on the class path. */
    public static boolean javaBindingsPresent() {
        try {
            Class.forName("mpi.MPI", false, Bootstraps.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /**
     * Starts the bootstrap {@code config} asks for ({@code AUTO}: under mpirun, MPI through the
     * Java bindings when they are on the class path, else through libmpi's C API; else one PE).
     */
    public static Bootstrap start(ShmemConfig config) {
        boolean multiple = mayUseRemoteTransport(config);
        return switch (config.bootstrap()) {
            case SINGLE -> new SinglePeBootstrap();
            case MPI -> startJavaBindings(multiple);
            case MPI_NATIVE -> startNative(config.mpiLibrary(), multiple, "");
            case AUTO -> !startedByMpirun() ? new SinglePeBootstrap()
                    : javaBindingsPresent() ? startJavaBindings(multiple)
                    : startNative(config.mpiLibrary(), multiple, " (JSHMEM_BOOTSTRAP=auto chose mpi-native: OpenMPI's"
                            + " Java bindings, mpi.jar, are not on the class path)");
        };
    }

    /**
     * Whether the job may have peers on other nodes (then MPI starts with MPI_THREAD_MULTIPLE, for
     * the remote transport's progress thread): peers forced remote by the settings, or an mpirun
     * job whose processes are not all on this node (known before MPI starts from mpirun's
     * environment).
     */
    static boolean mayUseRemoteTransport(ShmemConfig config) {
        if (config.remote().forcesRemotePeers()) {
            return true;
        }
        String size = System.getenv("OMPI_COMM_WORLD_SIZE");
        String local = System.getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
        return size != null && local != null && !size.equals(local);
    }

    private static Bootstrap startNative(String library, boolean multiple, String why) {
        try {
            return new MpiNativeBootstrap(LibMpi.load(library),
                    multiple ? OpenMpiAbi.THREAD_MULTIPLE : OpenMpiAbi.THREAD_SERIALIZED);
        } catch (BootstrapException e) {
            throw why.isEmpty() ? e : new BootstrapException(e.getMessage() + why, e);
        }
    }

    private static Bootstrap startJavaBindings(boolean multiple) {
        if (!javaBindingsPresent()) {
            throw new BootstrapException("OpenMPI's Java bindings (class mpi.MPI, in mpi.jar) are not on the class path"
                    + (startedByMpirun() ? ", although this process was started by mpirun (OMPI_COMM_WORLD_SIZE="
                    + System.getenv("OMPI_COMM_WORLD_SIZE") + ")" : "") + ". " + FIX
                    + " Or set JSHMEM_BOOTSTRAP=mpi-native (or auto), which needs only OpenMPI's C library.");
        }
        try {
            return new MpiBootstrap(multiple);
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
