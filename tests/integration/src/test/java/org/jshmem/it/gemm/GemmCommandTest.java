package org.jshmem.it.gemm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.jshmem.gemm.cli.GemmMain;
import org.jshmem.it.JobResult;
import org.jshmem.it.MpiJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The {@code gemm} command on the host heap, as real mpirun jobs: the CPU executor runs the kernels'
 * schedule and flag protocol, and every PE checks its C against the product computed in double.
 */
class GemmCommandTest {

    private static JobResult gemm(int np, String... args) {
        return MpiJob.of(np, GemmMain.class).args(args).env("JSHMEM_SPIN", "0").timeout(Duration.ofSeconds(240)).run();
    }

    private static void assertEveryPeValidated(JobResult r, int np, String label) {
        assertTrue(r.succeeded(), r::toString);
        for (int pe = 0; pe < np; pe++) {
            String v = r.value(pe, label);
            assertTrue(v != null && v.endsWith("PASS"), "PE " + pe + " " + label + ": " + v + "\n" + r);
        }
    }

    @ParameterizedTest(name = "{0} PEs {1} {2} {3}")
    @CsvSource({
        "3, all_scatter, bf16, auto",       // the default collective, as CI runs it
        "3, all_reduce, bf16, auto",        // one-shot (C is small)
        "3, all_reduce, fp16, two_shot",     // row blocks straddle tiles: two owners sum parts of one
        "4, all_reduce, bf16, two_shot",
        "4, all_scatter, fp16, auto",
        "2, all_reduce, bf16, one_shot",
        "3, all_gather_gemm, bf16, auto",   // row blocks of A straddle tiles; gathered while the GEMM runs
        "4, all_gather_gemm, fp16, auto",
        "3, gemm_reduce_scatter, fp16, auto",   // tiles straddling two PEs' rows go to both
        "4, gemm_reduce_scatter, bf16, auto",
        "1, none, bf16, auto"})
    void raggedShapeValidatesOnEveryPe(int np, String collective, String dtype, String allReduce) {
        JobResult r = gemm(np, "-c", collective, "-m", "333", "-n", "257", "-k", "190", "--dtype", dtype,
                "--allreduce", allReduce, "--validate", "--back-to-back", "20", "--iters", "2", "--warmup", "1");
        assertEveryPeValidated(r, np, "validated");
        assertEveryPeValidated(r, np, "validated-after-20-calls");
    }

    /** B stored n x k (--trans-b): each PE's shard is its block of W = B^T, and the product checked is A x W^T. */
    @ParameterizedTest(name = "{0} PEs {1} {2} {3}, B n x k")
    @CsvSource({
        "3, all_scatter, bf16, auto",       // PE p holds rows [off_p, off_p + n_p) of W
        "3, all_reduce, fp16, two_shot",     // PE p holds columns [off_p, off_p + k_p) of W: rows of k_p
        "2, all_reduce, bf16, one_shot",
        "3, all_gather_gemm, bf16, auto",
        "4, gemm_reduce_scatter, fp16, auto",
        "1, none, bf16, auto"})
    void transposedBValidatesOnEveryPe(int np, String collective, String dtype, String allReduce) {
        JobResult r = gemm(np, "-c", collective, "-m", "333", "-n", "257", "-k", "190", "--dtype", dtype,
                "--allreduce", allReduce, "--trans-b", "--validate", "--back-to-back", "5", "--iters", "2",
                "--warmup", "1");
        assertEveryPeValidated(r, np, "validated");
        assertEveryPeValidated(r, np, "validated-after-5-calls");
    }

    @ParameterizedTest(name = "split {0} {1}")
    @CsvSource({"stream_k, all_scatter", "data_parallel, all_scatter", "stream_k, all_gather_gemm",
        "stream_k, gemm_reduce_scatter"})
    void everySplitValidates(String split, String collective) {
        JobResult r = gemm(2, "-c", collective, "-m", "100", "-n", "130", "-k", "300", "--split", split,
                "--workgroups", "3", "--validate", "--iters", "1", "--warmup", "0");
        assertEveryPeValidated(r, 2, "validated");
    }

    @Test
    void twoShotAllReduceWithFewerRowsThanPesValidates() {   // PE 2 owns no row: it only pushes partials
        JobResult r = gemm(3, "-c", "all_reduce", "-m", "2", "-n", "70", "-k", "50", "--allreduce", "two_shot",
                "--validate", "--back-to-back", "5", "--iters", "1", "--warmup", "0");
        assertEveryPeValidated(r, 3, "validated");
        assertEveryPeValidated(r, 3, "validated-after-5-calls");
    }

