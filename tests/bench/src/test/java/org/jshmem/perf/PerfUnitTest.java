package org.jshmem.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The suite's pieces that need no PEs: sizes, metrics, CSV, baselines, tables, the command line. */
class PerfUnitTest {
    @TempDir
    Path dir;

    @Test
    void sizesParseFormatAndSweep() {
        assertEquals(8, Sizes.parse("8"));
        assertEquals(4096, Sizes.parse("4K"));
        assertEquals(256L << 20, Sizes.parse("256M"));
        assertEquals("16M", Sizes.format(16L << 20));
        assertEquals("1536", Sizes.format(1536));
        assertEquals("4 KB", Sizes.formatBytes(4096));
        assertEquals(List.of(8L, 64L, 512L, 4096L), Sizes.sweep(8, 4096, 8).list());
        assertEquals(22, Sizes.sweep(8, 16L << 20, 2).list().size());
        assertThrows(IllegalArgumentException.class, () -> Sizes.sweep(64, 8, 2));
        assertThrows(IllegalArgumentException.class, () -> Sizes.sweep(8, 64, 1));
    }

    @Test
    void metricsTurnTimesIntoFigures() {
        assertEquals(4.0, Metric.BANDWIDTH.value(4096, 1000, 1_024_000), 1e-9);     // 4 MB in 1.024 ms
        assertEquals(0.5, Metric.LATENCY.value(2, 1000, 1_000_000), 1e-9);         // ping-pong: half a round trip
        assertEquals(20.0, Metric.RATE.value(2, 1000, 100_000), 1e-9);             // 2000 ops in 100 us
        assertEquals(2.0, Metric.BANDWIDTH.speedup(20, 10), 1e-9);
        assertEquals(2.0, Metric.LATENCY.speedup(0.1, 0.2), 1e-9);
    }

    @Test
    void csvRoundTripsAndReadsByColumnName() throws IOException {
        Row r = new Row("jshmem", "put_bw", "host", "put", "byte", 2, 4096, 20000, 5, "GB/s", 61.23456789, 58.9, 63.0);
        Path f = dir.resolve("a.csv");
        Csv.write(f, List.of("made by a test"), List.of(r));
        List<Row> back = Csv.read(f);
        assertEquals(1, back.size());
        assertEquals(61.2346, back.getFirst().median(), 1e-9);
        assertTrue(back.getFirst().sameCase(r));
        Path g = dir.resolve("openshmem.csv");
        Files.writeString(g, "benchmark,op,type,size_bytes,unit,median\nput_bw,put,byte,4096,GB/s,80\n");
        Baseline b = Baseline.load(g);
        assertEquals("openshmem", b.label());
        assertEquals(80.0, b.match(r).orElseThrow().median());
        assertEquals(Optional.empty(), b.match(new Row("jshmem", "put_bw", "host", "put", "byte", 2, 8, 1, 1, "GB/s",
                1, 1, 1)));
    }

    @Test
    void tableShowsRatioPerSize() {
        Benchmark b = Registry.find("put_bw").orElseThrow();
        Row r = new Row("jshmem", "put_bw", "host", "put", "byte", 2, 4096, 20000, 5, "GB/s", 100, 90, 110);
        Baseline base = new Baseline("openshmem", List.of(new Row("openshmem", "put_bw", "host", "put", "byte", 2, 4096,
                20000, 3, "GB/s", 80, 80, 80)));
        String t = Table.render(b, "host", 2, List.of(r), List.of(base));
        assertTrue(t.contains("x openshmem"), t);
        assertTrue(t.contains("1.25"), t);
        assertTrue(t.contains("4K"), t);
    }

    @Test
    void optionsSelectCases() {
        RunOptions o = new RunOptions(null, 8L, 64L, 2L, null, 3, 1, 0, Set.of("fetch_add"), Set.of("long"));
        assertEquals(1, o.cases(Registry.find("atomic_latency").orElseThrow()).size());
        assertEquals(0, o.cases(Registry.find("put_bw").orElseThrow()).size());
        RunOptions all = new RunOptions(null, 8L, 64L, 2L, null, 3, 1, 0, Set.of(), Set.of());
        assertEquals(4, all.cases(Registry.find("put_bw").orElseThrow()).size());
        assertEquals(28, all.cases(Registry.find("atomic_latency").orElseThrow()).size());
        assertEquals(64, all.maxSize(Registry.find("put_bw").orElseThrow()));
        RunOptions defaults = new RunOptions(null, null, null, null, null, 3, 1, 0, Set.of(), Set.of());
        Benchmark reduce = Registry.find("reduce").orElseThrow();
        assertEquals(List.of(8L, 128L, 2048L, 32768L, 524288L, 8388608L), defaults.sizesOf(reduce, "long"));
        assertEquals((4 * 8 + 3 * 4) * 6, defaults.cases(reduce).size());      // no bitwise ops on floats
        assertEquals(22, defaults.cases(Registry.find("put_bw").orElseThrow()).size());
        assertEquals(16L << 20, defaults.bufferBytes(Registry.find("fcollect").orElseThrow(), 2));
        assertEquals(100_000, o.iterationsOf(o.cases(Registry.find("atomic_latency").orElseThrow()).getFirst()));
        assertEquals(List.of("put_bw", "put_bibw"), Registry.select(List.of("put_bibw", "put_bw")).stream()
                .map(Benchmark::name).toList());
        assertEquals(9, Registry.select(List.of("bandwidth")).size());
        assertThrows(IllegalArgumentException.class, () -> Registry.select(List.of("nope")));
    }

