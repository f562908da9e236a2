package org.jshmem.gemm;

import java.util.List;

/**
 * The GPU kernel variants gemm-ext builds: tile, pipeline depth and threads per tier; the first of
 * each tier is its default, and the Hopper tier picks among its four tiles per shape
 * ({@link #hopperTile}). Shared memory per variant: {@link KernelVariant#sharedBytes()}. The choices
 * below are measured by {@code bin/jshmemrun -np 1 gemm -c none --shapes anchor} (docs/performance.md).
 */
final class GpuKernels {
    private static final List<KernelVariant> PORTABLE = List.of(
            new KernelVariant(GemmKernel.PORTABLE, new TileShape(128, 256, 64), 4, 256, 1),
            new KernelVariant(GemmKernel.PORTABLE, new TileShape(256, 128, 64), 3, 256, 1),
            new KernelVariant(GemmKernel.PORTABLE, new TileShape(128, 256, 32), 4, 256, 1),
            new KernelVariant(GemmKernel.PORTABLE, new TileShape(128, 128, 64), 3, 256, 1),
            new KernelVariant(GemmKernel.PORTABLE, new TileShape(128, 128, 32), 4, 256, 1));
    private static final List<KernelVariant> HOPPER = List.of(
            new KernelVariant(GemmKernel.HOPPER, new TileShape(128, 256, 64), 3, 384, 1),
            new KernelVariant(GemmKernel.HOPPER, new TileShape(128, 128, 64), 5, 384, 1),
            new KernelVariant(GemmKernel.HOPPER, new TileShape(128, 192, 64), 4, 384, 1),
            new KernelVariant(GemmKernel.HOPPER, new TileShape(128, 64, 64), 8, 384, 1));

    private GpuKernels() {
    }

    /**
     * The Hopper kernel's tile for one PE's GEMM on {@code workGroups} SMs: 128x256x64, whose
     * accumulators reuse each loaded byte the most, unless the 128x256 grid holds less than a third
     * of a wave of tiles: then 128x128 gives twice the tiles to spread over the SMs; or unless the
     * waves of 128x192 tiles are at least {@link #NARROW_GAIN} fuller than those of 128x256
     * ({@link #waveFill}): a 192-column tile costs a few percent per tile, which a last wave a quarter
     * empty costs many times over. 128x256 wins on most anchor shapes; 128x128 on one-tile-row and
     * small GEMMs; 128x192 where its waves are clearly fuller.
     * One case comes first: a GEMM of one tile row whose 128x64 tiles make one wave at least
     * {@link #SKINNY_MIN_FILL} full takes them, data-parallel, with 8 stages in flight per SM: such a GEMM
     * streams B from HBM once, and deeper rings keep HBM busier than 128x128 tiles split in two (cuBLAS
     * picks 128x64 tiles with 8 stages there too); with two tile rows or more it loses.
     * Override with --tile / JSHMEM_GEMM_TILE.
     */
    static TileShape hopperTile(GemmShape shape, int workGroups) {
        TileShape large = HOPPER.get(0).tile();
        TileShape small = HOPPER.get(1).tile();
        TileShape narrow = HOPPER.get(2).tile();
        TileShape skinny = HOPPER.get(3).tile();
        long skinnyTiles = tiles(shape, skinny);
        if (shape.m() <= skinny.m() && skinnyTiles <= workGroups && skinnyTiles >= SKINNY_MIN_FILL * workGroups) {
            return skinny;
        }
        if (waves(shape, large, workGroups) < 1.0 / 3) {
            return small;
        }
        TileShape wide = waveFill(shape, narrow, workGroups) >= waveFill(shape, large, workGroups) + NARROW_GAIN
                ? narrow : large;
        return waveFill(shape, small, workGroups) >= waveFill(shape, wide, workGroups) + SMALL_GAIN ? small : wide;
    }

    /**
     * How much fuller the waves of 128x128 tiles must be than those of the wider tile chosen to
     * take them: a 128x128 tile loads more per product, which a fuller wave must pay for (e.g.
     * 256x8192x8192: 128 tiles fill 0.97 of a wave, 128x192's 86 fill 0.65, and 128x128 wins). Its
     * fifth stage fits beside the output tile in the 227 KiB of shared memory and keeps HBM busier.
     */
    static final double SMALL_GAIN = 0.25;

