package org.jshmem.it.gpu;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jshmem.it.JobResult;
import org.jshmem.it.MpiJob;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * CUDA graphs: jshmem's on-stream work captured once and replayed, results checked after every
 * replay ({@link GraphProgram}); collectives of one team queued on two streams per PE
 * ({@link TwoStreamsProgram}). Tag "gpu": run on the GPU machine.
 */
@Tag("gpu")
@Execution(ExecutionMode.CONCURRENT)
class GraphTest {
    private static final int REPLAYS = 1000;

    @ParameterizedTest(name = "{0} PEs")
    @ValueSource(ints = {2, 3})
    void aCapturedRingReduceAndFcollectReplayAThousandTimes(int np) {
        JobResult r = job(np, "sequence", Integer.toString(REPLAYS));
        List<Executable> checks = new ArrayList<>();
        for (int pe = 0; pe < np; pe++) {
            int me = pe;
            checks.add(() -> assertEquals("true", r.value(me, "capturing"), "PE " + me));
            checks.add(() -> assertEquals("refused", r.value(me, "synchronizeInCapture"), "PE " + me));
            checks.add(() -> assertTrue(r.longValue(me, "operations") >= 6, "PE " + me + ": " + r));
            checks.add(() -> assertEquals(REPLAYS, r.longValue(me, "replays"), "PE " + me));
            checks.add(() -> assertEquals(0, r.longValue(me, "mismatches"), "PE " + me + ": " + r));
        }
        assertAll(checks);
    }

    @ParameterizedTest(name = "{0} PEs {1} {2}")
    @CsvSource({"2, ALL_SCATTER, FUSED, 1000", "3, ALL_SCATTER, FUSED, 1000", "2, ALL_REDUCE, FUSED, 100",
                "2, ALL_GATHER_GEMM, FUSED, 100", "2, GEMM_REDUCE_SCATTER, FUSED, 100", "2, ALL_SCATTER, REFERENCE, 100"})
    void aCapturedFusedGemmReplaysAndMatchesAnUncapturedCall(int np, String collective, String path, int replays) {
        JobResult r = job(np, "gemm", Integer.toString(replays), collective, path);
        List<Executable> checks = new ArrayList<>();
        for (int pe = 0; pe < np; pe++) {
            int me = pe;
            checks.add(() -> assertEquals("true", r.value(me, "nonZero"), "PE " + me + ": " + r));
            checks.add(() -> assertEquals(replays, r.longValue(me, "replays"), "PE " + me));
            checks.add(() -> assertEquals(0, r.longValue(me, "badReplays"), "PE " + me + ": " + r));
            checks.add(() -> assertEquals("true", r.value(me, "afterReplays"), "PE " + me + ": " + r));
        }
        assertAll(checks);
    }

    @Test
    void capturingWorkWithPesOfOtherNodesIsRefusedBeforeAnythingIsQueued() {
        JobResult r = MpiJob.of(2, GraphProgram.class).args("remote").env("JSHMEM_BACKEND", "cuda")
                .env("JSHMEM_TRANSPORT", "remote").env("JSHMEM_SYMMETRIC_SIZE", "64M")
                .timeout(Duration.ofSeconds(180)).run();
        assertTrue(r.succeeded(), r::toString);
        for (int pe = 0; pe < 2; pe++) {
            String refusal = r.value(pe, "remotePut");
            assertTrue(refusal.contains("cannot_be_captured_in_a_graph"), "PE " + pe + ": " + refusal);
            assertEquals(0, r.longValue(pe, "emptyGraph"), "PE " + pe);
        }
    }

    @ParameterizedTest(name = "{0} PEs")
    @ValueSource(ints = {2, 3})
    void collectivesOfOneTeamOnTwoStreamsRunInTheOrderQueued(int np) {
        JobResult r = MpiJob.of(np, TwoStreamsProgram.class).args("50").env("JSHMEM_BACKEND", "cuda")
                .env("JSHMEM_SYMMETRIC_SIZE", "256M").env("JSHMEM_WAIT_TIMEOUT", "60")
                .timeout(Duration.ofSeconds(180)).run();
        assertTrue(r.succeeded(), r::toString);
        for (int pe = 0; pe < np; pe++) {
            assertEquals(50, r.longValue(pe, "rounds"));
            assertEquals(0, r.longValue(pe, "mismatches"), "PE " + pe + ": " + r);
        }
    }

    private static JobResult job(int np, String... args) {
        JobResult r = MpiJob.of(np, GraphProgram.class).args(args).env("JSHMEM_BACKEND", "cuda")
                .env("JSHMEM_SYMMETRIC_SIZE", "256M").env("JSHMEM_WAIT_TIMEOUT", "60")
                .timeout(Duration.ofSeconds(300)).run();
        assertTrue(r.succeeded(), r::toString);
        return r;
    }
}
