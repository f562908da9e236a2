package org.jshmem.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import javax.imageio.ImageIO;
import org.jshmem.AtomicOp;
import org.jshmem.it.JobResult;
import org.jshmem.it.MpiJob;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * CI smoke run of the whole suite: every benchmark with a tiny sweep on the host backend, on 2
 * PEs under mpirun, with --csv, --plot and --baseline. Checks that the expected rows (every
 * size, op and type), tables and charts came out; never timings.
 */
class PerfSmokeTest {
    /** Every benchmark the suite must have; a new one joins this list and the registry. */
    static final List<String> BENCHMARKS = List.of("put_bw", "put_bibw", "get_bw", "get_bibw", "put_nbi_bw",
            "put_nbi_bibw", "get_nbi_bw", "get_nbi_bibw", "iput_bw", "p_latency", "g_latency", "put_latency", "get_latency",
            "put_signal_latency", "atomic_latency", "atomic_fp_latency", "atomic_rate", "ctx_put_rate", "barrier_latency", "broadcast", "fcollect", "alltoall",
            "reduce", "reduce_scatter");
    static final List<Long> SIZES = List.of(8L, 4096L);
    static final int ITERS = 20;
    static final int REPS = 2;

    @TempDir
    static Path dir;
    static JobResult job;
    static List<Row> rows;

    @BeforeAll
    static void runSuite() throws IOException {
        Path baseline = dir.resolve("openshmem.csv");
        Files.writeString(baseline, """
                # a made-up baseline in the anchor's shape
                library,benchmark,form,op,type,pes,size_bytes,iterations,repetitions,unit,median,min,max
                openshmem,put_bw,host,put,byte,2,8,20000,3,GB/s,0.5,0.4,0.6
                openshmem,put_bw,host,put,byte,2,4096,20000,3,GB/s,80,79,81
                openshmem,atomic_latency,host,fetch_add,long,2,8,100000,3,us,0.02,0.02,0.02
                """);
        job = MpiJob.of(2, PerfMain.class)
                .args("all", "--sizes", "8,4K", "--iters", Integer.toString(ITERS), "--reps", Integer.toString(REPS),
                        "--warmup", "1", "--warmup-ms", "0", "--progress", "never", "--csv", dir.resolve("out.csv").toString(),
                        "--plot", dir.resolve("charts").toString(), "--baseline", baseline.toString())
                .timeout(Duration.ofSeconds(240))
                .run();
        assertTrue(job.succeeded(), job::toString);
        rows = Csv.read(dir.resolve("out.csv"));
    }

    @Test
    void registryHasEveryBenchmark() {
        assertEquals(new TreeSet<>(BENCHMARKS), Registry.all().stream().map(Benchmark::name)
                .collect(Collectors.toCollection(TreeSet::new)));
    }

    @Test
    void everyBenchmarkProducedItsRows() {
        for (Benchmark b : Registry.all()) {
            List<Row> mine = rows.stream().filter(r -> r.benchmark().equals(b.name())).toList();
            assertFalse(mine.isEmpty(), "no rows for " + b.name() + "\n" + job);
            List<String> want = new ArrayList<>();
            for (String op : b.ops()) {
                for (String type : b.types()) {
                    if (!b.pairs().exist(op, type)) {
                        continue;
                    }
                    for (long size : b.sized() ? SIZES : List.of(Benchmark.width(type))) {
                        want.add(op + "/" + type + "/" + size);
                    }
                }
            }
            List<String> got = mine.stream().map(r -> r.op() + "/" + r.type() + "/" + r.sizeBytes()).toList();
            assertEquals(want, got, b.name());
            for (Row r : mine) {
                assertEquals("jshmem", r.library());
                assertEquals("host", r.form());
                assertEquals(2, r.pes());
                assertEquals(ITERS, r.iterations());
                assertEquals(REPS, r.repetitions());
                assertEquals(b.metric().unit(), r.unit());
                assertTrue(r.min() <= r.median() && r.median() <= r.max(), r.toString());
                assertTrue(Double.isFinite(r.median()) && r.median() > 0, r.toString());
            }
        }
    }

    @Test
    void atomicsCoverEveryOperationOfTheApi() {
        Set<String> ops = new TreeSet<>();
        for (AtomicOp op : AtomicOp.values()) {
            ops.add(op.name().toLowerCase(Locale.ROOT));
        }
        ops.addAll(List.of("inc", "fetch_inc"));
        for (String b : List.of("atomic_latency", "atomic_rate")) {
            for (String type : List.of("int", "long")) {
                Set<String> got = rows.stream().filter(r -> r.benchmark().equals(b) && r.type().equals(type))
                        .map(Row::op).collect(Collectors.toCollection(TreeSet::new));
                assertEquals(ops, got, b + " " + type);
            }
        }
        assertEquals(Set.of("barrier_all", "sync_all", "team_barrier", "team_sync"), rows.stream()
                .filter(r -> r.benchmark().equals("barrier_latency")).map(Row::op).collect(Collectors.toSet()));
    }

