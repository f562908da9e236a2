package org.jshmem.gemm;

import java.util.List;
import java.util.stream.IntStream;

/**
 * The order in which a PE's schedule takes the tile rows of its GEMM, for the fused collectives
 * whose rows belong to different PEs ({@link StreamKSchedule#withRowOrder}). Both are rotations of
 * the tile rows, wrapping around:
 *
 * <ul>
 *   <li>All-gather + GEMM: from the tile row holding the PE's own first row of A (already here, read
 *       in place) on, so the gathered blocks have the most time to arrive.</li>
 *   <li>GEMM + reduce-scatter, and the two-shot all-reduce (its first half is one): from the next
 *       PE's first row on, so the PE's own rows come last. PE q takes PE p's block in place
 *       (p - q - 1) mod n of n, before p takes it in place n - 1: every peer's partial of a row has
 *       been pushed before its owner computes its own and sums them inline, so nothing parks and the
 *       GEMM ends without a backlog of sums. Measured against rounds that interleaved own and peer
 *       rows (each own row some rounds after the peers' same row; docs/benchmarks/session-2026-11-28l):
 *       the all-reduce of 8192^3 5-9% faster on 2 x H200 and 9% faster with both PEs on one H200;
 *       GEMM + reduce-scatter level on 2 x H200 and 7% faster on one.</li>
 *   <li>Otherwise the identity.</li>
 * </ul>
 */
final class TileRowOrder {
    private TileRowOrder() {
    }

    static List<Integer> of(Epilogue e, ShardLayout layout, int me, StreamKSchedule s) {
        if (layout.collective() == GemmCollective.ALL_GATHER_GEMM) {
            return fromBlockOf(me, layout, s);
        }
        return e.ownsRows() ? fromBlockOf((me + 1) % layout.nPes(), layout, s)
                : IntStream.range(0, s.tilesM()).boxed().toList();
    }

    /** The tile rows from the one holding PE pe's first row ({@link ShardLayout#rowBlockStart}) on, wrapping around. */
    private static List<Integer> fromBlockOf(int pe, ShardLayout layout, StreamKSchedule s) {
        int tilesM = s.tilesM(), start = layout.rowBlockStart(pe) / s.tile().m();
        return IntStream.range(0, tilesM).map(i -> (start + i) % tilesM).boxed().toList();
    }
}
