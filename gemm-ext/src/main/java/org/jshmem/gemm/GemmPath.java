package org.jshmem.gemm;

/** Which implementation runs a call. */
public enum GemmPath {
    /**
     * The path that measured faster for this collective, kernel, size and GPU sharing (see
     * docs/gemm.md): with cuBLAS bound, the fused path on the Hopper kernel where it wins, the
     * reference otherwise; without a vendor GEMM (HIP), for a GEMM alone and on host heaps, the fused
     * path.
     */
    AUTO,
    /** The fused Stream-K kernel (GPU) or the CPU executor (host heap). */
    FUSED,
    /**
     * The GEMM alone followed by jshmem's own collective: cuBLAS and the on-stream collective on a GPU
     * heap; on a host heap a CPU GEMM and the blocking collective. What the fused path is measured against.
     */
    REFERENCE
}