    @Test
    void reduceCoversEveryOpOnEveryTypeItIsDefinedFor() {
        Set<String> got = rows.stream().filter(r -> r.benchmark().equals("reduce"))
                .map(r -> r.op() + " " + r.type()).collect(Collectors.toCollection(TreeSet::new));
        Set<String> want = new TreeSet<>();
        for (org.jshmem.ReduceOp op : org.jshmem.ReduceOp.values()) {
            for (org.jshmem.DType type : org.jshmem.DType.values()) {
                if (!op.isBitwise() || type.isInteger()) {
                    want.add(op.name().toLowerCase(Locale.ROOT) + " " + type.name().toLowerCase(Locale.ROOT));
                }
            }
        }
        assertEquals(want, got);
    }

    @Test
    void tablesNameEveryBenchmarkAndShowTheBaselineRatio() {
        for (String b : BENCHMARKS) {
            assertFalse(job.linesWith(b + ": ").isEmpty(), "no table for " + b + "\n" + job);
        }
        assertFalse(job.linesWith("x openshmem").isEmpty(), job::toString);
        // only PE 0 prints: one table heading per benchmark
        assertEquals(1, job.linesWith("put_bw: ").stream().filter(l -> l.strip().startsWith("put_bw: ")).count(),
                job::toString);
    }

    @Test
    void everyChartIsAReadablePng() throws IOException {
        for (String b : BENCHMARKS) {
            Path png = dir.resolve("charts").resolve(b + ".png");
            assertTrue(Files.size(png) > 0, png + " is empty");
            BufferedImage img = ImageIO.read(png.toFile());
            assertNotNull(img, png + " is not an image ImageIO can read");
            assertTrue(img.getWidth() >= 640 && img.getHeight() >= 400, png + " is " + img.getWidth() + "x"
                    + img.getHeight());
        }
    }

    /** The GPU forms on the host backend: a clear refusal naming what they need, exit status 2, no table. */
    @ParameterizedTest
    @ValueSource(strings = {"on_stream", "graph", "device"})
    void gpuFormsRefuseTheHostBackend(String form) {
        JobResult r = MpiJob.of(2, PerfMain.class).env("JSHMEM_BACKEND", "host")
                .args("put_bw", "barrier_latency", "--form", form, "--sizes", "8", "--iters", "1", "--progress", "never")
                .timeout(Duration.ofSeconds(120))
                .run();
        assertFalse(r.timedOut(), r::toString);
        assertEquals(2, r.exitCode(), r::toString);
        List<String> refusals = r.linesWith("perf: form " + form + " cannot run here: it needs a GPU heap (JSHMEM_BACKEND=cuda)");
        assertEquals(1, refusals.size(), r::toString);     // PE 0 says it, once
        assertTrue(refusals.getFirst().contains("this PE runs on host"), r::toString);
        assertTrue(r.linesWith("put_bw: ").isEmpty(), r::toString);
    }

    /** A form that implements none of the chosen benchmarks: refused before the heap exists, naming the forms that do. */
    @Test
    void aFormThatImplementsNoneOfTheBenchmarksIsRefused() {
        JobResult r = MpiJob.of(2, PerfMain.class).env("JSHMEM_BACKEND", "host")
                .args("alltoall", "--form", "on_stream", "--sizes", "8", "--iters", "1", "--progress", "never")
                .timeout(Duration.ofSeconds(120))
                .run();
        assertFalse(r.timedOut(), r::toString);
        assertEquals(2, r.exitCode(), r::toString);
        List<String> refusals = r.linesWith("perf: the on_stream form implements none of alltoall (forms: host);"
                + " choose one of those forms with --form");
        assertEquals(1, refusals.size(), r::toString);
        assertTrue(r.linesWith("symmetric heap size").isEmpty(), r::toString);
    }

    @Test
    void csvIsCommentedAndHasTheDocumentedHeader() throws IOException {
        List<String> lines = Files.readAllLines(dir.resolve("out.csv"));
        assertTrue(lines.getFirst().startsWith("# jshmem perf"), lines.getFirst());
        assertTrue(lines.contains(Csv.HEADER), String.join("\n", lines.subList(0, 3)));
        assertEquals(Arrays.asList(Csv.HEADER.split(",")).size(), lines.getLast().split(",").length);
    }
}
