package org.jshmem.gemm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class GemmOptionsTest {

    @Test
    void theTileOrderGroupIsAutomaticUnlessTheEnvironmentSetsIt() {
        assertEquals(0, GemmOptions.DEFAULTS.groupM());
        assertEquals(StreamKSchedule.DEFAULT_GROUP_M, GemmOptions.DEFAULTS.groupMOrDefault());
        GemmOptions sixteen = GemmOptions.fromMap(Map.of("JSHMEM_GEMM_GROUP_M", "16"));
        assertEquals(16, sixteen.groupMOrDefault());
        assertEquals(4, sixteen.withGroupM(4).groupMOrDefault());
    }

    @Test
    void aBadGroupIsRefusedWithItsName() {
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                () -> GemmOptions.fromMap(Map.of("JSHMEM_GEMM_GROUP_M", "-1")));
        assertTrue(negative.getMessage().contains("group M -1 (tile rows per group of the tile order) must be positive,"
                + " or 0 for automatic"), negative::getMessage);
        IllegalArgumentException text = assertThrows(IllegalArgumentException.class,
                () -> GemmOptions.fromMap(Map.of("JSHMEM_GEMM_GROUP_M", "many")));
        assertTrue(text.getMessage().contains("JSHMEM_GEMM_GROUP_M=many is not an integer"), text::getMessage);
    }

    @Test
    void theGroupSetsHowManyTileRowsAWaveWalksBeforeTheNextColumn() {
        GemmShape shape = new GemmShape(8 * 128, 4 * 256, 64);   // 8 x 4 tiles
        TileShape tile = new TileShape(128, 256, 64);
        StreamKSchedule two = StreamKSchedule.plan(shape, tile, 4, 2, StreamKSchedule.Split.DATA_PARALLEL);
        StreamKSchedule eight = StreamKSchedule.plan(shape, tile, 4, 8, StreamKSchedule.Split.DATA_PARALLEL);
        assertArrayEquals(new int[] {1, 0}, two.tileCoords(1));     // down the group's two rows
        assertArrayEquals(new int[] {0, 1}, two.tileCoords(2));     // then the next column
        assertArrayEquals(new int[] {2, 0}, two.tileCoords(8));     // the next group after 2 x 4 tiles
        assertArrayEquals(new int[] {7, 0}, eight.tileCoords(7));   // one group of all eight rows
        assertArrayEquals(new int[] {0, 1}, eight.tileCoords(8));
    }
}
