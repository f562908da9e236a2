package org.jshmem.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.jshmem.gemm.cli.GemmMain;
import org.jshmem.trace.TraceFile;
import org.jshmem.trace.TraceFile.Event;
import org.jshmem.trace.TraceSummary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JSHMEM_TRACE on 3 PEs: the one file the job writes holds each PE's calls with their peers and
 * sizes, spans nest on each thread, the PEs' clocks agree (every PE's k-th barrier starts before
 * any PE's k-th barrier ends), and the fused GEMM's tiles and publications are there for
 * trace-summary's hidden-communication figure, beside the reference path's.
 */
class TraceTest {
    @TempDir
    Path dir;

    private TraceFile traced(MpiJob job) throws Exception {
        Path file = dir.resolve("job.json");
        JobResult r = job.env("JSHMEM_BACKEND", "host").env("JSHMEM_TRACE", file.toString()).run();
        assertTrue(r.succeeded(), r::toString);
        assertEquals(List.of(file), Files.list(dir).toList(), "the trace alone: no part or per-PE file left");
        return TraceFile.read(file);
    }

    @Test
    void everyPeRecordsItsCallsOnOneClock() throws Exception {
        TraceFile t = traced(MpiJob.of(3, TraceProgram.class));
        assertEquals(List.of(0, 1, 2), t.pes());
        for (int pe = 0; pe < 3; pe++) {
            assertEquals(new TraceFile.Clock(0, 0, 0, 0), t.clocks().get(pe), "one node: one clock, nothing dropped");
            List<Event> spans = t.spans(pe);
            int right = (pe + 1) % 3;
            Event program = only(spans, "program");
            assertEquals("app", program.category());
            assertEquals(1, count(spans, "malloc"));
            assertEquals(16 << 10, only(spans, "realloc").arg("bytes"));
            assertEquals(2, count(spans, "calloc"));
            assertEquals(3, count(spans, "free"));
            assertEquals("wait", only(spans, "setLock").category());
            assertTrue(count(spans, "barrierAll") >= TraceProgram.BARRIERS + 1, "PE " + pe + " barriers");
            Event put = only(spans, "put");
            assertEquals(8192, put.arg("bytes"));
            assertEquals(right, put.arg("peer"));
            assertEquals("wait", only(spans, "waitUntilLong").category());
            Event reduce = only(spans, "reduce");
            assertEquals(64, reduce.arg("bytes"));
            assertEquals(0, reduce.arg("team"));
            assertEquals(1, only(spans, "broadcast").arg("peer"), "the root");
            for (Event e : spans) {
                if (e != program && e.thread() == program.thread() && !e.name().equals("barrierAll")) {
                    assertTrue(program.start() <= e.start() && e.end() <= program.end() + 0.002, e + " in " + program);
                }
            }
            assertNested(spans);
            int me = pe;
            Event small = t.events().stream().filter(e -> e.pe() == me && e.category().equals("rma-small")
                    && e.name().equals("put") && e.arg("peer") == right).findFirst().orElseThrow();
            assertEquals(TraceProgram.SMALL_PUTS, small.arg("count"));
            assertEquals(8L * TraceProgram.SMALL_PUTS, small.arg("bytes"));
        }
        assertBarriersOverlap(t, 0);
    }

    @Test
    void aPeOnAnotherNodeIsMappedOntoPeZerosClock() throws Exception {
        TraceFile t = traced(MpiJob.of(3, TraceProgram.class).env("JSHMEM_NODE_OF_RANK", "0,0,1"));
        assertEquals(0, t.clocks().get(1).offsetNanos(), "PE 1 shares PE 0's node and clock");
        TraceFile.Clock other = t.clocks().get(2);
        // One machine: the true offset is 0, so the measured one is within its error, give or take the
        // scheduling of a loaded test machine (a PE that leaves the barriers late by a steady 1 ms shifts the median)
        assertTrue(Math.abs(other.offsetNanos()) <= other.errorNanos() + 5_000_000, other.toString());
        assertBarriersOverlap(t, other.errorNanos() / 1e3 + 5_000);
    }

    @Test
    void whenAPeDiesEachSurvivorKeepsItsOwnEvents() throws Exception {
        Path file = dir.resolve("job.json");
        JobResult r = MpiJob.of(3, KillProgram.class).args("kill9", "2").mpirun("--enable-recovery")
                .env("JSHMEM_BACKEND", "host").env("JSHMEM_SYMMETRIC_SIZE", "8M").env("JSHMEM_TRACE", file.toString())
                .timeout(java.time.Duration.ofSeconds(30)).run();
        assertTrue(!r.timedOut() && r.value(0, "failed").startsWith("PE 2 died"), r::toString);
        assertEquals(List.of(dir.resolve("job.json.pe0"), dir.resolve("job.json.pe1")), Files.list(dir).sorted().toList());
        for (int pe = 0; pe < 2; pe++) {
            TraceFile own = TraceFile.read(dir.resolve("job.json.pe" + pe));
            assertEquals(List.of(pe), own.pes());
            assertEquals(1, count(own.spans(pe), "calloc"), "PE " + pe);
            if (pe == 1) {
                assertEquals(1, count(own.spans(pe), "waitUntilLong"), "the wait that the death ended is there too");
            }
            assertEquals(1, r.linesWith("jshmem: PE " + pe + ": the job did not close together; its trace is in "
                    + dir.resolve("job.json.pe" + pe)).size(), r::toString);
        }
    }

