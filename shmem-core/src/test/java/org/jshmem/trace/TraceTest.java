package org.jshmem.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The recorder, the file it writes and reads back, and the overlap arithmetic, on one PE. */
class TraceTest {

    @Test
    void offRecordsNothingAndCostsNoClockRead() {
        assertFalse(Trace.OFF.enabled());
        assertEquals(0, Trace.OFF.begin());
        Trace.OFF.end("x", "compute", 0);
        assertEquals(0, Trace.OFF.beginTransfer(1 << 20));
        Trace.OFF.transfer("put", 0, 0, 1 << 20);
        assertTrue(Trace.OFF.tracks().isEmpty());
    }

    @Test
    void spansCountsAndClockRoundTripThroughTheFile(@TempDir Path dir) throws IOException {
        Trace trace = Trace.recording(0, 2);
        long epoch = System.nanoTime();
        trace.setClock(epoch, 0, 0);
        long outer = trace.begin();
        long inner = trace.beginTransfer(8192);
        assertTrue(inner != 0, "a transfer of at least SMALL_BYTES is timed");
        trace.transfer("put", inner, 1, 8192);
        for (int i = 0; i < 3; i++) {
            assertEquals(0, trace.beginTransfer(16), "a small one is counted, not timed");
            trace.transfer("put", 0, 1, 16);
        }
        trace.end("reduce", "collective", outer, -1, 64, 0);
        Path file = dir.resolve("t.json");
        // PE 1 of this job of two records nothing: its pieces say "no bytes, no more"
        UnaryOperator<byte[]> allgather = mine -> java.util.Arrays.copyOf(mine, 2 * mine.length);
        TraceOutput.writeJob(trace, allgather, file);

        assertEquals(List.of(file), Files.list(dir).toList(), "the file alone, no part left");
        TraceFile read = TraceFile.read(file);
        List<TraceFile.Event> spans = read.spans(0);
        assertEquals(List.of("put", "reduce"), spans.stream().map(TraceFile.Event::name).toList());
        TraceFile.Event put = spans.get(0);
        TraceFile.Event reduce = spans.get(1);
        assertEquals("rma", put.category());
        assertEquals(1, put.arg("peer"));
        assertEquals(8192, put.arg("bytes"));
        assertEquals(0, reduce.arg("team"));
        assertEquals(64, reduce.arg("bytes"));
        assertTrue(reduce.start() <= put.start() && put.end() <= reduce.end() + 1e-3, "the put nests in the reduce");
        assertTrue(reduce.start() >= 0, "times count from the epoch");
        TraceFile.Event small = read.events().stream().filter(e -> e.category().equals("rma-small")).findFirst().orElseThrow();
        assertEquals("put", small.name());
        assertEquals(3, small.arg("count"));
        assertEquals(48, small.arg("bytes"));
        assertEquals(1, small.arg("peer"));
        assertEquals(new TraceFile.Clock(0, 0, 0, 0), read.clocks().get(0));
        assertTrue(read.events().stream().anyMatch(e -> e.name().equals("thread_name")
                && Thread.currentThread().getName().equals(e.args().get("name"))));
    }

