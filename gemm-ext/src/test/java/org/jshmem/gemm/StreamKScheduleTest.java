package org.jshmem.gemm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class StreamKScheduleTest {

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        int[][] shapes = {{8192, 8192, 8192}, {3840, 3840, 4096}, {5120, 5120, 2048}, {1536, 6144, 8192},
                {128, 8192, 8192}, {333, 257, 190}, {1, 1, 1}, {1000, 999, 1001}, {64, 64, 8}, {2048, 2048, 2048}};
        TileShape[] tiles = {new TileShape(128, 128, 32), new TileShape(128, 256, 64), new TileShape(32, 32, 16)};
        int[] grids = {1, 3, 4, 66, 114, 132, 304};
        for (int[] s : shapes) {
            for (TileShape t : tiles) {
                for (int g : grids) {
                    for (StreamKSchedule.Split split : StreamKSchedule.Split.values()) {
                        out.add(Arguments.of(new GemmShape(s[0], s[1], s[2]), t, g, split));
                    }
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} tiles {1} grid {2} {3}")
    @MethodSource("cases")
    void everyIterationExactlyOnceOwnersAndBalance(GemmShape shape, TileShape tile, int grid, StreamKSchedule.Split split) {
        StreamKSchedule s = StreamKSchedule.plan(shape, tile, grid, 8, split);
        // each tile's units, as [begin, end) ranges of its iterations: together they must cover every
        // iteration exactly once (checked on the ranges, not iteration by iteration: 8192^3 in 32x32x16
        // tiles has 33 million)
        List<List<int[]>> ranges = new ArrayList<>();
        for (int t = 0; t < s.tiles(); t++) {
            ranges.add(new ArrayList<>(1));
        }
        int[] owners = new int[s.tiles()];
        java.util.Arrays.fill(owners, -1);
        for (int w = 0; w < grid; w++) {
            for (StreamKSchedule.Unit u : s.units(w)) {
                assertTrue(u.begin() < u.end() && u.end() <= s.itersPerTile(), "unit " + u);
                ranges.get(u.tile()).add(new int[] {u.begin(), u.end()});
                if (u.owns()) {
                    assertEquals(-1, owners[u.tile()], "tile " + u.tile() + " has two owners");
                    owners[u.tile()] = w;
                }
            }
        }
        for (int t = 0; t < s.tiles(); t++) {
            List<int[]> r = ranges.get(t);
            r.sort(java.util.Comparator.comparingInt(x -> x[0]));
            int next = 0;   // the first iteration not yet covered
            for (int[] x : r) {
                assertEquals(next, x[0], "tile " + t + ": iteration " + Math.min(next, x[0]) + (x[0] > next
                        ? " is covered by no unit" : " is covered twice"));
                next = x[1];
            }
            assertEquals(s.itersPerTile(), next, "tile " + t + ": iterations from " + next + " are covered by no unit");
        }
        for (int t = 0; t < s.tiles(); t++) {
            assertEquals(owners[t], s.owner(t), "owner of tile " + t);
        }
        // a work-group hands over at most one partial (its workspace slot is single)
        for (int w = 0; w < grid; w++) {
            assertTrue(s.units(w).stream().filter(u -> !u.owns()).count() <= 1, "work-group " + w);
        }
        // Stream-K ranges are balanced to within one iteration
        if (s.skWorkGroups() > 0) {
            long min = Long.MAX_VALUE, max = 0;
            for (int w = 0; w < s.skWorkGroups(); w++) {
                int[] r = s.skRange(w);
                min = Math.min(min, r[1] - r[0]);
                max = Math.max(max, r[1] - r[0]);
            }
            assertTrue(max - min <= 1, "Stream-K ranges from " + min + " to " + max);
            assertTrue(min >= Math.min(StreamKSchedule.MIN_SK_ITERS, s.skIters()), "ranges of " + min + " iterations");
        }
        if (split == StreamKSchedule.Split.AUTO) {
            // whole work: every work-group within one tile's iterations of the others
            long min = Long.MAX_VALUE, max = 0;
            for (int w = 0; w < grid; w++) {
                long it = s.iterationsOf(w);
                min = Math.min(min, it);
                max = Math.max(max, it);
            }
            if (s.skWorkGroups() == grid || s.skTiles() == 0) {
                assertTrue(max - min <= s.itersPerTile(), "work from " + min + " to " + max + " iterations");
            }
        }
    }

    @Test
    void waveQuantisedShapeIsSplitAndEvenShapeIsNot() {
        StreamKSchedule even = StreamKSchedule.plan(new GemmShape(8192, 8192, 8192), new TileShape(128, 128, 32), 128, 8,
                StreamKSchedule.Split.AUTO);
        assertEquals(0, even.skTiles(), even.toString());
        StreamKSchedule odd = StreamKSchedule.plan(new GemmShape(3840, 3840, 4096), new TileShape(128, 256, 64), 132, 8,
                StreamKSchedule.Split.AUTO);
        assertEquals(450 % 132 + 132, odd.skTiles(), odd.toString());
        assertEquals(132, odd.skWorkGroups());
    }

    @Test
    void groupedOrderVisitsEveryTileOnce() {
        StreamKSchedule s = StreamKSchedule.plan(new GemmShape(1000, 700, 64), new TileShape(64, 64, 32), 7, 3,
                StreamKSchedule.Split.AUTO);
        boolean[] seen = new boolean[s.tiles()];
        for (int t = 0; t < s.tiles(); t++) {
            int[] rc = s.tileCoords(t);
            int i = rc[0] * s.tilesN() + rc[1];
            assertTrue(!seen[i], "tile " + t + " maps onto " + rc[0] + "," + rc[1] + " twice");
            seen[i] = true;
        }
    }

    @Test
    void badInputIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new GemmShape(0, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> StreamKSchedule.plan(new GemmShape(8, 8, 8),
                new TileShape(8, 8, 8), 0, 8, StreamKSchedule.Split.AUTO));
    }
}
