package org.jshmem.gemm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import org.jshmem.DType;
import org.jshmem.GpuException;

/**
 * The Hopper kernel's TMA descriptors ({@code CUtensorMap}, 128 bytes), encoded on the host with the
 * driver's {@code cuTensorMapEncodeTiled} (libcuda through FFM), for A (m x k), B (k x n, or n x k:
 * {@link BLayout#N_BY_K}) and C (m x n), all row-major, with the boxes and 128-byte swizzle that jgemm_sm90.cu expects (see its
 * header comment). Re-encoded only when a matrix's address changes.
 */
final class TensorMaps {
    private static final int BF16 = 9;
    private static final int FP16 = 6;
    private static final int INTERLEAVE_NONE = 0;
    private static final int SWIZZLE_128B = 3;
    private static final int L2_PROMOTION_256B = 3;
    private static final int OOB_FILL_NONE = 0;
    /** Elements per 128-byte swizzle row: the inner box dimension of both maps. */
    private static final int SWIZZLE_ELEMS = 64;

    private static final MethodHandle ENCODE = encodeHandle();

    private final Arena arena;
    private final MemorySegment mapLocalA;
    private long addressLocalA;
    private final int dataType;
    private final GemmShape shape;
    private final KernelVariant variant;
    private final BLayout bLayout;
    private final MemorySegment mapA;
    private final MemorySegment mapB;
    private long addressA = -1;
    private long addressB = -1;
    private final MemorySegment mapC;
    private long addressC = -1;

    TensorMaps(Arena arena, KernelVariant variant, DType type, GemmShape shape, BLayout bLayout) {
        if (ENCODE == null) {
            throw new GpuException("the Hopper GEMM kernel needs cuTensorMapEncodeTiled from libcuda.so.1 (CUDA 12+"
                    + " driver), which could not be loaded; use JSHMEM_GEMM_KERNEL=portable");
        }
        this.arena = arena;
        this.variant = variant;
        this.shape = shape;
        this.bLayout = bLayout;
        this.dataType = type == DType.BF16 ? BF16 : FP16;
        this.mapA = arena.allocate(128, 64);
        this.mapB = arena.allocate(128, 64);
        this.mapLocalA = arena.allocate(128, 64);
        this.mapC = arena.allocate(128, 64);
    }

    /** All-gather + GEMM: this PE's own rows of A, {@code rows} x k at {@code address}, boxes as {@link #forA}. */
    MemorySegment forLocalA(long address, int rows) {
        if (address != addressLocalA) {
            encode(mapLocalA, address, shape.k(), rows, shape.k(), variant.tile().k(), variant.tile().m());
            addressLocalA = address;
        }
        return mapLocalA;
    }

    /** A: m x k, boxes of BK (inner, one 128-byte row) x BM. */
    MemorySegment forA(long address) {
        if (address != addressA) {
            encode(mapA, address, shape.k(), shape.m(), shape.k(), variant.tile().k(), variant.tile().m());
            addressA = address;
        }
        return mapA;
    }

    /**
     * B: k x n, boxes of 64 columns (one 128-byte row) x BK rows; or n x k, boxes of BK (one 128-byte row)
     * x 64 rows. The kernel loads BN / 64 of them per stage.
     */
    MemorySegment forB(long address) {
        if (address != addressB) {
            if (bLayout == BLayout.K_BY_N) {
                encode(mapB, address, shape.n(), shape.k(), shape.n(), SWIZZLE_ELEMS, variant.tile().k());
            } else {
                encode(mapB, address, shape.k(), shape.n(), shape.k(), variant.tile().k(), SWIZZLE_ELEMS);
            }
            addressB = address;
        }
        return mapB;
    }

    /**
     * Whether the kernel may store the tiles of C (rows of {@code ldc} elements from {@code address}, this
     * PE's first column of C) by TMA, through {@link #forC}: the GEMM alone, or the all-scatter's copy into
     * this PE's own C, with 16-byte aligned rows. The kernel's jgemm_sm90_tma_store tests the same (and, for
     * the all-scatter, how the peers' copies leave).
     */
    static boolean storesByTma(Epilogue epilogue, long address, long ldc) {
        return (epilogue == Epilogue.LOCAL || epilogue == Epilogue.ALL_SCATTER) && ((address | ldc * 2) & 15) == 0;
    }

    /**
     * C: m x n from {@code address} (this PE's first column of C) with rows of {@code ldc} elements, boxes of
     * 64 columns (one 128-byte row) x BM rows.
     */
    MemorySegment forC(long address, long ldc) {
        if (address != addressC) {
            encode(mapC, address, shape.n(), shape.m(), ldc, SWIZZLE_ELEMS, variant.tile().m());
            addressC = address;
        }
        return mapC;
    }

    /** Encodes {@code map} for an {@code outer} x {@code inner} matrix with rows {@code pitch} elements apart. */
    private void encode(MemorySegment map, long address, long inner, long outer, long pitch, int boxInner,
                        int boxOuter) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment dims = a.allocateFrom(JAVA_LONG, inner, outer);
            MemorySegment strides = a.allocateFrom(JAVA_LONG, pitch * 2);
            MemorySegment box = a.allocateFrom(JAVA_INT, boxInner, boxOuter);
            MemorySegment elementStrides = a.allocateFrom(JAVA_INT, 1, 1);
            int rc = (int) ENCODE.invokeExact(map, dataType, 2, MemorySegment.ofAddress(address), dims, strides, box,
                    elementStrides, INTERLEAVE_NONE, SWIZZLE_128B, L2_PROMOTION_256B, OOB_FILL_NONE);
            if (rc != 0) {
                throw new GpuException("cuTensorMapEncodeTiled(" + inner + " x " + outer + ", box " + boxInner + " x "
                        + boxOuter + ") failed: CUresult " + rc + " (a matrix not 16-byte aligned, or a row of "
                        + inner + " elements that is not a multiple of 8? The Hopper kernel needs both; the portable"
                        + " kernel does not: JSHMEM_GEMM_KERNEL=portable)");
            }
        } catch (Throwable t) {
            if (t instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(t);
        }
    }

    private static MethodHandle encodeHandle() {
        try {
            SymbolLookup cuda = SymbolLookup.libraryLookup("libcuda.so.1", Arena.global());
            return Linker.nativeLinker().downcallHandle(cuda.find("cuTensorMapEncodeTiled").orElseThrow(),
                    FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS,
                            ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT));
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Whether the driver's tensor-map encoder could be loaded. */
    static boolean isAvailable() {
        return ENCODE != null;
    }
}