    @Test
    void badSizeIsNamedAndNothingRuns() {
        JobResult r = gemm(1, "-m", "0", "-n", "8", "-k", "8");
        assertFalse(r.succeeded());
        assertTrue(r.output().contains("-m 0: a GEMM size must be a positive integer"), r::toString);
    }

    @Test
    void unsupportedTypeAndLayoutAreRefused() {
        JobResult t = gemm(1, "--dtype", "fp32");
        assertFalse(t.succeeded());
        assertTrue(t.output().contains("--dtype fp32: gemm takes fp16 or bf16"), t::toString);
        JobResult l = gemm(1, "--trans-a");
        assertFalse(l.succeeded());
        assertTrue(l.output().contains("--trans-a: A is row-major m x k only"), l::toString);
    }

    @Test
    void heapTooSmallSaysWhatToSet() throws java.io.IOException {
        long before = shmFiles();
        JobResult r = MpiJob.of(2, GemmMain.class).args("-m", "2048", "-n", "2048", "-k", "2048")
                .env("JSHMEM_SYMMETRIC_SIZE", "4M").timeout(Duration.ofSeconds(120)).run();
        assertFalse(r.succeeded());
        assertTrue(r.output().contains("JSHMEM_SYMMETRIC_SIZE"), r::toString);
        assertEquals(before, shmFiles(), "jshmem files left in /dev/shm");
    }

    private static long shmFiles() throws java.io.IOException {
        try (var s = java.nio.file.Files.list(java.nio.file.Path.of("/dev/shm"))) {
            return s.filter(p -> p.getFileName().toString().startsWith("jshmem-")).count();
        }
    }

    @Test
    void tooFewColumnsToShardIsRefused() {
        JobResult r = gemm(3, "-c", "all_scatter", "-m", "8", "-n", "2", "-k", "8");
        assertFalse(r.succeeded());
        assertTrue(r.output().contains("all_scatter over 3 PEs needs n >= 3"), r::toString);
    }

    @Test
    void clustersOnTheCpuAreRefusedSayingWhatToUse() {
        JobResult r = gemm(2, "-c", "none", "-m", "64", "-n", "64", "-k", "64", "--cluster", "2");
        assertFalse(r.succeeded());
        assertTrue(r.output().contains("clusters of 2 CTAs are a feature of the Hopper kernel on a GPU heap; this GEMM"
                + " runs on the CPU: use cluster 0 (automatic) or 1"), r::toString);
        JobResult bad = gemm(1, "-c", "none", "-m", "64", "-n", "64", "-k", "64", "--cluster", "3");
        assertFalse(bad.succeeded());
        assertTrue(bad.output().contains("cluster 3 must be 0 (automatic), 1 or 2"), bad::toString);
    }

    @Test
    void copyEngineScatterOnTheCpuIsRefusedSayingWhatToUse() {
        JobResult r = gemm(2, "-c", "all_scatter", "-m", "64", "-n", "64", "-k", "64", "--scatter", "copy_engine");
        assertFalse(r.succeeded());
        assertTrue(r.output().contains("the all-scatter by the copy engines (scatter copy_engine) needs a GPU heap"
                + " (JSHMEM_BACKEND=cuda or hip); on a host heap use scatter stores or auto"), r::toString);
        JobResult bad = gemm(1, "-c", "all_scatter", "-m", "64", "-n", "64", "-k", "64", "--scatter", "dma");
        assertFalse(bad.succeeded());
        assertTrue(bad.output().contains("--scatter dma: choose one of [auto, stores, copy_engine]"), bad::toString);
        JobResult stores = gemm(2, "-c", "all_scatter", "-m", "64", "-n", "64", "-k", "64", "--scatter", "stores",
                "--validate");
        assertEveryPeValidated(stores, 2, "validated");
    }

    @Test
    void tooFewRowsToScatterIsRefused() {
        JobResult r = gemm(3, "-c", "gemm_reduce_scatter", "-m", "2", "-n", "8", "-k", "8");
        assertFalse(r.succeeded());
        assertTrue(r.output().contains("gemm_reduce_scatter over 3 PEs needs m >= 3 (each PE gets at least one row of C)"),
                r::toString);
    }
}
