package org.jshmem.bootstrap;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.ValueLayout;

/**
 * Every fact of Open MPI's binary interface that {@link MpiNativeBootstrap} and the remote
 * transport ({@code org.jshmem.remote}) rely on, from
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
public final class OpenMpiAbi {
    private OpenMpiAbi() {
    }

    /** The soname, loaded through the dynamic loader's search path. */
    public static final String LIBRARY = "libmpi.so.40";

    /** Where Debian and Ubuntu ship {@link #LIBRARY}, for messages. */
    public static final String PACKAGES = "openmpi-bin and libopenmpi3";

    // Predefined handles: MPI_COMM_WORLD is &ompi_mpi_comm_world, and so on (OMPI_PREDEFINED_GLOBAL).
    public static final String COMM_WORLD = "ompi_mpi_comm_world";
    public static final String BYTE = "ompi_mpi_byte";
    public static final String INFO_NULL = "ompi_mpi_info_null";
    public static final String ERRORS_RETURN = "ompi_mpi_errors_return";

    // One-sided communication: the reduction operations and fixed-width integer types of the atomics
    public static final String OP_SUM = "ompi_mpi_op_sum";
    public static final String OP_REPLACE = "ompi_mpi_op_replace";
    public static final String OP_NO_OP = "ompi_mpi_op_no_op";
    public static final String OP_BAND = "ompi_mpi_op_band";
    public static final String OP_BOR = "ompi_mpi_op_bor";
    public static final String OP_BXOR = "ompi_mpi_op_bxor";
    public static final String INT8 = "ompi_mpi_int8_t";
    public static final String INT16 = "ompi_mpi_int16_t";
    public static final String INT32 = "ompi_mpi_int32_t";
    public static final String INT64 = "ompi_mpi_int64_t";
    /** {@code MPI_MODE_NOCHECK}: no conflicting lock is held (MPI_Win_lock_all once for the window's life). */
    public static final int MODE_NOCHECK = 1;
    /** {@code MPI_ANY_SOURCE}. */
    public static final int ANY_SOURCE = -1;
    /** A tag no message of jshmem carries: {@code MPI_Iprobe} on it only drives progress. */
    public static final int PROGRESS_TAG = 0x6A5;

    /** A handle ({@code MPI_Comm}, {@code MPI_Datatype}, ...): a pointer. */
    public static final MemoryLayout HANDLE = ValueLayout.ADDRESS;
    /** C {@code int}: counts, ranks, error codes, enum values. */
    public static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;
    /** A pointer argument: a buffer, or a cell the call writes (a status, a flag, a request). */
    public static final MemoryLayout PTR = ValueLayout.ADDRESS;
    /** {@code MPI_Aint}: window displacements and sizes ({@code ptrdiff_t}). */
    public static final ValueLayout.OfLong AINT = ValueLayout.JAVA_LONG;

    public static final int SUCCESS = 0;
    /** First member of the anonymous enum of split types. */
    public static final int COMM_TYPE_SHARED = 0;
    /** {@code MPI_THREAD_SINGLE, FUNNELED, SERIALIZED, MULTIPLE}: 0 to 3. */
    public static final int THREAD_SERIALIZED = 2;
    public static final int THREAD_MULTIPLE = 3;
    /** {@code MPI_MAX_ERROR_STRING} ({@code OPAL_MAX_ERROR_STRING}). */
    public static final int MAX_ERROR_STRING = 256;
    public static final int MAX_LIBRARY_VERSION_STRING = 256;

    /** The thread level's name for messages. */
    public static String threadLevelName(int level) {
        return switch (level) {
            case 0 -> "MPI_THREAD_SINGLE";
            case 1 -> "MPI_THREAD_FUNNELED";
            case 2 -> "MPI_THREAD_SERIALIZED";
            case 3 -> "MPI_THREAD_MULTIPLE";
            default -> "thread level " + level;
        };
    }
}
