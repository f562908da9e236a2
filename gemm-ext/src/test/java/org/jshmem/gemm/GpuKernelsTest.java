package org.jshmem.gemm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The Hopper tile heuristic on the anchor's shapes (and 1000^3), with an H100's 132 SMs (see GpuKernels.hopperTile). */
class GpuKernelsTest {
    private static final TileShape LARGE = new TileShape(128, 256, 64);
    private static final TileShape SMALL = new TileShape(128, 128, 64);

    @Test
    void largeTileExceptBelowAThirdOfAWaveAndFromOneAndAHalfToThreeWaves() {
        assertEquals(LARGE, GpuKernels.hopperTile(new GemmShape(8192, 8192, 8192), 132));     // 2048 tiles
        assertEquals(LARGE, GpuKernels.hopperTile(new GemmShape(3840, 3840, 4096), 132));     // 450 tiles: 3.4 waves
        assertEquals(LARGE, GpuKernels.hopperTile(new GemmShape(512, 8192, 8192), 132));      // 128 tiles: 0.97 waves
        assertEquals(SMALL, GpuKernels.hopperTile(new GemmShape(1536, 6144, 8192), 132));     // 288 tiles: 2.2 waves
        assertEquals(SMALL, GpuKernels.hopperTile(new GemmShape(1024, 8192, 8192), 132));     // 256 tiles: 1.9 waves
        assertEquals(SMALL, GpuKernels.hopperTile(new GemmShape(128, 8192, 8192), 132));      // 32 tiles: 0.24 waves
        assertEquals(SMALL, GpuKernels.hopperTile(new GemmShape(1000, 1000, 1000), 132));     // 32 tiles
        assertEquals(LARGE, GpuKernels.hopperTile(new GemmShape(2048, 2048, 2048), 132));     // 64 tiles: 0.48 waves
        assertEquals(LARGE, GpuKernels.hopperTile(new GemmShape(1536, 6144, 8192), 66));      // half the SMs: 4.4 waves
    }
}
