package org.jshmem.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jshmem.Cmp;
import org.jshmem.spi.StreamCapability;
import org.jshmem.trace.Trace;
import org.jshmem.trace.TraceFile;
import org.jshmem.trace.TraceFile.Event;
import org.jshmem.trace.TraceOutput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link TracedStreams}, {@link StreamTimer} and {@link TaggedOperations} over a stand-in for a GPU whose
 * events read a clock of their own (the host's, shifted by an hour): the spans come out on the host clock,
 * inside the calls that queued them, on a track per stream, and events are reused past the read threshold;
 * tagged operations take their spans from their kernels' spans.
 */
class StreamTimerTest {
    private static final long GPU_CLOCK_SHIFT = 3_600_000_000_000L;

    @TempDir
    Path dir;

    /** The stand-in: events stamp the shifted clock when recorded; queued operations take {@code workNanos}. */
    private static final class FakeGpu {
        final Map<Long, Long> stamps = new HashMap<>();
        final Set<Long> capturing = new HashSet<>();
        long nextHandle = 16;
        int eventsCreated;
        int eventsDestroyed;
        long workNanos = 200_000;
        boolean kernelsTime;
        int tag;
        int kernelsTagged;
        final List<Integer> barrierTags = new java.util.ArrayList<>();

        StreamCapability capability() {
            return (StreamCapability) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {StreamCapability.class}, (proxy, m, a) -> switch (m.getName()) {
                        case "streamCreate" -> MemorySegment.ofAddress(nextHandle++);
                        case "eventCreate" -> {
                            eventsCreated++;
                            yield MemorySegment.ofAddress(nextHandle++);
                        }
                        case "eventDestroy" -> {
                            eventsDestroyed++;
                            yield null;
                        }
                        case "eventRecord" -> {
                            stamps.put(((MemorySegment) a[0]).address(), System.nanoTime() + GPU_CLOCK_SHIFT);
                            yield null;
                        }
                        case "eventElapsedMillis" -> (float) ((stamps.get(((MemorySegment) a[1]).address())
                                - stamps.get(((MemorySegment) a[0]).address())) / 1e6);
                        case "capturing" -> capturing.contains(((MemorySegment) a[0]).address());
                        case "copyOnStream", "signalWaitOnStream" -> {
                            busy(workNanos);
                            yield null;
                        }
                        case "kernelsTimeTaggedOperations" -> kernelsTime;
                        case "tagKernels" -> {
                            int queued = kernelsTagged;
                            tag = (int) a[0];
                            kernelsTagged = 0;
                            yield queued;
                        }
                        case "barrierOnStream", "syncOnStream" -> {   // a kernel, tagged; team slot 7: none
                            if ((int) a[0] != 7) {
                                barrierTags.add(tag);
                                kernelsTagged += tag != 0 ? 1 : 0;
                            }
                            yield null;
                        }
                        case "streamDestroy", "eventSynchronize", "collectives" -> null;
                        default -> throw new UnsupportedOperationException(m.getName());
                    });
        }
    }

    private static void busy(long nanos) {
        long until = System.nanoTime() + nanos;
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }

    private TraceFile written(Trace trace) throws Exception {
        trace.setClock(0, 0, 0);
        return TraceFile.read(TraceOutput.writeOwn(trace, dir.resolve("t.json")));
    }

    @Test
    void spansLieOnTheHostClockInsideTheirCallsOnATrackPerStream() throws Exception {
        FakeGpu gpu = new FakeGpu();
        Trace trace = Trace.recording(0, 2);
        TracedStreams streams = new TracedStreams(gpu.capability(), trace, 0);
        MemorySegment a = MemorySegment.ofAddress(1);
        MemorySegment b = MemorySegment.ofAddress(2);
        long before = System.nanoTime();
        streams.copyOnStream(1, 0, 0, 64, 1 << 20, a);
        long between = System.nanoTime();
        streams.signalWaitOnStream(8, Cmp.GE, 1, b);
        streams.copyOnStream(0, 0, 1, 64, 4096, a);
        long after = System.nanoTime();
        streams.drain();
        streams.close();
        assertEquals(gpu.eventsCreated, gpu.eventsDestroyed, "every event destroyed");

        TraceFile t = written(trace);
        List<Event> spans = t.spans(0);
        assertEquals(List.of("putOnStream", "signalWaitUntilOnStream", "getOnStream"),
                spans.stream().sorted(java.util.Comparator.comparingDouble(Event::start)).map(Event::name).toList());
        Event put = spans.stream().filter(e -> e.name().equals("putOnStream")).findFirst().orElseThrow();
        assertEquals("rma", put.category());
        assertEquals(1, put.arg("peer"));
        assertEquals(1 << 20, put.arg("bytes"));
        Event clock = t.events().stream().filter(e -> e.name().equals("jshmem_clock")).findFirst().orElseThrow();
        double slack = 1 + clock.arg("gpu_error_ns") / 1e3;
        assertTrue(put.start() >= before / 1e3 - slack && put.end() <= between / 1e3 + slack, put + " outside its call");
        assertTrue(put.duration() >= 200 - slack, put + ": the 200 us it took");
        Event get = spans.stream().filter(e -> e.name().equals("getOnStream")).findFirst().orElseThrow();
        assertEquals(1, get.arg("peer"));
        assertTrue(get.end() <= after / 1e3 + slack, get + " outside its call");
        Event wait = spans.stream().filter(e -> e.name().equals("signalWaitUntilOnStream")).findFirst().orElseThrow();
        assertEquals("wait", wait.category());
        assertEquals(put.thread(), get.thread(), "one track per stream");
        assertTrue(wait.thread() != put.thread(), "another stream, another track");
        Map<Long, String> names = new HashMap<>();
        t.events().stream().filter(e -> e.name().equals("thread_name"))
                .forEach(e -> names.put(e.thread(), String.valueOf(e.args().get("name"))));
        assertEquals("GPU stream 1", names.get(put.thread()));
        assertEquals("GPU stream 2", names.get(wait.thread()));
    }

    @Test
    void aCapturedStreamIsNotTimedAndManyOperationsReuseTheirEvents() throws Exception {
        FakeGpu gpu = new FakeGpu();
        gpu.workNanos = 0;
        Trace trace = Trace.recording(0, 2);
        TracedStreams streams = new TracedStreams(gpu.capability(), trace, 0);
        MemorySegment captured = MemorySegment.ofAddress(3);
        gpu.capturing.add(captured.address());
        streams.signalWaitOnStream(8, Cmp.GE, 1, captured);
        MemorySegment s = MemorySegment.ofAddress(4);
        int n = 5000;
        for (int i = 0; i < n; i++) {
            streams.signalWaitOnStream(8, Cmp.GE, 1, s);
        }
        streams.drain();
        streams.close();
        assertTrue(gpu.eventsCreated <= 2 * 2048 + 8, gpu.eventsCreated + " events created for " + n + " operations");
        List<Event> spans = written(trace).spans(0);
        assertEquals(n, spans.size(), "every operation on the plain stream, none on the captured one");
    }

    @Test
    void taggedOperationsSpanTheirKernelsAndThoseWithoutSpansAreCountedLost() throws Exception {
        FakeGpu gpu = new FakeGpu();
        gpu.kernelsTime = true;
        Trace trace = Trace.recording(0, 2);
        TracedStreams streams = new TracedStreams(gpu.capability(), trace, 0);
        MemorySegment s = MemorySegment.ofAddress(5);
        streams.barrierOnStream(0, s);
        streams.barrierOnStream(7, s);   // queues no kernel: no span, none lost
        streams.syncOnStream(0, s);
        streams.barrierOnStream(0, s);
        assertEquals(List.of(1, 3, 4), gpu.barrierTags, "each call's kernels tagged with its number");
        assertEquals(0, gpu.tag, "the tag cleared after each call");
        assertEquals(0, gpu.eventsCreated, "no event for a tagged operation");
        long t0 = System.nanoTime();
        streams.kernelSpan(1, t0 + 1_000, t0 + 5_000);   // two blocks of operation 1
        streams.kernelSpan(1, t0 + 2_000, t0 + 9_000);
        streams.kernelSpan(3, t0 + 10_000, t0 + 12_000);
        streams.kernelSpan(2, t0, t0 + 1);                // operation 2 queued no kernel: ignored
        streams.drain();
        streams.writeTagged();                             // operation 4's spans never came: lost
        streams.close();

        TraceFile t = written(trace);
        List<Event> spans = t.spans(0);
        assertEquals(List.of("barrierOnStream", "syncOnStream"), spans.stream().map(Event::name).toList());
        Event barrier = spans.get(0);
        assertEquals("barrier", barrier.category());
        assertEquals(0, barrier.arg("team"));
        assertEquals(8.0, barrier.duration(), 0.01, "from the first block's start to the last block's end");
        assertEquals(1.0, spans.get(1).start() - barrier.end(), 0.01);
        Event clock = t.events().stream().filter(e -> e.name().equals("jshmem_clock")).findFirst().orElseThrow();
        assertEquals(1, clock.arg("gpu_lost"), "the operation none of whose spans came");
    }
}