    @Test
    void baselinesMatchOnlyTheSameForm() {
        Row device = new Row("nvshmem", "put_bw", "device", "put", "byte", 2, 1 << 20, 10, 1, "GB/s", 272.6, 272.6, 272.6);
        Row onStream = new Row("nvshmem", "put_bw", "on_stream", "put", "byte", 2, 1 << 20, 10, 1, "GB/s", 200, 200, 200);
        Baseline b = new Baseline("nvshmem", List.of(device, onStream));
        Row mine = new Row("jshmem", "put_bw", "device", "put", "byte", 2, 1 << 20, 10, 5, "GB/s", 300, 290, 310);
        assertEquals(272.6, b.match(mine).orElseThrow().median());
        assertEquals(200.0, b.match(new Row("jshmem", "put_bw", "on_stream", "put", "byte", 2, 1 << 20, 10, 5, "GB/s",
                1, 1, 1)).orElseThrow().median());
        assertEquals(Optional.empty(), b.match(new Row("jshmem", "put_bw", "host", "put", "byte", 2, 1 << 20, 10, 5,
                "GB/s", 1, 1, 1)));
        assertTrue(b.covers("put_bw", "device"));
        assertFalse(b.covers("put_bw", "host"));
        Benchmark put = Registry.find("put_bw").orElseThrow();
        assertTrue(Table.render(put, "device", 2, List.of(mine), List.of(b)).contains("x nvshmem"));
        assertFalse(Table.render(put, "host", 2, List.of(mine), List.of(b)).contains("x nvshmem"));
    }

    @Test
    void gpuFormsUseTheNvshmemAnchorsCases() {
        RunOptions defaults = new RunOptions(null, null, null, null, null, 5, 1, 0, Set.of(), Set.of());
        Form device = Forms.find("device").orElseThrow();
        Form onStream = Forms.find("on_stream").orElseThrow();
        Benchmark put = Registry.find("put_bw").orElseThrow();
        List<Long> anchorSizes = List.of(4096L, 16384L, 65536L, 262144L, 1L << 20, 4L << 20, 16L << 20, 64L << 20,
                256L << 20);
        for (Form f : List.of(device, onStream)) {
            assertTrue(f.supports(put), f.name());
            assertEquals(anchorSizes, defaults.cases(put, f).stream().map(Case::size).toList(), f.name());
            assertEquals(256L << 20, defaults.bufferBytes(put, 2, f));
            assertEquals(100, defaults.iterationsOf(new Case(put, "put", "byte", 65536), f));
            assertEquals(10, defaults.iterationsOf(new Case(put, "put", "byte", 1 << 20), f));
            Benchmark signal = Registry.find("put_signal_latency").orElseThrow();
            assertEquals(List.of(8L, 4096L, 65536L), defaults.cases(signal, f).stream().map(Case::size).toList());
            assertEquals(2000, defaults.iterationsOf(defaults.cases(signal, f).getFirst(), f));
            Benchmark barrier = Registry.find("barrier_latency").orElseThrow();
            assertEquals(List.of("barrier_all", "sync_all"), defaults.cases(barrier, f).stream().map(Case::op).toList());
            assertEquals(1000, defaults.iterationsOf(defaults.cases(barrier, f).getFirst(), f));
            assertEquals(f == onStream, f.supports(Registry.find("reduce").orElseThrow()),
                    f.name() + ": collectives run on a stream, not from device code");
            assertFalse(f.method(put).equals(put.method()), "its own method text");
        }
        Benchmark p = Registry.find("p_latency").orElseThrow();
        assertEquals(List.of("p/int", "p/long", "raw/int", "raw/long"), defaults.cases(p, device).stream()
                .map(c -> c.op() + "/" + c.type()).toList());
        assertEquals(10_000, defaults.iterationsOf(defaults.cases(p, device).getFirst(), device));
        assertEquals(List.of("fetch_add/long"), defaults.cases(Registry.find("atomic_latency").orElseThrow(), device)
                .stream().map(c -> c.op() + "/" + c.type()).toList());
        assertFalse(onStream.supports(p));
        for (String name : List.of("reduce", "fcollect", "reduce_scatter")) {
            Benchmark coll = Registry.find(name).orElseThrow();
            assertTrue(onStream.supports(coll), name);
            // the anchor's *_on_stream loops: 200 calls below 1 MB, 20 from 1 MB
            assertEquals(200, defaults.iterationsOf(new Case(coll, coll.ops().getFirst(), coll.types().getFirst(), 1024),
                    onStream), name);
            assertEquals(20, defaults.iterationsOf(new Case(coll, coll.ops().getFirst(), coll.types().getFirst(), 1 << 20),
                    onStream), name);
        }
        assertEquals(1, new RunOptions(null, null, null, null, null, 5, 1, 0, Set.of("raw"), Set.of("int"))
                .cases(p, device).size());
        // the host form keeps the benchmarks' own cases
        assertEquals(22, defaults.cases(put, Forms.HOST).size());
        assertEquals(20_000, defaults.iterationsOf(new Case(put, "put", "byte", 8), Forms.HOST));
        assertEquals(List.of("p"), defaults.cases(p, Forms.HOST).stream().map(Case::op).distinct().toList());
    }

