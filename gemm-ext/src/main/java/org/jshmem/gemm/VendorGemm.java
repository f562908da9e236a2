package org.jshmem.gemm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jshmem.DType;
import org.jshmem.GpuException;

/**
 * cuBLAS through FFM: the vendor GEMM of the reference path and of validation. Row-major
 * C = A x B is computed as the column-major C^T = B^T x A^T ({@code cublasGemmEx}, fp32 compute).
 * The library is {@code JSHMEM_CUBLAS} if set, else {@code libcublas.so.13/.12/.so} from the
 * loader's path, the CUDA toolkit ({@code CUDA_HOME}, /usr/local/cuda) or a Python environment's
 * {@code nvidia} wheels.
 */
final class VendorGemm implements AutoCloseable {
    private static final int CUBLAS_OP_N = 0;
    private static final int CUBLAS_OP_T = 1;
    private static final int CUDA_R_16F = 2;
    private static final int CUDA_R_16BF = 14;
    private static final int CUBLAS_COMPUTE_32F = 68;
    private static final int CUBLAS_GEMM_DEFAULT = -1;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup CUBLAS = find();
    private static final MethodHandle CREATE = handle("cublasCreate_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private static final MethodHandle DESTROY = handle("cublasDestroy_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private static final MethodHandle SET_STREAM = handle("cublasSetStream_v2",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle GEMM_EX = handle("cublasGemmEx", FunctionDescriptor.of(JAVA_INT, ADDRESS,
            JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT,
            JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT));

    private final Arena arena = Arena.ofShared();
    private final MemorySegment handle;
    private final MemorySegment one = arena.allocateFrom(JAVA_FLOAT, 1f);
    private final MemorySegment zero = arena.allocateFrom(JAVA_FLOAT, 0f);

    VendorGemm() {
        if (CUBLAS == null) {
            throw new GpuException(unavailabilityCause());
        }
        MemorySegment out = arena.allocate(ADDRESS);
        check("cublasCreate", call(CREATE, out));
        handle = out.get(ADDRESS, 0);
    }

    /**
     * Queues C[m x n] = A[m x k] x B[k x n] (row-major, leading dimensions in elements) on {@code stream},
     * B stored in {@code bLayout} (n x k: cuBLAS's transposed B).
     */
    void gemm(MemorySegment stream, DType type, int m, int n, int k, MemorySegment a, long lda, MemorySegment b,
              BLayout bLayout, long ldb, MemorySegment c, long ldc) {
        int t = type == DType.BF16 ? CUDA_R_16BF : CUDA_R_16F;
        // row-major C = A B is column-major C^T = B^T A^T: B's rows of n are B^T (n x k) column-major; rows of k need op T
        int opB = bLayout == BLayout.K_BY_N ? CUBLAS_OP_N : CUBLAS_OP_T;
        check("cublasSetStream", call(SET_STREAM, handle, stream));
        try {
            int rc = (int) GEMM_EX.invokeExact(handle, opB, CUBLAS_OP_N, n, m, k, one, b, t, (int) ldb, a, t,
                    (int) lda, zero, c, t, (int) ldc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
            check("cublasGemmEx(" + m + "x" + n + "x" + k + ")", rc);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    @Override
    public void close() {
        call(DESTROY, handle);
        arena.close();
    }

    private static int call(MethodHandle h, MemorySegment... args) {
        try {
            return args.length == 1 ? (int) h.invokeExact(args[0]) : (int) h.invokeExact(args[0], args[1]);
        } catch (Throwable e) {
            throw rethrow(e);
        }
    }

    private static void check(String what, int status) {
        if (status != 0) {
            throw new GpuException(what + " failed: cuBLAS status " + status + " (see cublasStatus_t)");
        }
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }

    private static MethodHandle handle(String name, FunctionDescriptor d) {
        if (CUBLAS == null) {
            return null;
        }
        return CUBLAS.find(name).map(s -> LINKER.downcallHandle(s, d)).orElseThrow(
                () -> new GpuException("the cuBLAS library found has no " + name + "; set JSHMEM_CUBLAS to libcublas.so"
                        + " of CUDA 12 or 13"));
    }

    /** Whether cuBLAS could be loaded; if not, {@link #unavailabilityCause()} says why. */
    static boolean isAvailable() {
        return CUBLAS != null;
    }

    static String unavailabilityCause() {
        return CUBLAS != null ? null : "cuBLAS not found: set JSHMEM_CUBLAS to the path of libcublas.so, or install the"
                + " CUDA toolkit's cuBLAS (searched " + String.join(", ", candidates()) + ")";
    }

    private static SymbolLookup find() {
        for (String c : candidates()) {
            try {
                return c.contains("/") ? SymbolLookup.libraryLookup(Path.of(c), Arena.global())
                        : SymbolLookup.libraryLookup(c, Arena.global());
            } catch (IllegalArgumentException notThere) {
                // next candidate
            }
        }
        return null;
    }

    private static List<String> candidates() {
        List<String> out = new ArrayList<>();
        String env = System.getenv("JSHMEM_CUBLAS");
        if (env != null && !env.isBlank()) {
            out.add(env);
            return out;
        }
        out.addAll(List.of("libcublas.so.13", "libcublas.so.12", "libcublas.so"));
        List<Path> dirs = new ArrayList<>();
        String home = System.getenv("CUDA_HOME");
        if (home != null) {
            dirs.add(Path.of(home, "lib64"));
        }
        dirs.add(Path.of("/usr/local/cuda/lib64"));
        dirs.add(Path.of("/usr/local/cuda/targets/x86_64-linux/lib"));
        dirs.addAll(wheelDirectories());
        for (Path d : dirs) {
            for (String name : List.of("libcublas.so.13", "libcublas.so.12", "libcublas.so")) {
                if (Files.isRegularFile(d.resolve(name))) {
                    out.add(d.resolve(name).toString());
                }
            }
        }
        return out;
    }

    /** {@code nvidia/cu13/lib} and {@code nvidia/cublas/lib} of Python environments under /opt and the user's home. */
    private static List<Path> wheelDirectories() {
        List<Path> out = new ArrayList<>();
        for (Path root : List.of(Path.of("/opt"), Path.of(System.getProperty("user.home")))) {
            if (!Files.isDirectory(root)) {
                continue;
            }
            try (Stream<Path> s = Files.find(root, 8, (p, attr) -> attr.isDirectory()
                    && p.getFileName().toString().equals("lib") && p.getParent() != null
                    && p.getParent().getParent() != null
                    && p.getParent().getParent().getFileName().toString().equals("nvidia"))) {
                s.forEach(out::add);
            } catch (IOException | java.io.UncheckedIOException ignored) {
                // an unreadable directory is not where cuBLAS is
            }
        }
        return out;
    }
}
