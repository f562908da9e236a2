package org.jshmem.gemm;

/** Which implementation runs a call. */
public enum GemmPath {
    /**
     * The path that measured faster for this collective, kernel, size and GPU sharing (see
     * docs/gemm.md): with cuBLAS bound, the fused path on the Hopper kernel where it wins, the
     * reference otherwise; without a vendor GEMM (HIP), and for a GEMM alone, the fused path.
     */
    AUTO,
    /** The fused Stream-K kernel (GPU) or the CPU executor (host heap). */
    FUSED,
    /** The vendor GEMM (cuBLAS) followed by jshmem's own collective. GPU heaps only. */
    REFERENCE
}
