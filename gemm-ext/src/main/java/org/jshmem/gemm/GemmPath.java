package org.jshmem.gemm;

/** Which implementation runs a call. */
public enum GemmPath {
    /**
     * The fused kernel when the GEMM is large enough to gain from fusion, else the reference path
     * (the crossover is {@link GemmOptions#fusedMinFlops()}).
     */
    AUTO,
    /** The fused Stream-K kernel (GPU) or the CPU executor (host heap). */
    FUSED,
    /** The vendor GEMM (cuBLAS) followed by jshmem's own collective. GPU heaps only. */
    REFERENCE
}
