package org.jshmem.it.gemm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.jshmem.gemm.cli.GemmMain;
import org.jshmem.it.JobResult;
import org.jshmem.it.MpiJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The {@code gemm} command on the host heap, as real mpirun jobs: the CPU executor runs the kernels'
 * schedule and flag protocol, and every PE checks its C against the product computed in double.
 */
// independent jobs: several may run at once (the parallelism of tests/integration/pom.xml)
@Execution(ExecutionMode.CONCURRENT)
class GemmCommandTest {

    /** The command with each PE's own validation line ({@code --per-pe}) beside PE 0's summary. */
    private static JobResult gemm(int np, String... args) {
        return MpiJob.of(np, GemmMain.class).args(args).args("--per-pe").env("JSHMEM_SPIN", "0")
                .timeout(Duration.ofSeconds(240)).run();
    }

    /** The command on host heaps whatever the suite's backend: for the refusals of what only a GPU heap offers. */
    private static JobResult gemmOnHost(int np, String... args) {
        return MpiJob.of(np, GemmMain.class).args(args).env("JSHMEM_BACKEND", "host").env("JSHMEM_SPIN", "0")
                .timeout(Duration.ofSeconds(240)).run();
    }

    /** Every PE's own line says PASS, and PE 0's one line for all PEs says so too. */
    private static void assertEveryPeValidated(JobResult r, int np, String label) {
        assertTrue(r.succeeded(), r::toString);
        for (int pe = 0; pe < np; pe++) {
            String v = r.value(pe, label);
            assertTrue(v != null && v.endsWith("PASS"), "PE " + pe + " " + label + ": " + v + "\n" + r);
        }
        assertEquals(1, r.linesWith(label + " ").stream().filter(l -> l.startsWith(label + " ")
                && l.contains(" on " + np + " PEs: largest rel_err ") && l.endsWith("PASS on every PE")).count(), r::toString);
    }

    /** Without {@code --per-pe} only PE 0 prints, one whole line per validation. */
    @Test
    void oneSummaryLineFromPeZero() {
        JobResult r = MpiJob.of(3, GemmMain.class).args("-c", "all_scatter", "-m", "64", "-n", "48", "-k", "32",
                "--validate", "--iters", "1", "--warmup", "0").env("JSHMEM_SPIN", "0").timeout(Duration.ofSeconds(240)).run();
        assertTrue(r.succeeded(), r::toString);
        assertEquals(java.util.List.of(), r.linesWith("PE ").stream().filter(l -> l.startsWith("PE ")).toList(),
                "no per-PE lines without --per-pe");
        assertEquals(1, r.linesWith("validated all_scatter 64x48x32 BF16 on 3 PEs: largest rel_err ").size(), r::toString);
    }

    /** With reference: the reference path too (a CPU GEMM, then jshmem's blocking collective), validated alike. */
    @ParameterizedTest(name = "{0} PEs {1} {2} {3}{4}")
    @CsvSource({
        "3, all_scatter, bf16, auto, ' with reference'",       // the default collective, as CI runs it
        "3, all_reduce, bf16, auto, ''",        // one-shot (C is small)
        "3, all_reduce, fp16, two_shot, ' with reference'",     // row blocks straddle tiles: two owners sum parts of one
        "4, all_reduce, bf16, two_shot, ''",
        "4, all_scatter, fp16, auto, ''",
        "2, all_reduce, bf16, one_shot, ''",
        "3, all_gather_gemm, bf16, auto, ' with reference'",   // row blocks of A straddle tiles; gathered while the GEMM runs
        "4, all_gather_gemm, fp16, auto, ''",
        "3, gemm_reduce_scatter, fp16, auto, ' with reference'",   // tiles straddling two PEs' rows go to both
        "4, gemm_reduce_scatter, bf16, auto, ' with reference'",   // 333 rows in unequal blocks: reduce, not reduce-scatter
        "1, none, bf16, auto, ''"})
    void raggedShapeValidatesOnEveryPe(int np, String collective, String dtype, String allReduce, String reference) {
        List<String> args = new java.util.ArrayList<>(List.of("-c", collective, "-m", "333", "-n", "257", "-k", "190",
                "--dtype", dtype, "--allreduce", allReduce, "--validate", "--back-to-back", "20", "--iters", "2",
                "--warmup", "1"));
        if (!reference.isEmpty()) {
            args.add("--reference");
        }
        JobResult r = gemm(np, args.toArray(String[]::new));
        assertEveryPeValidated(r, np, "validated");
        assertEveryPeValidated(r, np, "validated-after-20-calls");
        if (!reference.isEmpty()) {
            assertEveryPeValidated(r, np, "validated-reference");
        }
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

    /** The job's heap files go to a folder of its own (JSHMEM_SHM_DIR), which must be empty after the failure. */
    @Test
    void heapTooSmallSaysWhatToSet(@TempDir java.nio.file.Path shm) throws java.io.IOException {
        JobResult r = MpiJob.of(2, GemmMain.class).args("-m", "2048", "-n", "2048", "-k", "2048")
                .env("JSHMEM_SYMMETRIC_SIZE", "4M").env("JSHMEM_SHM_DIR", shm.toString())
                .timeout(Duration.ofSeconds(120)).run();
        assertFalse(r.succeeded());
        assertTrue(r.output().contains("JSHMEM_SYMMETRIC_SIZE"), r::toString);
        try (var left = java.nio.file.Files.list(shm)) {
            assertEquals(java.util.List.of(), left.toList(), "jshmem files left in JSHMEM_SHM_DIR");
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
        JobResult r = gemmOnHost(2, "-c", "none", "-m", "64", "-n", "64", "-k", "64", "--cluster", "2");
        assertFalse(r.succeeded());
        assertTrue(r.output().contains("clusters of 2 CTAs are a feature of the Hopper kernel on a GPU heap; this GEMM"
                + " runs on the CPU: use cluster 0 (automatic) or 1"), r::toString);
        JobResult bad = gemm(1, "-c", "none", "-m", "64", "-n", "64", "-k", "64", "--cluster", "3");
        assertFalse(bad.succeeded());
        assertTrue(bad.output().contains("cluster 3 must be 0 (automatic), 1 or 2"), bad::toString);
    }

    @Test
    void copyEngineScatterOnTheCpuIsRefusedSayingWhatToUse() {
        JobResult r = gemmOnHost(2, "-c", "all_scatter", "-m", "64", "-n", "64", "-k", "64", "--scatter", "copy_engine");
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
