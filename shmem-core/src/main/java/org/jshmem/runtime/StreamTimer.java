package org.jshmem.runtime;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;
import org.jshmem.spi.StreamCapability;
import org.jshmem.trace.Trace;

/**
 * Times on the GPU what a traced PE queues on its streams: an event recorded before and after each
 * operation, read once they have passed, the spans handed to the trace on this PE's host clock. Event
 * times are relative to a reference event whose host time is known: recorded on a stream of its own
 * and waited for, the closest of three brackets by two host clock reads. Operations queued while their
 * stream is captured into a graph are not timed (they run at the graph's launch, which is).
 */
final class StreamTimer implements AutoCloseable {
    /** Operations waiting to be read before the oldest half are read and their events reused. */
    private static final int READ_AT = 2048;
    /** Elapsed times come as float milliseconds: a new reference every second keeps them within 0.1 us. */
    private static final long REFERENCE_NANOS = 1_000_000_000L;

    /** An event and the host time at which it was recorded, within {@code error}. */
    private record Reference(MemorySegment event, long host, long error) {
    }

    /** Where an operation began: the reference its times count from and the event recorded before it. */
    record Start(Reference reference, MemorySegment event) {
    }

    private record Pending(Start start, MemorySegment end, int stream, String name, String category, int peer,
                           long bytes, int team) {
    }

    private final StreamCapability gpu;
    private final Trace trace;
    private final MemorySegment referenceStream;
    private final ArrayDeque<MemorySegment> free = new ArrayDeque<>();
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    private final List<Reference> references = new ArrayList<>();
    private final ToIntFunction<MemorySegment> streamNumbers;
    private Reference reference;
    private long clockError;

    /** {@code streamNumbers}: a stream's number on its track. */
    StreamTimer(StreamCapability gpu, Trace trace, ToIntFunction<MemorySegment> streamNumbers) {
        this.gpu = gpu;
        this.trace = trace;
        this.streamNumbers = streamNumbers;
        this.referenceStream = gpu.streamCreate();
    }

    /** Records the start of an operation about to be queued on {@code stream}; null while it is captured. */
    synchronized Start begin(MemorySegment stream) {
        if (gpu.capturing(stream)) {
            return null;
        }
        if (reference == null || System.nanoTime() - reference.host > REFERENCE_NANOS) {
            reference = newReference();
        }
        MemorySegment event = event();
        gpu.eventRecord(event, stream);
        return new Start(reference, event);
    }

    /** Records the end of the operation begun at {@code start} (null: not timed), to be read later. */
    synchronized void end(Start start, MemorySegment stream, String name, String category, int peer, long bytes,
                          int team) {
        if (start == null) {
            return;
        }
        MemorySegment event = event();
        gpu.eventRecord(event, stream);
        pending.add(new Pending(start, event, streamNumbers.applyAsInt(stream), name, category, peer, bytes, team));
        if (pending.size() >= READ_AT) {
            read(READ_AT / 2);
        }
    }

    /** Reads every operation still pending (waiting for it) into the trace. */
    synchronized void drain() {
        read(pending.size());
        trace.deviceSummary(0, clockError);
    }

    private void read(int count) {
        for (int i = 0; i < count; i++) {
            Pending p = pending.poll();
            gpu.eventSynchronize(p.end);
            Reference r = p.start.reference;
            long start = r.host + Math.round(gpu.eventElapsedMillis(r.event, p.start.event) * 1e6);
            long end = r.host + Math.round(gpu.eventElapsedMillis(r.event, p.end) * 1e6);
            trace.streamSpan(p.stream, p.name, p.category, start, end, p.peer, p.bytes, p.team);
            free.add(p.start.event);
            free.add(p.end);
        }
    }

    private MemorySegment event() {
        MemorySegment e = free.poll();
        return e != null ? e : gpu.eventCreate(true);
    }

    private Reference newReference() {
        Reference best = null;
        for (int i = 0; i < 3; i++) {
            MemorySegment event = event();
            long before = System.nanoTime();
            gpu.eventRecord(event, referenceStream);
            gpu.eventSynchronize(event);
            long after = System.nanoTime();
            Reference r = new Reference(event, before + (after - before) / 2, (after - before) / 2);
            if (best == null || r.error < best.error) {
                if (best != null) {
                    free.add(best.event);
                }
                best = r;
            } else {
                free.add(event);
            }
        }
        clockError = Math.max(clockError, best.error);
        references.add(best);
        return best;
    }

    @Override
    public synchronized void close() {
        pending.forEach(p -> {
            free.add(p.start.event);
            free.add(p.end);
        });
        pending.clear();
        free.forEach(gpu::eventDestroy);
        free.clear();
        references.forEach(r -> gpu.eventDestroy(r.event));
        references.clear();
        gpu.streamDestroy(referenceStream);
    }
}