    @Test
    void theFusedGemmsTilesAndPublicationsGiveTheHiddenShare() throws Exception {
        TraceFile t = traced(MpiJob.of(3, GemmMain.class).args("-c", "all_scatter", "-m", "96", "-n", "96", "-k", "64",
                "--iters", "2", "--warmup", "1", "--reference").env("JSHMEM_SPIN", "0"));
        for (int pe = 0; pe < 3; pe++) {
            List<Event> spans = t.spans(pe);
            List<Event> gemms = spans.stream().filter(e -> e.name().equals("gemm all_scatter fused")).toList();
            assertTrue(gemms.size() >= 3, "PE " + pe + ": warm-up and timed calls, got " + gemms.size());
            for (Event g : gemms) {
                assertEquals("gemm", g.category());
                List<Event> tiles = spans.stream().filter(e -> e.name().equals("tile") && e.start() >= g.start()
                        && e.end() <= g.end() + 0.002).toList();
                // 3 tiles of 4 iterations, 3 iterations to each of 4 work-groups: each computes a unit at least
                assertTrue(tiles.size() >= 4, "PE " + pe + ": " + tiles.size() + " tile units in a call");
                assertTrue(tiles.stream().allMatch(e -> e.category().equals("compute") && e.thread() != g.thread()),
                        "tiles run on the work-group threads");
                assertTrue(spans.stream().anyMatch(e -> e.name().equals("publish") && e.start() >= g.start()
                        && e.end() <= g.end() + 0.002), "PE " + pe + ": publications inside the call");
            }
            List<Event> references = spans.stream().filter(e -> e.name().equals("gemm all_scatter reference")).toList();
            assertTrue(references.size() >= 3, "PE " + pe + ": the reference path's calls too");
            for (Event g : references) {
                assertEquals(1, spans.stream().filter(e -> e.name().equals("local gemm") && e.start() >= g.start()
                        && e.end() <= g.end() + 0.002).count(), "PE " + pe + ": one CPU GEMM per reference call");
            }
            assertNested(spans);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        TraceSummary.print(t, dir.resolve("job.json"), new PrintStream(out, true, StandardCharsets.UTF_8));
        String summary = out.toString(StandardCharsets.UTF_8);
        assertTrue(summary.contains("trace " + dir.resolve("job.json")), summary);
        assertTrue(summary.matches("(?s).*\\n  0  gemm all_scatter fused +\\d+ .*%\\n.*"), summary);
        assertTrue(summary.matches("(?s).*\\nhidden, fused path: \\d+% of its communication time\\n.*"), summary);
        // the reference path computes, then communicates: nothing of its collective hides
        assertTrue(summary.contains("\nhidden, reference path: 0% of its communication time\n"), summary);
        assertTrue(summary.contains("\ntile "), summary);
    }

    private static Event only(List<Event> spans, String name) {
        List<Event> all = spans.stream().filter(e -> e.name().equals(name)).toList();
        assertEquals(1, all.size(), name + ": " + all);
        return all.getFirst();
    }

    private static long count(List<Event> spans, String name) {
        return spans.stream().filter(e -> e.name().equals(name)).count();
    }

    /** On each thread, two spans are disjoint or one holds the other (times are printed to the nanosecond). */
    private static void assertNested(List<Event> spans) {
        for (long thread : spans.stream().map(Event::thread).distinct().toList()) {
            List<Event> open = new ArrayList<>();
            for (Event e : spans.stream().filter(x -> x.thread() == thread).sorted(Comparator.comparingDouble(Event::start)
                    .thenComparing(Comparator.comparingDouble(Event::duration).reversed())).toList()) {
                open.removeIf(o -> o.end() <= e.start() + 0.001);
                for (Event o : open) {
                    assertTrue(e.end() <= o.end() + 0.002, e + " crosses " + o);
                }
                open.add(e);
            }
        }
    }

    /** The k-th barrierAll of every PE: each starts before every one of them ends, within the clocks' error. */
    private static void assertBarriersOverlap(TraceFile t, double errorMicros) {
        List<List<Event>> barriers = t.pes().stream().map(pe -> t.spans(pe).stream()
                .filter(e -> e.name().equals("barrierAll")).toList()).toList();
        int n = barriers.getFirst().size();
        for (List<Event> b : barriers) {
            assertEquals(n, b.size(), "every PE made the same barriers");
        }
        for (int k = 0; k < n; k++) {
            int i = k;
            double lastStart = barriers.stream().mapToDouble(b -> b.get(i).start()).max().orElseThrow();
            double firstEnd = barriers.stream().mapToDouble(b -> b.get(i).end()).min().orElseThrow();
            assertTrue(lastStart <= firstEnd + errorMicros + 0.002, "barrier " + k + ": a PE started it at " + lastStart
                    + " us, after another left it at " + firstEnd + " us");
        }
    }
}
