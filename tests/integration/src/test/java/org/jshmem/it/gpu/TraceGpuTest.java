package org.jshmem.it.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import org.jshmem.it.JobResult;
import org.jshmem.it.MpiJob;
import org.jshmem.trace.TraceFile;
import org.jshmem.trace.TraceFile.Event;
import org.jshmem.trace.TraceSummary;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JSHMEM_TRACE on GPU heaps ({@link TraceGpuProgram}, 2 PEs): a kernel's own spans, the operations queued
 * on a stream (timed on the GPU, on the stream's track) and the fused GEMM kernels' tile spans reach the trace, on tracks per block, inside the host spans that waited for
 * them (the GPU clock mapped onto the host's), and trace-summary measures the fused GEMM's hidden
 * communication from them. Tag "gpu": run on the GPU machine.
 */
@Tag("gpu")
class TraceGpuTest {
    private static final int NP = 2;

    @TempDir
    Path dir;

    @Test
    void kernelSpansLieInsideTheHostCallsThatWaitedForThem() throws Exception {
        Path file = dir.resolve("job.json");
        JobResult r = MpiJob.of(NP, TraceGpuProgram.class).env("JSHMEM_BACKEND", "cuda").env("JSHMEM_TRACE", file.toString())
                .env("JSHMEM_SYMMETRIC_SIZE", "256M").timeout(Duration.ofSeconds(240)).run();
        assertTrue(r.succeeded(), r::toString);
        TraceFile t = TraceFile.read(file);
        for (int pe = 0; pe < NP; pe++) {
            int me = pe;
            assertEquals("true", r.value(pe, "tracing"));
            assertEquals("[" + (pe + 1) + "," + (pe + 1) + "," + (pe + 1) + "," + (pe + 1) + "]", r.value(pe, "out"));
            Event clock = t.events().stream().filter(e -> e.pe() == me && e.name().equals("jshmem_clock")).findFirst()
                    .orElseThrow();
            assertEquals(0, clock.arg("gpu_lost"), "PE " + pe + ": no span lost");
            double slack = clock.arg("gpu_error_ns") / 1e3 + 5;   // microseconds
            assertTrue(slack < 200, "PE " + pe + ": GPU clock mapped within " + slack + " us");
            List<Event> spans = t.spans(pe);
            Event kernel = spans.stream().filter(e -> e.name().equals("kernel")).findFirst().orElseThrow();
            List<Event> mine = spans.stream().filter(e -> e.name().equals("my span")).toList();
            assertEquals(TraceGpuProgram.BLOCKS, mine.size(), "PE " + pe + ": a span per block");
            for (Event e : mine) {
                assertEquals("gpu", e.category());
                assertTrue(e.arg("value") >= 0 && e.arg("value") < TraceGpuProgram.BLOCKS, e.toString());
                assertInside(e, kernel, slack);
            }
            assertEquals(TraceGpuProgram.BLOCKS, mine.stream().map(Event::thread).distinct().count(), "a track per block");
            assertStreamCallsTimedOnTheGpu(t, pe, spans, slack);
            for (String name : List.of("gemm all_scatter fused", "gemm all_reduce fused")) {
                List<Event> calls = spans.stream().filter(e -> e.name().equals(name)).toList();
                assertEquals(2, calls.size(), "PE " + pe + ": " + name);
                for (Event call : calls) {
                    List<Event> inside = spans.stream().filter(e -> e.start() >= call.start() - slack
                            && e.end() <= call.end() + slack && e.thread() != call.thread()).toList();
                    assertTrue(inside.stream().anyMatch(e -> e.name().equals("mma") && e.category().equals("compute")
                            && e.arg("value") >= 0), "PE " + pe + ": " + name + ": tile products in the call");
                    assertTrue(inside.stream().anyMatch(e -> e.name().equals("epilogue") && e.category().equals("comm")),
                            "PE " + pe + ": " + name + ": epilogues that send in the call");
                }
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        TraceSummary.print(t, file, new PrintStream(out, true, StandardCharsets.UTF_8));
        String summary = out.toString(StandardCharsets.UTF_8);
        assertTrue(summary.matches("(?s).*\\nhidden, fused path: \\d+% of its communication time\\n.*"), summary);
        assertTrue(summary.contains("\nmma "), summary);
        assertEquals(List.of(file), Files.list(dir).toList(), "the trace alone");
    }

    /**
     * The stream's put, barrier and reduction: on the stream's track, in queue order, inside the host span;
     * the barrier and the reduction spanned from their kernels' block spans.
     */
    private static void assertStreamCallsTimedOnTheGpu(TraceFile t, int pe, List<Event> spans, double slack) {
        Event host = spans.stream().filter(e -> e.name().equals("stream calls")).findFirst().orElseThrow();
        List<Event> queued = spans.stream().filter(e -> e.thread() != host.thread() && e.start() >= host.start() - slack
                && e.end() <= host.end() + slack && e.name().endsWith("OnStream")).sorted(Comparator.comparingDouble(Event::start))
                .toList();
        assertEquals(List.of("putOnStream", "barrierOnStream", "reduceOnStream"), queued.stream().map(Event::name).toList(),
                "PE " + pe + ": the stream's calls inside the host span that waited for them");
        assertEquals(List.of("rma", "barrier", "collective"), queued.stream().map(Event::category).toList());
        assertEquals((pe + 1) % NP, queued.get(0).arg("peer"));
        assertEquals(TraceGpuProgram.STREAM_BYTES, queued.get(0).arg("bytes"));
        assertEquals(TraceGpuProgram.REDUCE_ELEMENTS * Float.BYTES, queued.get(2).arg("bytes"));
        assertEquals(1, queued.stream().map(Event::thread).distinct().count(), "PE " + pe + ": one track, the stream's");
        String track = t.events().stream().filter(e -> e.pe() == pe && e.name().equals("thread_name")
                && e.thread() == queued.get(0).thread()).map(e -> String.valueOf(e.args().get("name"))).findFirst().orElseThrow();
        assertTrue(track.startsWith("GPU stream "), track);
        for (int i = 1; i < queued.size(); i++) {
            assertTrue(queued.get(i).start() >= queued.get(i - 1).end() - slack, "PE " + pe + ": in stream order: " + queued);
        }
        for (Event call : queued.subList(1, 3)) {   // the barrier's and the reduction's kernels time themselves
            List<Event> blocks = spans.stream().filter(e -> Set.of("barrier", "comm").contains(e.category())
                    && e.thread() != call.thread() && !e.name().endsWith("OnStream")
                    && e.start() >= call.start() - slack && e.end() <= call.end() + slack).toList();
            assertTrue(!blocks.isEmpty(), "PE " + pe + ": " + call.name() + ": its kernel's block spans in it");
            assertEquals(call.start(), blocks.stream().mapToDouble(Event::start).min().orElseThrow(), 0.01,
                    "PE " + pe + ": " + call.name() + " starts with its first block");
        }
    }

    private static void assertInside(Event e, Event outer, double slack) {
        assertTrue(e.start() >= outer.start() - slack && e.end() <= outer.end() + slack,
                e + " lies outside " + outer + " (slack " + slack + " us)");
    }
}
