package org.jshmem.gemm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The shards of every collective: they tile the global matrices, and the row-block lookup agrees with them. */
class ShardLayoutTest {

    @ParameterizedTest(name = "{0} PEs, {1}x{2}x{3}")
    @CsvSource({"1, 5, 7, 9", "2, 8192, 11008, 4096", "3, 333, 257, 190", "4, 7, 5, 4", "3, 1000, 999, 1001"})
    void shardsTileTheMatricesOfEveryCollective(int nPes, int m, int n, int k) {
        GemmShape g = new GemmShape(m, n, k);
        for (GemmCollective c : GemmCollective.values()) {
            ShardLayout l = new ShardLayout(c, g, nPes);
            long a = 0, b = 0, cElems = 0;
            for (int pe = 0; pe < nPes; pe++) {
                ShardLayout.Window wa = l.aWindow(pe), wb = l.bWindow(pe), wc = l.cWindow(pe);
                GemmShape local = l.local(pe);
                a += wa.elements();
                b += wb.elements();
                cElems += wc.elements();
                assertEquals(wc.cols(), l.ldc(pe), c + ": C's row length");
                switch (c) {
                    case ALL_GATHER_GEMM -> {
                        assertEquals((long) l.rows(pe) * k, wa.elements(), "A: this PE's rows");
                        assertEquals(new ShardLayout.Window(0, m, l.offset(pe), local.n()), wc);
                    }
                    case GEMM_REDUCE_SCATTER -> {
                        assertEquals(new ShardLayout.Window(l.rowOffset(pe), l.rows(pe), 0, n), wc);
                        assertEquals(local.k(), wa.cols());
                    }
                    default -> assertEquals(new ShardLayout.Window(0, m, 0, n), wc);
                }
            }
            boolean aSplit = c == GemmCollective.ALL_GATHER_GEMM || c == GemmCollective.ALL_REDUCE
                    || c == GemmCollective.GEMM_REDUCE_SCATTER;
            boolean bSplit = c != GemmCollective.NONE;
            boolean cSplit = c == GemmCollective.ALL_GATHER_GEMM || c == GemmCollective.GEMM_REDUCE_SCATTER;
            assertEquals((long) m * k * (aSplit ? 1 : nPes), a, c + ": A's shards");
            assertEquals((long) k * n * (bSplit ? 1 : nPes), b, c + ": B's shards");
            assertEquals((long) m * n * (cSplit ? 1 : nPes), cElems, c + ": C's parts");
        }
    }

    @ParameterizedTest(name = "{0} PEs, m {1}")
    @CsvSource({"1, 5", "2, 8192", "3, 333", "4, 7", "4, 1000", "7, 100"})
    void everyRowBelongsToTheBlockHoldingIt(int nPes, int m) {
        for (GemmCollective c : new GemmCollective[] {GemmCollective.ALL_GATHER_GEMM, GemmCollective.GEMM_REDUCE_SCATTER}) {
            ShardLayout l = new ShardLayout(c, new GemmShape(m, 64, 64), nPes);
            int next = 0;
            for (int pe = 0; pe < nPes; pe++) {
                assertEquals(next, l.rowOffset(pe), "blocks follow each other");
                for (int r = l.rowOffset(pe); r < l.rowOffset(pe) + l.rows(pe); r++) {
                    assertEquals(pe, l.rowBlockOf(r), "row " + r);
                }
                next += l.rows(pe);
            }
            assertEquals(m, next, "the blocks cover m");
        }
    }
}
