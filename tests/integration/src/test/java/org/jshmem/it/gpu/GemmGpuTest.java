package org.jshmem.it.gpu;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jshmem.gemm.cli.GemmMain;
import org.jshmem.it.JobResult;
import org.jshmem.it.MpiJob;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * gemm-ext's kernels on a GPU, through the {@code gemm} command: every PE compares its C with
 * cuBLAS on the whole GEMM (relative error under the bound), for both collectives, fp16 and bf16,
 * shapes whose sizes split evenly and ragged ones (the portable kernel takes those), many calls back
 * to back without a reset, and a run with {@code JSHMEM_DEBUG=1}. Tag "gpu": run on the GPU machine
 * (PEs sharing one GPU run under MPS there).
 */
// independent jobs: several may run at once (the GPU suite's parallelism, scripts/device/gpu-run.sh)
@Execution(ExecutionMode.CONCURRENT)
@Tag("gpu")
class GemmGpuTest {

    /** Runs GemmMain on np PEs of the GPU heap and asserts that every PE validated; returns the job for more checks. */
    private static JobResult validates(int np, String extraEnv, String... args) {
        MpiJob job = MpiJob.of(np, GemmMain.class).args(args).args("--per-pe").env("JSHMEM_BACKEND", "cuda")
                .env("JSHMEM_SYMMETRIC_SIZE", "2G").timeout(Duration.ofSeconds(300));
        if (!extraEnv.isBlank()) {
            job.env(extraEnv.split("=")[0], extraEnv.split("=")[1]);
        }
        JobResult r = job.run();
        assertTrue(r.succeeded(), r::toString);
        for (int pe = 0; pe < np; pe++) {
            for (String label : new String[] {"validated"}) {
                String v = r.value(pe, label);
                assertTrue(v != null && v.endsWith("PASS"), "PE " + pe + " " + label + ": " + v + "\n" + r);
            }
        }
        return r;
    }

    /** {@code args}, then the fused path for a collective and the case's space-separated {@code options}. */
    private static String[] fusedWith(List<String> args, String collective, String options) {
        if (!collective.equals("none")) {
            args.addAll(List.of("--path", "fused"));
        }
        if (!options.isBlank()) {
            args.addAll(List.of(options.split(" ")));
        }
        return args.toArray(String[]::new);
    }

    @ParameterizedTest(name = "{0} PEs {1} {2} {3} {4}")
    @CsvSource({
        "1, none,        bf16, 4096x4096x4096, ''",
        "1, none,        fp16, 1000x999x1001,  ''",
        "2, all_scatter, bf16, 4096x4096x4096, ''",
        "2, all_reduce,  fp16, 4096x4096x4096, ''",
        "2, all_scatter, fp16, 1000x999x1001,  ''",
        "2, all_scatter, bf16, 2055x4112x256,  ''",   // Hopper: TMA stores clipped at the column block's end (2056)
        "2, all_scatter, bf16, 4096x4096x4096, JSHMEM_GEMM_SCATTER=copy_engine",
        "3, all_scatter, fp16, 2600x1536x1024, JSHMEM_GEMM_SCATTER=copy_engine",   // chunks of 8, 8 and 5 tile rows
        "3, all_scatter, bf16, 1000x999x1001,  JSHMEM_GEMM_SCATTER=copy_engine",   // portable kernel
        "3, all_reduce,  bf16, 1000x999x1001,  ''",
        "2, all_reduce,  bf16, 1024x1024x1024, JSHMEM_DEBUG=1",
        "2, all_reduce,  fp16, 1000x1024x1024, JSHMEM_GEMM_ALLREDUCE=two_shot",   // owners' rows end inside tiles (Hopper)
        "3, all_reduce,  bf16, 1000x999x1001,  JSHMEM_GEMM_ALLREDUCE=two_shot",   // portable kernel
        "3, all_reduce,  fp16, 2600x1536x1024, JSHMEM_GEMM_ALLREDUCE=two_shot",   // 3 owners, row blocks end inside tiles (Hopper)
        "2, all_gather_gemm, fp16, 8192x11008x4096, ''",        // seed 001's shape
        "2, gemm_reduce_scatter, bf16, 8192x8192x4096, ''",     // seed 003's shape
        "2, all_gather_gemm, bf16, 1000x1024x1024, ''",         // row blocks end inside tiles (Hopper kernel)
        "2, gemm_reduce_scatter, fp16, 1000x1024x1024, JSHMEM_DEBUG=1",
        "3, all_gather_gemm, bf16, 1000x999x1001, ''",          // portable kernel
        "3, gemm_reduce_scatter, bf16, 1000x999x1001, ''"})
    void validatesAgainstCublas(int np, String collective, String dtype, String shape, String env) {
        validates(np, env, "-c", collective, "--shapes", shape, "--dtype", dtype, "--path", "fused", "--validate",
                "--iters", "2", "--warmup", "1");
    }

