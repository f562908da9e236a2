package org.jshmem.gemm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The benchmark's warm-up count: the calls asked for, and on a GPU enough work for the clocks to rise. */
class GemmBenchmarkTest {

    @Test
    void onTheCpuTheWarmUpIsTheCallsAskedFor() {
        assertEquals(5, GemmBenchmark.warmupCalls(5, new GemmShape(1536, 6144, 8192), 1, false));
        assertEquals(0, GemmBenchmark.warmupCalls(0, new GemmShape(8, 8, 8), 3, false));
    }

    @Test
    void onAGpuItDoesAtLeastTheWarmUpWorkPerPeCappedAtTenThousandCalls() {
        GemmShape s = new GemmShape(1536, 6144, 8192);   // 1.55e11 flops a call
        assertEquals((int) Math.ceil(GemmBenchmark.GPU_WARMUP_FLOPS / s.flops()), GemmBenchmark.warmupCalls(5, s, 1, true));
        // two PEs each do half the work per call: twice the calls, the same on both
        assertEquals((int) Math.ceil(GemmBenchmark.GPU_WARMUP_FLOPS / (s.flops() / 2)),
                GemmBenchmark.warmupCalls(5, s, 2, true));
        assertEquals(10_000, GemmBenchmark.warmupCalls(5, new GemmShape(64, 64, 64), 1, true));
        assertEquals(20_000, GemmBenchmark.warmupCalls(20_000, new GemmShape(64, 64, 64), 1, true));   // more asked
    }
}
