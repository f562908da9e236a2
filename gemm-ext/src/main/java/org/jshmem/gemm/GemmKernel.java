package org.jshmem.gemm;

/** Which GEMM kernel tier runs the fused path. */
public enum GemmKernel {
    /** The Hopper kernel on sm_90 GPUs, the portable kernel on other GPUs, the CPU executor on host heaps. */
    AUTO,
    /** The portable tensor-core kernel ({@code mma.sync} on sm_80+, MFMA on gfx90a/gfx942). */
    PORTABLE,
    /** The sm_90a kernel: TMA loads, mbarrier pipeline, warp-specialised {@code wgmma}. */
    HOPPER,
    /** The CPU executor (host heaps): the same schedule and flag protocol, scalar inner products. */
    CPU
}