    @Test
    void gpuSpansGetATrackPerBlockAndThreadAndTheirValue(@TempDir Path dir) throws IOException {
        Trace trace = Trace.recording(0, 1);
        long epoch = System.nanoTime();
        trace.setClock(epoch, 0, 0);
        trace.deviceSpan(3, 0, "compute", "mma", epoch + 1_000, epoch + 5_000, 17);
        trace.deviceSpan(3, 0, "comm", "epilogue", epoch + 5_000, epoch + 9_000, 17);
        trace.deviceSpan(3, 128, "wait", "wait stamp", epoch + 6_000, epoch + 7_000, -1);
        trace.deviceSpan(4, 0, "gpu", "mine", epoch + 2_000, epoch + 3_000, -1);
        trace.deviceSummary(2, 1500);
        Path file = dir.resolve("t.json");
        TraceOutput.writeJob(trace, mine -> mine, file);
        TraceFile read = TraceFile.read(file);
        List<TraceFile.Event> spans = read.spans(0);
        assertEquals(3, spans.stream().map(TraceFile.Event::thread).distinct().count(), "block 3, block 3 thread 128, block 4");
        TraceFile.Event mma = spans.stream().filter(e -> e.name().equals("mma")).findFirst().orElseThrow();
        assertEquals(17, mma.arg("value"));
        assertEquals(1.0, mma.start(), 1e-9, "on the host's clock, from the epoch");
        assertEquals(-1, spans.stream().filter(e -> e.name().equals("mine")).findFirst().orElseThrow().arg("value"));
        List<String> names = read.events().stream().filter(e -> e.name().equals("thread_name"))
                .map(e -> (String) e.args().get("name")).toList();
        assertTrue(names.containsAll(List.of("GPU block 3", "GPU block 3 thread 128", "GPU block 4")), names.toString());
        TraceFile.Event clock = read.events().stream().filter(e -> e.name().equals("jshmem_clock")).findFirst().orElseThrow();
        assertEquals(2, clock.arg("gpu_lost"));
        assertEquals(1500, clock.arg("gpu_error_ns"));
    }

    @Test
    void aPeThatCannotCloseWithTheOthersWritesItsOwnFile(@TempDir Path dir) throws IOException {
        Trace trace = Trace.recording(3, 4);
        trace.end("tile \"a\"\n", "compute", trace.begin());
        Path own = TraceOutput.writeOwn(trace, dir.resolve("t.json"));
        assertEquals(dir.resolve("t.json.pe3"), own);
        assertEquals("tile \"a\"\n", TraceFile.read(own).spans(3).getFirst().name(), "names are escaped and read back");
        assertEquals(TraceOutput.MAX_NAME + 5, TraceOutput.quote("x".repeat(5000)).length(), "long names are cut short");
    }

    @Test
    void spansPastTheCapacityAreCountedAsDropped(@TempDir Path dir) throws IOException {
        Trace trace = Trace.recording(0, 1);
        for (int i = 0; i < Track.CAPACITY + 5; i++) {
            trace.end("s", "compute", 0);
        }
        Track t = trace.tracks().getFirst();
        assertEquals(Track.CAPACITY, t.count);
        assertEquals(5, t.dropped);
    }

    private static TraceFile.Event span(String category, double start, double end) {
        return new TraceFile.Event("s", category, "X", 0, 1, start, end - start, Map.of());
    }

    @Test
    void overlapIsTheCommunicationTimeUnderCompute() {
        // communication 0-10 and 20-30 (two nested spans count once), compute 5-25 on another thread
        List<TraceFile.Event> spans = List.of(span("rma", 0, 10), span("wait", 2, 8), span("comm", 20, 30),
                span("compute", 5, 25), span("alloc", 0, 30));
        Overlap o = Overlap.within(spans, 0, 30);
        assertEquals(20, o.commMicros(), 1e-9);
        assertEquals(10, o.hiddenMicros(), 1e-9);
        assertEquals(0.5, o.hiddenShare(), 1e-9);
        Overlap window = Overlap.within(spans, 22, 30);   // clipped to the window
        assertEquals(8, window.commMicros(), 1e-9);
        assertEquals(3, window.hiddenMicros(), 1e-9);
        assertEquals(0, Overlap.within(List.of(span("compute", 0, 1)), 0, 1).hiddenShare());
    }

    @Test
    void aFileThatIsNotATraceIsNamedWithItsLine(@TempDir Path dir) throws IOException {
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "{\"traceEvents\":[\n{\"name\":\"x\",}\n]}");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TraceFile.read(bad));
        assertTrue(e.getMessage().contains("line 2"), e.getMessage());
        Files.writeString(bad, "{\"other\":1}");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TraceFile.read(bad)).getMessage()
                .contains("no traceEvents"));
    }
}
