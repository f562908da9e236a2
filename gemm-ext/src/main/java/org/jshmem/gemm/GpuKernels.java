package org.jshmem.gemm;

import java.util.List;

/**
 * The GPU kernel variants gemm-ext builds: tile, pipeline depth and threads per tier; the first of
 * each tier is its default (chosen from the measurements in docs/benchmarks/gemm, see
 * gemm-ext/README.md), and the Hopper tier picks between its two tiles per shape
 * ({@link #hopperTile}). Shared memory per variant: {@link KernelVariant#sharedBytes()}.
 */
final class GpuKernels {
    private static final List<KernelVariant> PORTABLE = List.of(
            new KernelVariant(GemmKernel.PORTABLE, new TileShape(128, 256, 64), 4, 256),
            new KernelVariant(GemmKernel.PORTABLE, new TileShape(256, 128, 64), 3, 256),
            new KernelVariant(GemmKernel.PORTABLE, new TileShape(128, 256, 32), 4, 256),
            new KernelVariant(GemmKernel.PORTABLE, new TileShape(128, 128, 64), 3, 256),
            new KernelVariant(GemmKernel.PORTABLE, new TileShape(128, 128, 32), 4, 256));
    private static final List<KernelVariant> HOPPER = List.of(
            new KernelVariant(GemmKernel.HOPPER, new TileShape(128, 256, 64), 3, 384),
            new KernelVariant(GemmKernel.HOPPER, new TileShape(128, 128, 64), 4, 384));

    private GpuKernels() {
    }

    /**
     * The Hopper kernel's tile for one PE's GEMM on {@code workGroups} SMs: 128x256x64, whose
     * accumulators reuse each loaded byte twice as often, except where the 128x256 grid holds (a)
     * less than a third of a wave of tiles: the 128x128 grid has twice the tiles to spread over the
     * SMs, or (b) 1.5 to 3 waves: Stream-K then splits most of those large tiles and their fix-up
     * costs more than the smaller tile's lower reuse. Measured on one H100 (docs/benchmarks/gemm,
     * 2026-11-25): (a) 128x8192x8192 +33% bf16 / +22% fp16 and 1000x1000x1000 0.094 ms against 0.461,
     * (b) 1536x6144x8192 +14% / +14%, 1024x8192x8192 +1% / -2%; every other anchor shape ran faster
     * on 128x256 (by up to 13%, 8192^3). Override with --tile / JSHMEM_GEMM_TILE.
     */
    static TileShape hopperTile(GemmShape shape, int workGroups) {
        TileShape large = HOPPER.get(0).tile();
        TileShape small = HOPPER.get(1).tile();
        long tiles = (long) ((shape.m() + large.m() - 1) / large.m()) * ((shape.n() + large.n() - 1) / large.n());
        double waves = (double) tiles / workGroups;
        return waves < 1.0 / 3 || (waves >= 1.5 && waves < 3) ? small : large;
    }

    static List<KernelVariant> variants(GemmKernel kernel) {
        return kernel == GemmKernel.HOPPER ? HOPPER : PORTABLE;
    }

    /** Whether a tier has a kernel in this build. */
    static boolean built(GemmKernel kernel) {
        return !variants(kernel).isEmpty();
    }
}
