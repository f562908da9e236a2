package org.jshmem.bootstrap;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.ValueLayout;

/**
 * Every fact of Open MPI's binary interface that {@link MpiNativeBootstrap} relies on, from
 * Open MPI's {@code mpi.h} (Debian 12's Open MPI 4.1.4, the version tested; the other releases
 * whose library is {@code libmpi.so.40}, 3.0 to 5.0, keep the handle scheme). {@code OpenMpiAbiTest}
 * compares them with the installed header.
 *
 * <p>What breaks it: MPICH, Intel MPI and MVAPICH ({@code libmpi.so.12}) make handles {@code int}
 * constants ({@code MPI_COMM_WORLD} is {@code 0x44000000}) where Open MPI's are addresses of
 * exported globals, and number their enums differently; the MPI 5 standard ABI
 * ({@code libmpi_abi.so}) fixes handles and constants for every implementation, with other values
 * again. Supporting one of them means another class like this one, not changes elsewhere.
 */
final class OpenMpiAbi {
    private OpenMpiAbi() {
    }

    /** The soname, loaded through the dynamic loader's search path. */
    static final String LIBRARY = "libmpi.so.40";

    /** Where Debian and Ubuntu ship {@link #LIBRARY}, for messages. */
    static final String PACKAGES = "openmpi-bin and libopenmpi3";

    // Predefined handles: MPI_COMM_WORLD is &ompi_mpi_comm_world, and so on (OMPI_PREDEFINED_GLOBAL).
    static final String COMM_WORLD = "ompi_mpi_comm_world";
    static final String BYTE = "ompi_mpi_byte";
    static final String INFO_NULL = "ompi_mpi_info_null";
    static final String ERRORS_RETURN = "ompi_mpi_errors_return";

    /** A handle ({@code MPI_Comm}, {@code MPI_Datatype}, ...): a pointer. */
    static final MemoryLayout HANDLE = ValueLayout.ADDRESS;
    /** C {@code int}: counts, ranks, error codes, enum values. */
    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;

    static final int SUCCESS = 0;
    /** First member of the anonymous enum of split types. */
    static final int COMM_TYPE_SHARED = 0;
    /** {@code MPI_THREAD_SINGLE, FUNNELED, SERIALIZED, MULTIPLE}: 0 to 3. */
    static final int THREAD_SERIALIZED = 2;
    /** {@code MPI_MAX_ERROR_STRING} ({@code OPAL_MAX_ERROR_STRING}). */
    static final int MAX_ERROR_STRING = 256;
    static final int MAX_LIBRARY_VERSION_STRING = 256;

    /** The thread level's name for messages. */
    static String threadLevelName(int level) {
        return switch (level) {
            case 0 -> "MPI_THREAD_SINGLE";
            case 1 -> "MPI_THREAD_FUNNELED";
            case 2 -> "MPI_THREAD_SERIALIZED";
            case 3 -> "MPI_THREAD_MULTIPLE";
            default -> "thread level " + level;
        };
    }
}
