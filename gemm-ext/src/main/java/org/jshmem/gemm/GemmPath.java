package org.jshmem.gemm;

/** Which implementation runs a call. */
public enum GemmPath {
    /**
     * The path that measured faster for this collective and kernel (see docs/benchmarks/gemm): on
     * CUDA with cuBLAS, the fused all-scatter on the Hopper kernel, the reference otherwise.
     */
    AUTO,
    /** The fused Stream-K kernel (GPU) or the CPU executor (host heap). */
    FUSED,
    /** The vendor GEMM (cuBLAS) followed by jshmem's own collective. GPU heaps only. */
    REFERENCE
}