    /**
     * B stored n x k (--trans-b, an nn.Linear weight): every Hopper tile, Stream-K splits and clusters of 2
     * (B's boxes K-major, as A's), the portable kernel (ragged k, and forced), every fused collective, and
     * with --reference cuBLAS's transposed B on the reference path, each validated against cuBLAS.
     */
    @ParameterizedTest(name = "{0} PEs {1} {2} {3} {4}, B n x k")
    @CsvSource({
        "1, none,        bf16, 4096x4096x4096, ''",
        "1, none,        fp16, 1152x1000x1032, --split stream_k --tile 128x192x64",
        "1, none,        bf16, 1152x1000x1032, --split data_parallel --cluster 2 --tile 128x128x64",
        "1, none,        fp16, 128x8192x8192,  --kernel hopper --tile 128x64x64",
        "1, none,        bf16, 1000x999x1001,  ''",                          // portable kernel: k not a multiple of 8
        "1, none,        fp16, 1024x1024x1024, --kernel portable",
        "2, all_scatter, bf16, 2055x4112x256,  ''",
        "2, all_scatter, bf16, 4096x4096x4096, --scatter copy_engine",
        "2, all_reduce,  fp16, 1000x1024x1024, --allreduce two_shot",
        "3, all_reduce,  bf16, 1000x999x1001,  ''",
        "2, all_gather_gemm, fp16, 8192x11008x4096, --reference",            // seed 001: weight [N/2, K] per PE
        "2, gemm_reduce_scatter, bf16, 1000x1024x1024, --reference"})
    void transposedBValidatesAgainstCublas(int np, String collective, String dtype, String shape, String options) {
        List<String> args = new ArrayList<>(List.of("-c", collective, "--shapes", shape, "--dtype", dtype, "--trans-b",
                "--validate", "--iters", "2", "--warmup", "1"));
        JobResult r = validates(np, "", fusedWith(args, collective, options));
        assertTrue(r.output().contains("(B stored n x k)"), r::toString);
        if (options.contains("--reference")) {
            for (int pe = 0; pe < np; pe++) {
                String v = r.value(pe, "validated-reference");
                assertTrue(v != null && v.endsWith("PASS"), "PE " + pe + " reference path: " + v + "\n" + r);
            }
        }
    }

    /**
     * Clusters of 2 (pairs of tile rows sharing B by TMA multicast): each tile, data-parallel and
     * Stream-K (every tile split, so both CTAs of a cluster hand partials over in their own planes),
     * an odd count of tile rows (the last pair's second CTA computes rows past C and stores none), and
     * 2 PEs sharing the GPU (half the clusters each). A fused collective with clusters is refused.
     */
    @ParameterizedTest(name = "{0} PEs {1} {2} tile {3} split {4}")
    @CsvSource({
        "1, bf16, 4096x4096x4096, 128x256x64, auto",
        "1, fp16, 4096x4096x4096, 128x128x64, stream_k",
        "1, bf16, 1152x1000x1032, 128x192x64, stream_k",
        "1, fp16, 1152x1000x1032, 128x256x64, data_parallel",
        "2, bf16, 3840x3840x4096, 128x192x64, auto"})
    void clustersOfTwoValidate(int np, String dtype, String shape, String tile, String split) {
        validates(np, "", "-c", "none", "--shapes", shape, "--dtype", dtype, "--kernel", "hopper", "--tile", tile,
                "--split", split, "--cluster", "2", "--validate", "--iters", "2", "--warmup", "1");
        JobResult fused = MpiJob.of(2, GemmMain.class).args("-c", "all_scatter", "--shapes", "1024x1024x1024", "--path",
                "fused", "--cluster", "2").env("JSHMEM_BACKEND", "cuda").env("JSHMEM_SYMMETRIC_SIZE", "1G")
                .timeout(Duration.ofSeconds(120)).run();
        assertTrue(!fused.succeeded() && fused.output().contains("clusters of 2 CTAs are built for GEMMs without a"
                + " collective; this one's epilogue is all_scatter: use cluster 0 (automatic) or 1"), fused::toString);
    }

    /**
     * The 128x64x64 tile (n64 products, 8 stages): chosen on its own for a GEMM of one tile row that
     * fills a wave with it, forced on ragged shapes with every tile split (fix-ups in its fragment
     * layout), in clusters of 2 (one B box a stage, multicast by one CTA), and under fused collectives.
     */
    @ParameterizedTest(name = "{0} PEs {1} {2} {3} {4}")
    @CsvSource({
        "1, none,        bf16, 128x8192x8192,  ''",
        "1, none,        fp16, 1152x1000x1032, --split stream_k",
        "1, none,        bf16, 1152x1000x1032, --split data_parallel --cluster 2",
        "2, all_reduce,  fp16, 1000x1024x1024, --allreduce two_shot",
        "2, all_scatter, bf16, 1000x1024x1024, ''"})
    void skinnyTileValidates(int np, String collective, String dtype, String shape, String options) {
        List<String> args = new ArrayList<>(List.of("-c", collective, "--shapes", shape, "--dtype", dtype, "--validate",
                "--iters", "2", "--warmup", "1"));
        if (shape.startsWith("128x")) {
            args.addAll(List.of("--kernel", "hopper"));   // the automatic choice, asserted below
        } else {
            args.addAll(List.of("--tile", "128x64x64"));
        }
        JobResult r = validates(np, "", fusedWith(args, collective, options));
        assertTrue(r.output().contains("hopper 128x64x64 x8 stages"), r::toString);
    }