    @Test
    void helpListsEveryBenchmarkAndBadUsageExitsWith2() {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(buf, true, StandardCharsets.UTF_8));
            assertEquals(0, PerfMain.run("--help"));
            String help = buf.toString(StandardCharsets.UTF_8);
            for (Benchmark b : Registry.all()) {
                assertTrue(help.contains(b.name()), b.name() + " missing from --help:\n" + help);
            }
            for (String opt : List.of("--min", "--max", "--iters", "--reps", "--warmup", "--csv", "--plot", "--baseline",
                    "--form", "--ops", "--types", "--progress")) {
                assertTrue(help.contains(opt), opt + " missing from --help");
            }
            for (String form : List.of("host", "on_stream", "graph", "device")) {
                assertTrue(help.contains("  " + form + " "), form + " missing from the forms of --help:\n" + help);
            }
            assertTrue(help.contains("JSHMEM_BACKEND=cuda"), help);
            buf.reset();
            assertEquals(2, PerfMain.run("no_such_benchmark"));
            assertTrue(buf.toString(StandardCharsets.UTF_8).contains("unknown benchmark"));
            buf.reset();
            assertEquals(2, PerfMain.run("atomic_latency", "--ops", "fetch_mul"));
            assertEquals(2, PerfMain.run("put_bw", "--form", "nope"));
            assertTrue(buf.toString(StandardCharsets.UTF_8).contains("forms here: host, on_stream, graph, device"));
            assertEquals(2, PerfMain.run("put_bw", "--form", "device", "--ops", "raw"));   // raw belongs to p_latency
            assertEquals(2, PerfMain.run());
            assertFalse(buf.toString(StandardCharsets.UTF_8).isEmpty());
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    @Test
    void anchorScriptTurnsAnchorOutputIntoABaseline() throws Exception {
        Path log = Path.of(getClass().getResource("/perf/oshmem-anchor-output.txt").toURI());
        Path csv = dir.resolve("anchor.csv");
        anchorToCsv(0, "-o", csv.toString(), log.toString());
        Baseline b = Baseline.load(csv);
        assertEquals("openshmem", b.label());
        Row put4k = new Row("jshmem", "put_bw", "host", "put", "byte", 2, 4096, 20000, 5, "GB/s", 1, 1, 1);
        assertEquals(88.32, b.match(put4k).orElseThrow().median(), 1e-9);
        Row pLong = new Row("jshmem", "p_latency", "host", "p", "long", 2, 8, 1, 1, "us", 1, 1, 1);
        assertEquals(0.411, b.match(pLong).orElseThrow().median(), 1e-9);
        assertEquals(16, b.rows().stream().filter(r -> r.benchmark().endsWith("_bw")).count());
        assertEquals(12, b.rows().stream().filter(r -> r.benchmark().equals("reduce")
                || r.benchmark().equals("fcollect")).count());
    }

