package org.jshmem.bootstrap;

import static org.jshmem.bootstrap.OpenMpiAbi.HANDLE;
import static org.jshmem.bootstrap.OpenMpiAbi.INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import org.jshmem.BootstrapException;

/**
 * The calls of Open MPI's C library that {@link MpiNativeBootstrap} makes, through FFM, each
 * checking its return code (a failure becomes a {@link BootstrapException} with
 * {@code MPI_Error_string}'s text). One instance per process, made on first use: the handles are
 * final fields of it, so a library named by {@code JSHMEM_MPI_LIBRARY} works like the default one.
 * Start-up only, so the small allocations of the lambdas and arenas here cost nothing that counts.
 * The remote transport ({@code org.jshmem.remote.MpiRma}) binds its one-sided calls through
 * {@link #symbol} and {@link #function} of the same instance.
 */
public final class LibMpi {
    private static final Linker LINKER = Linker.nativeLinker();
    private static LibMpi loaded;   // guarded by LibMpi.class

    /** What was loaded, as given (a soname or a path). */
    final String library;
    private final SymbolLookup lookup;
    final MemorySegment commWorld;
    final MemorySegment byteType;
    private final MemorySegment infoNull;
    private final MemorySegment errorsReturn;
    private final MethodHandle initialized;
    private final MethodHandle finalized;
    private final MethodHandle initThread;
    private final MethodHandle finalizeMpi;
    private final MethodHandle commRank;
    private final MethodHandle commSize;
    private final MethodHandle commDup;
    private final MethodHandle commSetErrhandler;
    private final MethodHandle commSplitType;
    private final MethodHandle commFree;
    private final MethodHandle allgather;
    private final MethodHandle barrier;
    private final MethodHandle libraryVersion;
    private final MethodHandle errorString;
    private final MethodHandle queryThread;

    private LibMpi(String library, SymbolLookup lib) {
        this.library = library;
        this.lookup = lib;
        commWorld = symbol(lib, OpenMpiAbi.COMM_WORLD);
        byteType = symbol(lib, OpenMpiAbi.BYTE);
        infoNull = symbol(lib, OpenMpiAbi.INFO_NULL);
        errorsReturn = symbol(lib, OpenMpiAbi.ERRORS_RETURN);
        initialized = function(lib, "MPI_Initialized", ValueLayout.ADDRESS);
        finalized = function(lib, "MPI_Finalized", ValueLayout.ADDRESS);
        initThread = function(lib, "MPI_Init_thread", ValueLayout.ADDRESS, ValueLayout.ADDRESS, INT, ValueLayout.ADDRESS);
        finalizeMpi = function(lib, "MPI_Finalize");
        commRank = function(lib, "MPI_Comm_rank", HANDLE, ValueLayout.ADDRESS);
        commSize = function(lib, "MPI_Comm_size", HANDLE, ValueLayout.ADDRESS);
        commDup = function(lib, "MPI_Comm_dup", HANDLE, ValueLayout.ADDRESS);
        commSetErrhandler = function(lib, "MPI_Comm_set_errhandler", HANDLE, HANDLE);
        commSplitType = function(lib, "MPI_Comm_split_type", HANDLE, INT, INT, HANDLE, ValueLayout.ADDRESS);
        commFree = function(lib, "MPI_Comm_free", ValueLayout.ADDRESS);
        allgather = function(lib, "MPI_Allgather", ValueLayout.ADDRESS, INT, HANDLE, ValueLayout.ADDRESS, INT, HANDLE, HANDLE);
        barrier = function(lib, "MPI_Barrier", HANDLE);
        libraryVersion = function(lib, "MPI_Get_library_version", ValueLayout.ADDRESS, ValueLayout.ADDRESS);
        errorString = function(lib, "MPI_Error_string", INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS);
        queryThread = function(lib, "MPI_Query_thread", ValueLayout.ADDRESS);
    }

