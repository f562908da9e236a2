package org.jshmem.gemm;

/** How the fused all-scatter's finished tiles reach the other PEs' C. */
public enum ScatterTransport {
    /**
     * The copy engines for a large GEMM on two PEs with a GPU each, the kernel's stores otherwise: with
     * more PEs, or where PEs share a GPU (see GpuPlatform); the kernel's stores on host heaps.
     */
    AUTO,
    /** The kernel stores each finished tile into every PE's C (SM stores, over NVLink between GPUs). */
    STORES,
    /**
     * The kernel stores each tile into this PE's C only and counts it into its chunk (a group of tile
     * rows); a second stream waits for each whole chunk but the last and copies it into the other PEs' C
     * with the copy engines ({@link org.jshmem.Shmem#ibputOnStream}), so the SMs are left to the GEMM. The
     * last chunk's tiles end in the kernel's last wave: the kernel stores those into every PE's C itself.
     * GPU heaps.
     */
    COPY_ENGINE
}
