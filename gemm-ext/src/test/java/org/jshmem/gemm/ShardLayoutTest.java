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

    /** B stored n x k: each PE's B is its window transposed, rows of its k; stored k x n, rows of its n. */
    @ParameterizedTest(name = "{0} PEs, {1}x{2}x{3}")
    @CsvSource({"1, 5, 7, 9", "3, 333, 257, 190", "4, 7, 5, 4"})
    void transposedBHoldsTheSameBlockInRowsOfK(int nPes, int m, int n, int k) {
        GemmShape g = new GemmShape(m, n, k);
        for (GemmCollective c : GemmCollective.values()) {
            ShardLayout kn = new ShardLayout(c, g, nPes);
            ShardLayout nk = new ShardLayout(c, g, nPes, BLayout.N_BY_K);
            for (int pe = 0; pe < nPes; pe++) {
                ShardLayout.Window w = kn.bWindow(pe);
                assertEquals(w, nk.bWindow(pe), c + ": the same block of B");
                assertEquals(w, kn.bStored(pe));
                assertEquals(new ShardLayout.Window(w.col0(), w.cols(), w.row0(), w.rows()), nk.bStored(pe));
                assertEquals(kn.local(pe).n(), kn.ldb(pe), c + ": rows of n");
                assertEquals(nk.local(pe).k(), nk.ldb(pe), c + ": rows of k");
            }
        }
    }

    /** BLayout.index agrees with the stored windows: element (kk, j) of B found in either layout's block. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"K_BY_N", "N_BY_K"})
    void indexFindsElementsInTheStoredBlock(BLayout layout) {
        ShardLayout.Window w = new ShardLayout.Window(3, 4, 10, 5);   // rows k 3..6, columns n 10..14
        ShardLayout.Window stored = layout == BLayout.K_BY_N ? w : w.transposed();
        assertEquals(0, layout.index(3, 10, 3, 10, stored.cols()));
        long last = layout.index(6, 14, 3, 10, stored.cols());
        assertEquals(stored.elements() - 1, last);
        assertEquals(layout == BLayout.K_BY_N ? 5 : 1, layout.index(4, 10, 3, 10, stored.cols()), "next k");
        assertEquals(layout == BLayout.K_BY_N ? 1 : 4, layout.index(3, 11, 3, 10, stored.cols()), "next n");
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
