package org.jshmem.gemm;

import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The order in which a PE's schedule takes the tile rows of its GEMM, for the fused collectives
 * whose rows belong to different PEs ({@link StreamKSchedule#withRowOrder}).
 *
 * <ul>
 *   <li>All-gather + GEMM: from the tile row holding the PE's own first row of A (already here, read
 *       in place) on, wrapping around, so the gathered blocks have the most time to arrive.</li>
 *   <li>Two-shot all-reduce: from the next PE's block on, wrapping around, so the PE's own rows come
 *       last. PE q takes PE p's block in place (p - q - 1) mod n of n, before p takes it in place
 *       n - 1: every peer's partial of a row is in before its owner computes its own and sums them
 *       inline. The pushes of partials fill the first (n-1)/n of the GEMM and the owner's sums, sent
 *       to every PE, the last 1/n.</li>
 *   <li>GEMM + reduce-scatter: in rounds. Round r takes row r of every peer's block (a row's block
 *       is that of its first row), peers in rotated order, then the PE's own row r - D. A row's
 *       partials from the peers are then pushed D rounds before its owner computes its own partial
 *       and sums them inline (rather than parking it), and the pushes, its only traffic, spread over
 *       the whole GEMM. D rounds hold at least a group of rows ({@code groupM}) and two waves of
 *       tiles.</li>
 *   <li>Otherwise the identity.</li>
 * </ul>
 *
 * Why not own rows last for the reduce-scatter too: it made the all-reduce faster on 2 and 4 GPUs,
 * but GEMM + reduce-scatter slower on 4, whose last quarter then sends nothing (measured by
 * {@code bin/jshmemrun -np N gemm -c all_reduce|gemm_reduce_scatter}; docs/performance.md).
 */
final class TileRowOrder {
    private TileRowOrder() {
    }

    static List<Integer> of(Epilogue e, ShardLayout layout, int me, StreamKSchedule s) {
        if (layout.collective() == GemmCollective.ALL_GATHER_GEMM) {
            return fromBlockOf(me, layout, s);
        }
        return switch (e) {
            case ALL_REDUCE_TWO_SHOT -> fromBlockOf((me + 1) % layout.nPes(), layout, s);
            case REDUCE_SCATTER -> inRounds(layout, me, s);
            default -> identity(s);
        };
    }

    private static List<Integer> identity(StreamKSchedule s) {
        return IntStream.range(0, s.tilesM()).boxed().toList();
    }

    /** The tile rows from the one holding PE pe's first row ({@link ShardLayout#rowBlockStart}) on, wrapping around. */
    private static List<Integer> fromBlockOf(int pe, ShardLayout layout, StreamKSchedule s) {
        int tilesM = s.tilesM(), start = layout.rowBlockStart(pe) / s.tile().m();
        return IntStream.range(0, tilesM).map(i -> (start + i) % tilesM).boxed().toList();
    }

    private static List<Integer> inRounds(ShardLayout layout, int me, StreamKSchedule s) {
        int n = layout.nPes(), bm = s.tile().m();
        int lagRows = s.groupM() + 2 * ((s.grid() + s.tilesN() - 1) / s.tilesN());
        int delay = Math.max(1, (lagRows + n - 1) / n);
        // key of tile row tm: round * n + place in the round (peers 0 .. n-2 in rotated order, own n-1)
        int[] key = new int[s.tilesM()];
        for (int tm = 0; tm < key.length; tm++) {
            int home = layout.rowBlockOf(tm * bm);
            int j = tm - layout.rowBlockStart(home) / bm;
            key[tm] = home == me ? (j + delay) * n + n - 1 : j * n + Math.floorMod(home - me - 1, n);
        }
        return IntStream.range(0, key.length).boxed()
                .sorted(Comparator.<Integer>comparingInt(tm -> key[tm]).thenComparingInt(tm -> tm)).toList();
    }
}