    /**
     * Open MPI's library: {@code library} when not blank (a soname or a path), else
     * {@link OpenMpiAbi#LIBRARY}. Loaded once per process; MPI cannot be started twice anyway.
     *
     * @throws BootstrapException if it cannot be loaded or is not Open MPI's
     */
    public static synchronized LibMpi load(String library) {
        String name = library == null || library.isBlank() ? OpenMpiAbi.LIBRARY : library;
        if (loaded != null && loaded.library.equals(name)) {
            return loaded;
        }
        SymbolLookup lib;
        try {
            lib = SymbolLookup.libraryLookup(name, Arena.global());
        } catch (IllegalArgumentException e) {
            throw new BootstrapException("the mpi-native bootstrap could not load Open MPI's C library: tried '" + name + "' ("
                    + (name.equals(OpenMpiAbi.LIBRARY) ? "the default; JSHMEM_MPI_LIBRARY names another" : "from JSHMEM_MPI_LIBRARY")
                    + ") through the dynamic loader (" + e.getMessage() + "). Install " + OpenMpiAbi.PACKAGES
                    + " (Debian/Ubuntu: apt-get install openmpi-bin libopenmpi3; scripts/setup.sh does it), or set"
                    + " JSHMEM_MPI_LIBRARY to the path of Open MPI's " + OpenMpiAbi.LIBRARY + ".", e);
        }
        loaded = new LibMpi(name, lib);
        return loaded;
    }

    /**
     * The library {@link #load} loaded.
     *
     * @throws IllegalStateException if none was
     */
    public static synchronized LibMpi loaded() {
        if (loaded == null) {
            throw new IllegalStateException("Open MPI's C library is not loaded: LibMpi.load comes first");
        }
        return loaded;
    }

    /** What was loaded, as given (a soname or a path), for messages. */
    public String library() {
        return library;
    }

    /** The address of exported global {@code name} (a predefined handle such as {@code ompi_mpi_op_sum}). */
    public MemorySegment symbol(String name) {
        return symbol(lookup, name);
    }

    /** A downcall handle of {@code int name(args...)}, with the linker {@code options}. */
    public MethodHandle function(String name, MemoryLayout[] args, Linker.Option... options) {
        return LINKER.downcallHandle(symbol(lookup, name), FunctionDescriptor.of(INT, args), options);
    }

    /** {@code MPI_COMM_WORLD}. */
    public MemorySegment commWorld() {
        return commWorld;
    }

    private static MemorySegment symbol(SymbolLookup lib, String name) {
        return lib.find(name).orElseThrow(() -> new BootstrapException("the library loaded for the mpi-native bootstrap"
                + " has no symbol " + name + ": it is not Open MPI's libmpi (the bootstrap speaks Open MPI's binary interface"
                + " only; MPICH and Intel MPI are not supported). Set JSHMEM_MPI_LIBRARY to Open MPI's " + OpenMpiAbi.LIBRARY
                + ", or use JSHMEM_BOOTSTRAP=mpi."));
    }

    private static MethodHandle function(SymbolLookup lib, String name, MemoryLayout... args) {
        return LINKER.downcallHandle(symbol(lib, name), FunctionDescriptor.of(INT, args));
    }

    // ------------------------------------------------------------------ the calls

    boolean initialized() {
        return intResult("MPI_Initialized", out -> (int) initialized.invokeExact(out)) != 0;
    }

    boolean finalized() {
        return intResult("MPI_Finalized", out -> (int) finalized.invokeExact(out)) != 0;
    }

    /** MPI_Init_thread without argc/argv (MPI-2 allows NULL); returns the level provided. */
    int initThread(int required) {
        return intResult("MPI_Init_thread(" + OpenMpiAbi.threadLevelName(required) + ")",
                out -> (int) initThread.invokeExact(MemorySegment.NULL, MemorySegment.NULL, required, out));
    }

    void finalizeMpi() {
        check("MPI_Finalize", () -> (int) finalizeMpi.invokeExact());
    }

    /** The thread level MPI was started with ({@code MPI_Query_thread}). */
    public int threadLevel() {
        return intResult("MPI_Query_thread", out -> (int) queryThread.invokeExact(out));
    }

    /** This process's rank in {@code comm}. */
    public int rank(MemorySegment comm) {
        return intResult("MPI_Comm_rank", out -> (int) commRank.invokeExact(comm, out));
    }

    /** The number of processes of {@code comm}. */
    public int size(MemorySegment comm) {
        return intResult("MPI_Comm_size", out -> (int) commSize.invokeExact(comm, out));
    }

