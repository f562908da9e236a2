package org.jshmem.gemm;

import java.util.List;

/**
 * The GPU kernel variants gemm-ext builds: tile, pipeline depth and threads per tier; the first of
 * each tier is its default (chosen from the measurements in docs/benchmarks/gemm, see
 * gemm-ext/README.md). Shared memory per variant: {@link KernelVariant#sharedBytes()}.
 */
final class GpuKernels {
    private static final List<KernelVariant> PORTABLE = List.of(
            new KernelVariant(GemmKernel.PORTABLE, new TileShape(128, 256, 64), 4, 256),
            new KernelVariant(GemmKernel.PORTABLE, new TileShape(256, 128, 64), 3, 256),
            new KernelVariant(GemmKernel.PORTABLE, new TileShape(128, 256, 32), 4, 256),
            new KernelVariant(GemmKernel.PORTABLE, new TileShape(128, 128, 64), 3, 256),
            new KernelVariant(GemmKernel.PORTABLE, new TileShape(128, 128, 32), 4, 256));
    private static final List<KernelVariant> HOPPER = List.of(
            new KernelVariant(GemmKernel.HOPPER, new TileShape(128, 128, 64), 3, 384));

    private GpuKernels() {
    }

    static List<KernelVariant> variants(GemmKernel kernel) {
        return kernel == GemmKernel.HOPPER ? HOPPER : PORTABLE;
    }

    /** Whether a tier has a kernel in this build. */
    static boolean built(GemmKernel kernel) {
        return !variants(kernel).isEmpty();
    }
}
