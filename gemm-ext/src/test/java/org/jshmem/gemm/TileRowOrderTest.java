package org.jshmem.gemm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The fused collectives' tile row orders: permutations, and the properties each is chosen for. */
class TileRowOrderTest {

    private static StreamKSchedule plan(GemmCollective c, GemmShape global, int nPes, int pe, TileShape tile, int grid) {
        GemmShape local = new ShardLayout(c, global, nPes).local(pe);
        return StreamKSchedule.plan(local, tile, grid, 8, StreamKSchedule.Split.AUTO);
    }

    @ParameterizedTest(name = "{0} PEs, {1}x{2}x{3}")
    @CsvSource({"1, 100, 64, 64", "2, 8192, 8192, 4096", "3, 1000, 999, 1001", "4, 333, 257, 190", "4, 7, 5, 4"})
    void everyOrderTakesEveryTileOnce(int nPes, int m, int n, int k) {
        TileShape tile = new TileShape(32, 32, 16);
        for (GemmCollective c : GemmCollective.values()) {
            for (AllReduceAlgorithm a : List.of(AllReduceAlgorithm.ONE_SHOT, AllReduceAlgorithm.TWO_SHOT)) {
                for (int pe = 0; pe < nPes; pe++) {
                    StreamKSchedule plan = plan(c, new GemmShape(m, n, k), nPes, pe, tile, 5);
                    StreamKSchedule s = plan.withRowOrder(TileRowOrder.of(Epilogue.of(c, a),
                            new ShardLayout(c, new GemmShape(m, n, k), nPes), pe, plan));
                    Set<String> seen = new HashSet<>();
                    for (int t = 0; t < s.tiles(); t++) {
                        int[] rc = s.tileCoords(t);
                        assertTrue(seen.add(rc[0] + "," + rc[1]), c + " PE " + pe + ": tile (" + rc[0] + ", " + rc[1] + ") twice");
                    }
                    assertEquals(s.tiles(), seen.size(), c + " PE " + pe);
                }
            }
        }
    }

    @Test
    void allGatherStartsOnItsOwnRows() {
        GemmShape g = new GemmShape(8192, 11008, 4096);
        ShardLayout l = new ShardLayout(GemmCollective.ALL_GATHER_GEMM, g, 2);
        StreamKSchedule s = plan(GemmCollective.ALL_GATHER_GEMM, g, 2, 1, new TileShape(128, 256, 64), 131);
        assertEquals(4096 / 128, TileRowOrder.of(Epilogue.LOCAL, l, 1, s).get(0));
    }

    /**
     * With equal blocks, a PE's own row comes after every peer took it (their pushes arrive first):
     * GEMM + reduce-scatter, in rounds, and the all-reduce's two-shot, whose first half is one, with
     * the PE's own rows last.
     */
    @ParameterizedTest(name = "{1}, {0} PEs")
    @CsvSource({"2, GEMM_REDUCE_SCATTER", "3, GEMM_REDUCE_SCATTER", "4, GEMM_REDUCE_SCATTER", "8, GEMM_REDUCE_SCATTER",
            "2, ALL_REDUCE", "3, ALL_REDUCE", "8, ALL_REDUCE"})
    void anOwnerSumsItsRowsAfterThePeersPushedThem(int nPes, GemmCollective c) {
        GemmShape g = new GemmShape(nPes * 2048, 8192, 4096);
        TileShape tile = new TileShape(128, 256, 64);
        ShardLayout l = new ShardLayout(c, g, nPes);
        int rowsPerPe = 2048 / 128;
        int[][] position = new int[nPes][];
        for (int pe = 0; pe < nPes; pe++) {
            StreamKSchedule s = plan(c, g, nPes, pe, tile, 132);
            List<Integer> order = TileRowOrder.of(Epilogue.of(c, AllReduceAlgorithm.TWO_SHOT), l, pe, s);
            position[pe] = new int[order.size()];
            for (int i = 0; i < order.size(); i++) {
                position[pe][order.get(i)] = i;
            }
            List<Integer> last = order.subList(order.size() - rowsPerPe, order.size());
            if (c == GemmCollective.ALL_REDUCE) {
                assertEquals(IntStream.range(pe * rowsPerPe, (pe + 1) * rowsPerPe).boxed().toList(), last,
                        "PE " + pe + ": its own rows last");
            } else {
                assertTrue(order.indexOf(pe * rowsPerPe) < order.size() - rowsPerPe,
                        "PE " + pe + ": own rows in rounds among the peers', not all last");
            }
        }
        for (int owner = 0; owner < nPes; owner++) {
            for (int row = owner * rowsPerPe; row < (owner + 1) * rowsPerPe; row++) {
                for (int peer = 0; peer < nPes; peer++) {
                    if (peer != owner) {
                        assertTrue(position[peer][row] < position[owner][row],
                                "row " + row + ": PE " + peer + " at " + position[peer][row] + ", owner " + owner + " at "
                                        + position[owner][row]);
                    }
                }
            }
        }
    }

    @Test
    void aScheduleRefusesAnOrderThatIsNotAPermutation() {
        StreamKSchedule s = StreamKSchedule.plan(new GemmShape(96, 32, 32), new TileShape(32, 32, 16), 2, 4,
                StreamKSchedule.Split.AUTO);
        assertThrows(IllegalArgumentException.class, () -> s.withRowOrder(List.of(0, 0, 1)));
        assertThrows(IllegalArgumentException.class, () -> s.withRowOrder(List.of(0, 1)));
        assertEquals(List.of(2, 0, 1), s.withRowOrder(List.of(2, 0, 1)).rowOrder());
    }
}