    @Test
    void anchorScriptTurnsNvshmemOutputIntoABaselineOfEachForm() throws Exception {
        Path log = Path.of(getClass().getResource("/perf/nvshmem-anchor-output.txt").toURI());
        Path csv = dir.resolve("nvshmem.csv");
        anchorToCsv(0, "--nvshmem", "-o", csv.toString(), log.toString());
        Baseline b = Baseline.load(csv);
        assertEquals("nvshmem", b.label());
        Row device = new Row("jshmem", "put_bw", "device", "put", "byte", 2, 256L << 20, 10, 5, "GB/s", 1, 1, 1);
        assertEquals(360.6, b.match(device).orElseThrow().median(), 1e-9);
        Row onStream = new Row("jshmem", "put_bw", "on_stream", "put", "byte", 2, 1 << 20, 10, 5, "GB/s", 1, 1, 1);
        assertEquals(200.0, b.match(onStream).orElseThrow().median(), 1e-9);
        assertEquals(Optional.empty(), b.match(new Row("jshmem", "put_bw", "host", "put", "byte", 2, 1 << 20, 10, 5,
                "GB/s", 1, 1, 1)));
        assertEquals(1.27, b.match(new Row("jshmem", "p_latency", "device", "p", "int", 2, 4, 1, 1, "us", 1, 1, 1))
                .orElseThrow().median(), 1e-9);
        assertEquals(3.34, b.match(new Row("jshmem", "put_signal_latency", "device", "put_signal", "byte", 2, 8, 1, 1,
                "us", 1, 1, 1)).orElseThrow().median(), 1e-9);
        assertEquals(10.5, b.match(new Row("jshmem", "put_signal_latency", "device", "put_signal", "byte", 2, 65536, 1,
                1, "us", 1, 1, 1)).orElseThrow().median(), 1e-9);
        assertEquals(10.86, b.match(new Row("jshmem", "put_latency", "host", "put", "byte", 2, 8, 1, 1, "us", 1, 1, 1))
                .orElseThrow().median(), 1e-9);
        assertEquals(6.28, b.match(new Row("jshmem", "barrier_latency", "on_stream", "barrier_all", "-", 2, 0, 1, 1, "us",
                1, 1, 1)).orElseThrow().median(), 1e-9);
        assertEquals(24.0, b.match(new Row("jshmem", "barrier_latency", "host", "barrier_all", "-", 2, 0, 1, 1, "us", 1,
                1, 1)).orElseThrow().median(), 1e-9);
        assertEquals(18, b.rows().stream().filter(r -> r.benchmark().equals("put_bw")).count());
        assertEquals(9, b.rows().stream().filter(r -> r.benchmark().equals("reduce")).count());
        assertEquals(8, b.rows().stream().filter(r -> r.benchmark().equals("fcollect")).count(), "64 MB had none");
    }

    @Test
    void anchorScriptTurnsTheSymmAnchorIntoNcclAndTorchRows() throws Exception {
        Path log = Path.of(getClass().getResource("/perf/symm-anchor-output.txt").toURI());
        Path csv = dir.resolve("nccl.csv");
        anchorToCsv(0, "--nccl", "-o", csv.toString(), log.toString());
        List<Row> rows = Csv.read(csv);
        assertEquals(6, rows.size());
        assertTrue(rows.stream().allMatch(r -> r.pes() == 4 && r.benchmark().equals("reduce") && r.type().equals("bf16")));
        Row nccl1k = rows.stream().filter(r -> r.library().equals("nccl") && r.sizeBytes() == 1024).findFirst().orElseThrow();
        assertEquals(30.5, nccl1k.median(), 1e-9);
        // torch_symm is the faster of one-shot and two-shot; a nan (one-shot refused at 64 MB) is skipped
        List<Double> symm = rows.stream().filter(r -> r.library().equals("torch_symm")).map(Row::median).toList();
        assertEquals(List.of(8.8, 30.0, 280.0), symm);
        // and the chart turns them into bus bandwidth like the suite's reduce: 2(n-1)/n x bytes / t
        List<ScalingChart.Point> pts = ScalingChart.read(csv, List.of(64L << 20));
        assertEquals(2, pts.size());
        assertEquals("nccl reduce sum bf16 on_stream 64M", pts.getFirst().line());
        assertEquals(1.5 * (64L << 20) / 300e3, pts.getFirst().busGBps(), 1e-9);
    }

    @Test
    void anchorScriptRefusesANcclRunWithoutItsLog() throws Exception {
        String out = anchorToCsv(2, "--nccl");
        assertTrue(out.contains("run-symm.sh"), out);
    }

    /** Runs scripts/anchor-to-csv.sh with {@code args}, asserts its exit status and returns its output. */
    private static String anchorToCsv(int wantStatus, String... args) throws Exception {
        Path script = Path.of(System.getProperty("jshmem.home", "."), "scripts", "anchor-to-csv.sh");
        List<String> command = new java.util.ArrayList<>(List.of("bash", script.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(wantStatus, p.waitFor(), out);
        return out;
    }
}