    /** How full one wave of 128x64 tiles must be for a GEMM of one tile row to take them. */
    static final double SKINNY_MIN_FILL = 0.9;

    /** How much fuller (fraction of the work-group slots) the 128x192 waves must be to choose that tile. */
    static final double NARROW_GAIN = 0.05;

    /**
     * The share of the work-group slots of a data-parallel run that computes output: tiles over
     * whole waves of slots, times the share of the last tile column inside the matrix.
     */
    static double waveFill(GemmShape shape, TileShape tile, int workGroups) {
        long tiles = tiles(shape, tile);
        long slots = (tiles + workGroups - 1) / workGroups * workGroups;
        long columns = (shape.n() + tile.n() - 1) / tile.n();
        return (double) tiles / slots * shape.n() / ((double) columns * tile.n());
    }

    /**
     * The Hopper kernel's split when none is asked for. Data-parallel while the waves are at least
     * 90% busy: Stream-K ranges start at a different k on every work-group, so they share no A or B
     * loads in L2 (splitting every tile of a full GEMM halves its rate). Below that: the
     * {@link StreamKSchedule.Split#AUTO} hybrid when its split part (the last partial wave plus one full
     * wave) is at most a fifth of the tiles; else {@link StreamKSchedule.Split#TAIL} when, after at least
     * one full wave, the last wave is an eighth to a quarter full (emptier tails split each tile into too
     * many pieces); else data-parallel. One exception comes first: a GEMM of one tile row that fills less
     * than half a wave, with at least {@link #SPLIT_ONE_ROW_MIN_ITERS} iterations per tile, splits every
     * tile: no two of its tiles share B, so the split loses no L2 reuse, and the data-parallel wave
     * leaves most SMs idle (with two tile rows the split loses; a row that fills a wave of 128x64 tiles
     * takes those, data-parallel: {@link #hopperTile}). Measured by {@code bin/jshmemrun -np 1
     * gemm -c none --shapes anchor --split ...} (docs/performance.md).
     * Override with --split / JSHMEM_GEMM_SPLIT.
     */
    static StreamKSchedule.Split hopperSplit(GemmShape shape, TileShape tile, int workGroups) {
        long tiles = tiles(shape, tile);
        int iters = (shape.k() + tile.k() - 1) / tile.k();
        if (shape.m() <= tile.m() && 2 * tiles < workGroups && iters >= SPLIT_ONE_ROW_MIN_ITERS) {
            return StreamKSchedule.Split.STREAM_K;
        }
        long slots = (tiles + workGroups - 1) / workGroups * workGroups;
        if (tiles >= 0.9 * slots) {
            return StreamKSchedule.Split.DATA_PARALLEL;
        }
        long tail = tiles % workGroups;
        if (tail + workGroups <= 0.2 * tiles) {
            return StreamKSchedule.Split.AUTO;
        }
        boolean smallTail = tiles > workGroups && tail >= workGroups / 8.0 && tail <= workGroups / 4.0;
        return smallTail ? StreamKSchedule.Split.TAIL : StreamKSchedule.Split.DATA_PARALLEL;
    }

    /** K-iterations per tile from which a one-row GEMM of less than half a wave is split (measured at 128). */
    static final int SPLIT_ONE_ROW_MIN_ITERS = 64;

    private static long tiles(GemmShape shape, TileShape tile) {
        return (long) ((shape.m() + tile.m() - 1) / tile.m()) * ((shape.n() + tile.n() - 1) / tile.n());
    }

    private static double waves(GemmShape shape, TileShape tile, int workGroups) {
        return (double) tiles(shape, tile) / workGroups;
    }

    static List<KernelVariant> variants(GemmKernel kernel) {
        return kernel == GemmKernel.HOPPER ? HOPPER : PORTABLE;
    }

    /** Whether a tier has a kernel in this build. */
    static boolean built(GemmKernel kernel) {
        return !variants(kernel).isEmpty();
    }
}
