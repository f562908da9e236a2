package org.jshmem.gemm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.jshmem.gemm.StreamKSchedule.Split;
import org.junit.jupiter.api.Test;

/** The Hopper tile and split heuristics on the anchor's shapes (and 1000^3), with an H100's 132 SMs. */
class GpuKernelsTest {
    private static final TileShape LARGE = new TileShape(128, 256, 64);
    private static final TileShape SMALL = new TileShape(128, 128, 64);
    private static final TileShape NARROW = new TileShape(128, 192, 64);
    private static final TileShape SKINNY = new TileShape(128, 64, 64);

    @Test
    void largeTileUnlessLessThanAThirdOfAWaveOrNarrowTilesFillTheWavesBetter() {
        assertEquals(LARGE, GpuKernels.hopperTile(new GemmShape(8192, 8192, 8192), 132));     // 2048 tiles, 0.97 full
        assertEquals(LARGE, GpuKernels.hopperTile(new GemmShape(8192, 8192, 4096), 132));
        assertEquals(LARGE, GpuKernels.hopperTile(new GemmShape(4096, 4096, 4096), 132));     // 256 tiles, 0.97: small ones too
        assertEquals(LARGE, GpuKernels.hopperTile(new GemmShape(1024, 8192, 8192), 132));
        assertEquals(NARROW, GpuKernels.hopperTile(new GemmShape(1536, 6144, 8192), 132));    // 288 tiles 0.73 full, 384 0.97
        assertEquals(NARROW, GpuKernels.hopperTile(new GemmShape(3840, 3840, 4096), 132));    // 0.85 against 0.91
        assertEquals(LARGE, GpuKernels.hopperTile(new GemmShape(5120, 5120, 2048), 132));     // 0.87 against 0.90
        assertEquals(LARGE, GpuKernels.hopperTile(new GemmShape(8192, 5504, 4096), 132));
        assertEquals(LARGE, GpuKernels.hopperTile(new GemmShape(8192, 4096, 8192), 132));
        assertEquals(LARGE, GpuKernels.hopperTile(new GemmShape(2048, 2048, 2048), 132));     // 128 tiles: 0.97 waves
        assertEquals(LARGE, GpuKernels.hopperTile(new GemmShape(512, 8192, 8192), 132));      // 128 tiles
        assertEquals(SKINNY, GpuKernels.hopperTile(new GemmShape(128, 8192, 8192), 132));     // one row: 128 tiles of 64, 0.97 of a wave
        assertEquals(SKINNY, GpuKernels.hopperTile(new GemmShape(100, 7700, 8192), 132));     // 121 tiles of 64: 0.92
        assertEquals(SMALL, GpuKernels.hopperTile(new GemmShape(128, 4096, 8192), 132));      // 64 tiles of 64: half a wave
        assertEquals(SMALL, GpuKernels.hopperTile(new GemmShape(129, 8192, 8192), 132));      // two tile rows: as 256
        assertEquals(SMALL, GpuKernels.hopperTile(new GemmShape(128, 8512, 8192), 132));      // 133 tiles of 64: past one wave
        assertEquals(SMALL, GpuKernels.hopperTile(new GemmShape(1000, 1000, 1000), 132));     // 32 tiles
        assertEquals(SMALL, GpuKernels.hopperTile(new GemmShape(128, 8192, 8192), 64));       // 43 narrow tiles fill two thirds of 64 slots, 64 small all
        assertEquals(SMALL, GpuKernels.hopperTile(new GemmShape(256, 8192, 8192), 132));      // 128 small tiles fill 0.97, 86 narrow 0.65
        assertEquals(NARROW, GpuKernels.hopperTile(new GemmShape(384, 8192, 8192), 132));     // 129 narrow tiles 0.98, 192 small 0.73
        assertEquals(LARGE, GpuKernels.hopperTile(new GemmShape(256, 28672, 4096), 132));     // 0.85 both
    }

    @Test
    void waveFillCountsIdleSlotsAndTheColumnsPastTheMatrix() {
        assertEquals(288.0 / 396, GpuKernels.waveFill(new GemmShape(1536, 6144, 8192), LARGE, 132), 1e-12);
        assertEquals(384.0 / 396, GpuKernels.waveFill(new GemmShape(1536, 6144, 8192), NARROW, 132), 1e-12);
        // 5120 columns in 27 tiles of 192: the last is two thirds inside
        assertEquals(1080.0 / 1188 * 5120 / (27 * 192), GpuKernels.waveFill(new GemmShape(5120, 5120, 2048), NARROW, 132),
                1e-12);
    }

    @Test
    void skinnyTilesOfOneFullWaveRunDataParallel() {
        assertEquals(Split.DATA_PARALLEL, GpuKernels.hopperSplit(new GemmShape(128, 8192, 8192), SKINNY, 132));
    }

    @Test
    void dataParallelWhileTheWavesAreBusyElseAHybridOrTheTailSplit() {
        assertEquals(Split.DATA_PARALLEL, GpuKernels.hopperSplit(new GemmShape(8192, 8192, 8192), LARGE, 132));
        assertEquals(Split.DATA_PARALLEL, GpuKernels.hopperSplit(new GemmShape(1024, 8192, 8192), LARGE, 132));
        assertEquals(Split.DATA_PARALLEL, GpuKernels.hopperSplit(new GemmShape(3840, 3840, 4096), LARGE, 132));
        assertEquals(Split.AUTO, GpuKernels.hopperSplit(new GemmShape(5120, 5120, 2048), LARGE, 132));  // 800 tiles
        assertEquals(Split.TAIL, GpuKernels.hopperSplit(new GemmShape(1536, 6144, 8192), LARGE, 132));  // 288: tail 24
        assertEquals(Split.DATA_PARALLEL, GpuKernels.hopperSplit(new GemmShape(1024, 1024, 1024), LARGE, 132));
        assertEquals(Split.DATA_PARALLEL, GpuKernels.hopperSplit(new GemmShape(1536, 6144, 8192), NARROW, 132));
        assertEquals(Split.DATA_PARALLEL, GpuKernels.hopperSplit(new GemmShape(3840, 3840, 4096), NARROW, 132));
    }

    @Test
    void oneTileRowOfLessThanHalfAWaveSplitsEveryTileWhenItsTilesAreDeep() {
        assertEquals(Split.STREAM_K, GpuKernels.hopperSplit(new GemmShape(128, 8192, 8192), SMALL, 132));   // 64 tiles
        assertEquals(Split.STREAM_K, GpuKernels.hopperSplit(new GemmShape(100, 4096, 8192), SMALL, 132));   // 32
        assertEquals(Split.STREAM_K, GpuKernels.hopperSplit(new GemmShape(128, 8192, 4096), SMALL, 132));   // 64 iterations
        assertEquals(Split.DATA_PARALLEL, GpuKernels.hopperSplit(new GemmShape(128, 8192, 4032), SMALL, 132)); // 63
        assertEquals(Split.DATA_PARALLEL, GpuKernels.hopperSplit(new GemmShape(128, 16384, 4096), SMALL, 132)); // 128 tiles
        assertEquals(Split.DATA_PARALLEL, GpuKernels.hopperSplit(new GemmShape(256, 8192, 4096), SMALL, 132)); // 2 rows
        assertEquals(Split.DATA_PARALLEL, GpuKernels.hopperSplit(new GemmShape(1000, 1000, 1000), SMALL, 132)); // 8 rows
    }
}
