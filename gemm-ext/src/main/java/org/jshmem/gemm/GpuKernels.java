package org.jshmem.gemm;

import java.util.List;

/**
 * The GPU kernel variants gemm-ext compiles: the first of each tier is its default. Chosen from
 * the measurements in {@code docs/benchmarks/gemm/} (see gemm-ext/README.md).
 */
final class GpuKernels {
    private static final List<KernelVariant> PORTABLE = List.of(
            new KernelVariant(GemmKernel.PORTABLE, new TileShape(128, 128, 32), 4, 256));
    private static final List<KernelVariant> HOPPER = List.of(
            new KernelVariant(GemmKernel.HOPPER, new TileShape(128, 256, 64), 4, 384));

    private GpuKernels() {
    }

    static List<KernelVariant> variants(GemmKernel kernel) {
        return kernel == GemmKernel.HOPPER ? HOPPER : PORTABLE;
    }
}