    @ParameterizedTest(name = "{0} {1} {2} back to back")
    @CsvSource({"all_scatter, one_shot, stores", "all_scatter, one_shot, copy_engine", "all_reduce, one_shot, auto",
        "all_reduce, two_shot, auto", "all_gather_gemm, one_shot, auto", "gemm_reduce_scatter, one_shot, auto"})
    void thousandCallsBackToBack(String collective, String allReduce, String scatter) {
        JobResult r = MpiJob.of(2, GemmMain.class).args("-c", collective, "--shapes", "1024x1024x1024", "--path",
                "fused", "--validate", "--back-to-back", "1000", "--iters", "2", "--warmup", "1", "--allreduce", allReduce,
                "--scatter", scatter, "--per-pe")
                .env("JSHMEM_BACKEND", "cuda").env("JSHMEM_SYMMETRIC_SIZE", "1G").timeout(Duration.ofSeconds(300)).run();
        assertTrue(r.succeeded(), r::toString);
        for (int pe = 0; pe < 2; pe++) {
            String v = r.value(pe, "validated-after-1000-calls");
            assertTrue(v != null && v.endsWith("PASS"), "PE " + pe + ": " + v + "\n" + r);
        }
    }

    /**
     * The automatic path where the PEs share one GPU (JSHMEM_DEVICE=0): the reference path for an
     * all-reduce and a GEMM + reduce-scatter of 4096^3, the fused all-scatter of 2048^3 (see
     * GpuPlatform); every one validates. With a GPU per PE all three are fused (GpuPlatformTest).
     */
    @ParameterizedTest(name = "{0} {1} on one GPU: {2}")
    @CsvSource({"all_reduce, 4096x4096x4096, reference path", "gemm_reduce_scatter, 4096x4096x4096, reference path",
        "all_scatter, 2048x2048x2048, hopper"})
    void autoPathWherePesShareAGpu(String collective, String shape, String path) {
        JobResult r = MpiJob.of(2, GemmMain.class).args("-c", collective, "--shapes", shape, "--dtype", "bf16",
                "--validate", "--iters", "2", "--warmup", "1", "--per-pe").env("JSHMEM_BACKEND", "cuda").env("JSHMEM_DEVICE", "0")
                .env("JSHMEM_SYMMETRIC_SIZE", "2G").timeout(Duration.ofSeconds(180)).run();
        assertTrue(r.succeeded(), r::toString);
        assertTrue(r.output().contains(" on 2 PEs: " + path), "auto should take the " + path + "\n" + r);
        for (int pe = 0; pe < 2; pe++) {
            String v = r.value(pe, "validated");
            assertTrue(v != null && v.endsWith("PASS"), "PE " + pe + ": " + v + "\n" + r);
        }
    }

    /**
     * PEs on two "nodes" (JSHMEM_NODE_OF_RANK): a GEMM with a collective takes the reference path
     * (cuBLAS + the collective, staged across nodes) and validates; the fused path, asked for, is
     * refused before anything runs, saying why and what to use.
     */
    @ParameterizedTest(name = "{0} across two nodes")
    @CsvSource({"all_reduce", "all_scatter", "all_gather_gemm", "gemm_reduce_scatter"})
    void acrossNodesTheReferencePathValidates(String collective) {
        validates(2, "JSHMEM_NODE_OF_RANK=0,1", "-c", collective, "--shapes", "1024x1024x1024", "--dtype", "bf16",
                "--validate", "--iters", "2", "--warmup", "1");
        JobResult fused = MpiJob.of(2, GemmMain.class).args("-c", collective, "--shapes", "1024x1024x1024", "--path",
                "fused").env("JSHMEM_BACKEND", "cuda").env("JSHMEM_NODE_OF_RANK", "0,1").env("JSHMEM_SYMMETRIC_SIZE", "1G")
                .timeout(Duration.ofSeconds(120)).run();
        assertTrue(!fused.succeeded() && fused.output().contains("GEMM path fused: the fused ")
                && fused.output().contains("1 PE(s) of this job are on other nodes, whose heaps no kernel here reaches. Use"
                + " path auto or reference"), fused::toString);
    }
}
