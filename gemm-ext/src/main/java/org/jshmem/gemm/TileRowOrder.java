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
 *   <li>GEMM + reduce-scatter, and the two-shot all-reduce (its first half is one): in rounds. Round r takes row r of every peer's block (a row's block is
 *       that of its first row), peers in rotated order, then the PE's own row r - D. A row's partials
 *       from the peers are then pushed D rounds before its owner computes its own partial and sums
 *       them inline (rather than parking it), and the pushes, which load the links, are spread over
 *       the whole GEMM instead of filling its first (n-1)/n while the last 1/n sends nothing. D
 *       rounds hold at least a group of rows ({@code groupM}) and two waves of tiles.</li>
 *   <li>Otherwise the identity.</li>
 * </ul>
 */
final class TileRowOrder {
    private TileRowOrder() {
    }

    static List<Integer> of(Epilogue e, ShardLayout layout, int me, StreamKSchedule s) {
        int tilesM = s.tilesM(), bm = s.tile().m();
        if (layout.collective() == GemmCollective.ALL_GATHER_GEMM) {
            int start = layout.rowOffset(me) / bm;
            return IntStream.range(0, tilesM).map(i -> (start + i) % tilesM).boxed().toList();
        }
        return e.ownsRows() ? inRounds(layout, me, s) : IntStream.range(0, tilesM).boxed().toList();
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