    /** A duplicate of {@code comm} whose errors come back as return codes instead of ending the process. */
    public MemorySegment dupReturningErrors(MemorySegment comm) {
        MemorySegment dup = handleResult("MPI_Comm_dup", out -> (int) commDup.invokeExact(comm, out));
        check("MPI_Comm_set_errhandler(MPI_ERRORS_RETURN)", () -> (int) commSetErrhandler.invokeExact(dup, errorsReturn));
        return dup;
    }

    /** The processes of {@code comm} that share memory with this one (the node), ordered by {@code key}. */
    MemorySegment splitShared(MemorySegment comm, int key) {
        return handleResult("MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)", out -> (int) commSplitType.invokeExact(comm,
                OpenMpiAbi.COMM_TYPE_SHARED, key, infoNull, out));
    }

    /** {@code MPI_Comm_free}. */
    public void free(MemorySegment comm) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(HANDLE);
            p.set(ValueLayout.ADDRESS, 0, comm);
            check("MPI_Comm_free", () -> (int) commFree.invokeExact(p));
        }
    }

    /** {@code MPI_Allgather} of {@code mine} (the same length on every process): every process's bytes, rank 0's first. */
    public byte[] allgather(MemorySegment comm, byte[] mine, int processes) {
        byte[] all = new byte[mine.length * processes];
        try (Arena a = Arena.ofConfined()) {
            MemorySegment send = a.allocateFrom(ValueLayout.JAVA_BYTE, mine);
            MemorySegment recv = a.allocate(Math.max(1, all.length));
            int n = mine.length;
            check("MPI_Allgather of " + n + " bytes", () -> (int) allgather.invokeExact(send, n, byteType, recv, n, byteType, comm));
            MemorySegment.copy(recv, ValueLayout.JAVA_BYTE, 0, all, 0, all.length);
        }
        return all;
    }

    void barrier(MemorySegment comm) {
        check("MPI_Barrier", () -> (int) barrier.invokeExact(comm));
    }

    /** MPI_Get_library_version's text, e.g. "Open MPI v4.1.4, package: Debian OpenMPI, ...". */
    String libraryVersion() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment text = a.allocate(OpenMpiAbi.MAX_LIBRARY_VERSION_STRING);
            MemorySegment len = a.allocate(INT);
            check("MPI_Get_library_version", () -> (int) libraryVersion.invokeExact(text, len));
            return text(text, len);
        }
    }

    /** MPI_Error_string's text for {@code code}, or a plain description if that fails too. */
    public String errorString(int code) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment text = a.allocate(OpenMpiAbi.MAX_ERROR_STRING);
            MemorySegment len = a.allocate(INT);
            int rc = (int) errorString.invokeExact(code, text, len);
            return rc == OpenMpiAbi.SUCCESS ? text(text, len) : "MPI error code " + code;
        } catch (Throwable t) {
            return "MPI error code " + code;
        }
    }

    private static String text(MemorySegment chars, MemorySegment len) {
        int n = Math.clamp(len.get(INT, 0), 0, (int) chars.byteSize());
        return new String(chars.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
    }

    // ------------------------------------------------------------------ return codes

    @FunctionalInterface
    private interface Call {
        int run() throws Throwable;
    }

    @FunctionalInterface
    private interface CallWithOut {
        int run(MemorySegment out) throws Throwable;
    }

    /** Runs {@code c}; a return code other than MPI_SUCCESS becomes a BootstrapException naming {@code what}. */
    void check(String what, Call c) {
        int rc;
        try {
            rc = c.run();
        } catch (Throwable t) {
            throw new BootstrapException(what + " could not be called through FFM: " + t, t);
        }
        if (rc != OpenMpiAbi.SUCCESS) {
            throw failure(what, rc);
        }
    }

    /** The exception for {@code what} returning {@code rc}. */
    public BootstrapException failure(String what, int rc) {
        return new BootstrapException(what + " failed in " + library + ": " + errorString(rc) + " (error code " + rc + ")");
    }

    private int intResult(String what, CallWithOut c) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(INT);
            check(what, () -> c.run(out));
            return out.get(INT, 0);
        }
    }

    private MemorySegment handleResult(String what, CallWithOut c) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(HANDLE);
            check(what, () -> c.run(out));
            return out.get(ValueLayout.ADDRESS, 0);
        }
    }
}
