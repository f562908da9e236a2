package org.jshmem.gemm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.jshmem.DType;
import org.jshmem.gemm.GemmCollective;
import org.jshmem.gemm.GemmShape;
import org.junit.jupiter.api.Test;

/**
 * The benchmark's warm-up count (the calls asked for, and on a GPU enough work for the clocks to
 * rise, for at most a second) and its TFLOP/s per PE.
 */
class GemmBenchmarkTest {
    private static final double FAST = 0.01;   // ms a call: the wall-time cap does not bind

    @Test
    void onTheCpuTheWarmUpIsTheCallsAskedFor() {
        GemmShape s = new GemmShape(1536, 6144, 8192);
        assertEquals(5, GemmBenchmark.warmupCalls(5, GemmCollective.NONE, s, 1, false, FAST));
        assertEquals(0, GemmBenchmark.warmupCalls(0, GemmCollective.ALL_REDUCE, new GemmShape(8, 8, 8), 3, false, FAST));
    }

    @Test
    void onAGpuItDoesAtLeastTheWarmUpWorkPerPeCappedAtTenThousandCalls() {
        GemmShape s = new GemmShape(1536, 6144, 8192);   // 1.55e11 flops a call
        int alone = (int) Math.ceil(GemmBenchmark.GPU_WARMUP_FLOPS / s.flops());
        assertEquals(alone, GemmBenchmark.warmupCalls(5, GemmCollective.NONE, s, 1, true, FAST));
        // two PEs of a collective each do half the work per call: twice the calls, the same on both
        assertEquals((int) Math.ceil(GemmBenchmark.GPU_WARMUP_FLOPS / (s.flops() / 2)),
                GemmBenchmark.warmupCalls(5, GemmCollective.ALL_SCATTER, s, 2, true, FAST));
        // the GEMM alone on two PEs: each does all of it, so no more calls than on one
        assertEquals(alone, GemmBenchmark.warmupCalls(5, GemmCollective.NONE, s, 2, true, FAST));
        GemmShape tiny = new GemmShape(64, 64, 64);
        assertEquals(10_000, GemmBenchmark.warmupCalls(5, GemmCollective.NONE, tiny, 1, true, FAST));
        assertEquals(20_000, GemmBenchmark.warmupCalls(20_000, GemmCollective.NONE, tiny, 1, true, FAST));   // more asked
    }

    @Test
    void onAGpuCallsThatWaitOnTheHostAreCappedAtASecondOfWarmUp() {
        GemmShape s = new GemmShape(1024, 1024, 1024);   // the work rule asks 10 000 calls
        assertEquals(10_000, GemmBenchmark.warmupCalls(5, GemmCollective.ALL_REDUCE, s, 2, true, FAST));
        assertEquals(34, GemmBenchmark.warmupCalls(5, GemmCollective.ALL_REDUCE, s, 2, true, 30));   // 1000 ms / 30 ms
        assertEquals(5, GemmBenchmark.warmupCalls(5, GemmCollective.ALL_REDUCE, s, 2, true, 400));   // never below asked
    }

    @Test
    void tflopsPerPeSplitTheWorkOverThePesButNotForTheGemmAlone() {
        GemmShape s = new GemmShape(8192, 4096, 8192);   // 5.5e11 flops
        double ms = 0.5;
        assertEquals(s.flops() / 2 / (ms * 1e9), result(GemmCollective.ALL_SCATTER, s, 2, ms).tflopsPerPe(), 1e-9);
        assertEquals(s.flops() / 4 / (ms * 1e9), result(GemmCollective.ALL_REDUCE, s, 4, ms).refTflopsPerPe(), 1e-9);
        // -c none: every PE computes the whole GEMM
        assertEquals(s.flops() / (ms * 1e9), result(GemmCollective.NONE, s, 2, ms).tflopsPerPe(), 1e-9);
    }

    private static GemmBenchmark.Result result(GemmCollective c, GemmShape s, int nPes, double ms) {
        return new GemmBenchmark.Result(c, s, DType.FP16, nPes, "", ms, ms, 0, 0, 1, true, true, 0, "test");
    }
}
