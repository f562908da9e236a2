package org.jshmem.gemm;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * How the output tiles of one PE's GEMM are shared among persistent work-groups: the Stream-K
 * hybrid. Tiles {@code [0, skTiles)} form the Stream-K part: their {@code skTiles * itersPerTile}
 * K-iterations, in order, are cut into {@code skWorkGroups} contiguous ranges, the first
 * {@code skExtra} one iteration longer. Work-group w walks its range first, then the data-parallel
 * tiles {@code skTiles + w, skTiles + w + grid, ...}. Tiles are numbered in grouped order
 * ({@code groupM} tile-rows per group) for L2 reuse.
 *
 * <p>A plain value: the GPU kernels get these fields as launch parameters and redo the same
 * arithmetic ({@code jgemm.h}); the CPU executor calls the methods here. The work-group holding a
 * tile's first iteration owns it: it adds the partials of the later work-groups of its tile and
 * publishes it. {@code rowOrder} lists the tile rows in the order the schedule takes them (the
 * identity unless a fused collective wants its own order; the kernels read it from the workspace).
 */
public record StreamKSchedule(GemmShape shape, TileShape tile, int tilesM, int tilesN, int itersPerTile, int groupM,
                              int grid, int skTiles, int skWorkGroups, int skItersPerWg, int skExtra,
                              List<Integer> rowOrder) {

    /** Fewest K-iterations a Stream-K range should hold: shorter ones cost more in fix-up than they save. */
    public static final int MIN_SK_ITERS = 2;

    /** Tile rows per group of the tile order unless asked otherwise ({@code JSHMEM_GEMM_GROUP_M}). */
    public static final int DEFAULT_GROUP_M = 8;

    /** One piece of work: iterations {@code [begin, end)} of tile {@code tile}. */
    public record Unit(int tile, int begin, int end) {
        /** Whether this unit holds the tile's first iteration (its work-group owns the tile). */
        public boolean owns() {
            return begin == 0;
        }
    }

    /** How the split is chosen. */
    public enum Split {
        /**
         * The library's choice: on the Hopper kernel {@code GpuKernels.hopperSplit} (data-parallel
         * unless a small split part fills an idle last wave), elsewhere, and whenever it is given to
         * {@link #plan}, the heuristic there: data-parallel waves, the last partial wave plus one
         * full wave split.
         */
        AUTO,
        /** Every tile data-parallel (classic persistent GEMM). */
        DATA_PARALLEL,
        /**
         * Only the last partial wave ({@code T mod G} tiles) split, over every work-group: the full
         * waves stay data-parallel, and each work-group first takes an even share of the split
         * tiles' iterations.
         */
        TAIL,
        /** Every tile in the Stream-K part. */
        STREAM_K
    }

    public StreamKSchedule {
        if (grid <= 0) {
            throw new IllegalArgumentException("schedule: work-group count " + grid + " must be positive");
        }
        rowOrder = List.copyOf(rowOrder);
        boolean[] seen = new boolean[tilesM];
        for (int r : rowOrder) {
            if (r < 0 || r >= tilesM || seen[r]) {
                throw new IllegalArgumentException("schedule: row order " + rowOrder + " is not a permutation of the "
                        + tilesM + " tile rows");
            }
            seen[r] = true;
        }
        if (rowOrder.size() != tilesM) {
            throw new IllegalArgumentException("schedule: row order of " + rowOrder.size() + " rows for " + tilesM
                    + " tile rows");
        }
        if (skTiles < 0 || skTiles > tilesM * tilesN) {
            throw new IllegalArgumentException("schedule: " + skTiles + " Stream-K tiles of " + tilesM * tilesN);
        }
    }

    /**
     * The schedule for {@code shape} cut in {@code tile}s over {@code grid} work-groups.
     *
     * <p>Heuristic ({@link Split#AUTO}): with T tiles and G work-groups, T a multiple of G leaves no
     * idle work-group in the last wave: all data-parallel. Otherwise the last partial wave and one
     * full wave before it ({@code T mod G + G} tiles, or all when T &lt; 2G) become the Stream-K part,
     * so every work-group gets the same number of iterations to within one, each range spanning at
     * most three tiles. Ranges shorter than {@link #MIN_SK_ITERS} iterations are avoided by using
     * fewer Stream-K work-groups.
     */
    public static StreamKSchedule plan(GemmShape shape, TileShape tile, int grid, int groupM, Split split) {
        return plan(shape, tile, grid, groupM, split, shape.k());
    }

    /**
     * Like {@link #plan(GemmShape, TileShape, int, int, Split)}, with iterations counted over
     * {@code depthK >= shape.k()}: PEs whose k differ by a little (a k split that is not even) then
     * share one schedule, so a tile has the same owner, at the same place in its work-group's order,
     * on every PE; a fused all-reduce, whose owners wait for each other's partials, needs that to be
     * free of waiting cycles. Iterations past k read nothing (the kernels zero-fill them).
     */
    public static StreamKSchedule plan(GemmShape shape, TileShape tile, int grid, int groupM, Split split, int depthK) {
        if (depthK < shape.k()) {
            throw new IllegalArgumentException("schedule depth " + depthK + " is less than k = " + shape.k());
        }
        if (grid <= 0) {
            throw new IllegalArgumentException("schedule: work-group count " + grid + " must be positive");
        }
        int tilesM = ceilDiv(shape.m(), tile.m());
        int tilesN = ceilDiv(shape.n(), tile.n());
        int iters = ceilDiv(depthK, tile.k());
        long tiles = (long) tilesM * tilesN;
        if (tiles > Integer.MAX_VALUE / 2 || tiles * iters > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("GEMM " + shape + " with tiles " + tile + " has " + tiles + " tiles of "
                    + iters + " iterations: too many for one call; split the GEMM");
        }
        int t = (int) tiles;
        int sk = switch (split) {
            case DATA_PARALLEL -> 0;
            case TAIL -> t % grid;
            case STREAM_K -> t;
            case AUTO -> t % grid == 0 ? 0 : Math.min(t, t % grid + grid);
        };
        int skIters = sk * iters;
        int skWgs = sk == 0 ? 0 : Math.max(1, Math.min(grid, skIters / MIN_SK_ITERS));
        int per = skWgs == 0 ? 0 : skIters / skWgs;
        int extra = skWgs == 0 ? 0 : skIters % skWgs;
        return new StreamKSchedule(shape, tile, tilesM, tilesN, iters, Math.max(1, groupM), grid, sk, skWgs, per, extra,
                IntStream.range(0, tilesM).boxed().toList());
    }

    /** Output tiles. */
    public int tiles() {
        return tilesM * tilesN;
    }

    /** K-iterations in the Stream-K part. */
    public int skIters() {
        return skTiles * itersPerTile;
    }

    /** Global Stream-K iteration range {@code [start, end)} of work-group w (empty beyond skWorkGroups). */
    public int[] skRange(int w) {
        if (w >= skWorkGroups) {
            return new int[] {0, 0};
        }
        int start = w * skItersPerWg + Math.min(w, skExtra);
        return new int[] {start, start + skItersPerWg + (w < skExtra ? 1 : 0)};
    }

    /** The units of work-group w, in the order it runs them (the kernels' {@code jgemm_cursor}). */
    public List<Unit> units(int w) {
        List<Unit> out = new ArrayList<>();
        int[] r = skRange(w);
        for (int pos = r[0]; pos < r[1]; ) {
            int tileIndex = pos / itersPerTile;
            int tileStart = tileIndex * itersPerTile;
            int stop = Math.min(tileStart + itersPerTile, r[1]);
            out.add(new Unit(tileIndex, pos - tileStart, stop - tileStart));
            pos = stop;
        }
        for (int t = skTiles + w; t < tiles(); t += grid) {
            out.add(new Unit(t, 0, itersPerTile));
        }
        return out;
    }

    /** The work-group owning tile t (holding its first iteration). */
    public int owner(int t) {
        if (t >= skTiles) {
            return (t - skTiles) % grid;
        }
        return workGroupOfIteration(t * itersPerTile);
    }

    /** The Stream-K work-group whose range holds global iteration i. */
    public int workGroupOfIteration(int i) {
        int longOnes = skExtra * (skItersPerWg + 1);
        return i < longOnes ? i / (skItersPerWg + 1) : skExtra + (i - longOnes) / skItersPerWg;
    }

    /** Whether work-group v's range reaches the end of tile t (v is then the tile's last contributor). */
    public boolean reachesEnd(int v, int t) {
        return skRange(v)[1] >= (t + 1) * itersPerTile;
    }

    /** The same schedule with the tile rows taken in {@code order} (a permutation of the tile rows). */
    public StreamKSchedule withRowOrder(List<Integer> order) {
        return new StreamKSchedule(shape, tile, tilesM, tilesN, itersPerTile, groupM, grid, skTiles, skWorkGroups,
                skItersPerWg, skExtra, order);
    }

    /** Tile t's (row, column) in the tile grid: grouped order over the rows of {@link #rowOrder}. */
    public int[] tileCoords(int t) {
        int perGroup = groupM * tilesN;
        int group = t / perGroup;
        int first = group * groupM;
        int rows = Math.min(tilesM - first, groupM);
        int in = t - group * perGroup;
        return new int[] {rowOrder.get(first + in % rows), in / rows};
    }

    /** K-iterations work-group w runs (its share of the work). */
    public long iterationsOf(int w) {
        return units(w).stream().mapToLong(u -> u.end() - u.begin()).sum();
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }

    @Override
    public String toString() {
        return shape + " in " + tile + " tiles: " + tiles() + " tiles x " + itersPerTile + " iterations over " + grid
                + " work-groups; Stream-K " + skTiles + " tiles on " + skWorkGroups + " work-groups ("
                + skItersPerWg + (skExtra > 0 ? "-" + (skItersPerWg + 1) : "") + " iterations each)";
    }
}
