package org.jshmem.perf;

import java.util.Optional;
import java.util.OptionalDouble;
import org.jshmem.Shmem;
import org.jshmem.ShmemEvent;
import org.jshmem.ShmemGraph;
import org.jshmem.ShmemStateException;
import org.jshmem.ShmemStream;
import org.jshmem.gpu.GpuBackend;

/**
 * A stream of this PE's GPU and two events around the work a GPU form enqueues on it, as the
 * NVSHMEM anchor times: record the start event, enqueue, record the end event, wait for it; the
 * figure is the GPU time between the two events (host work before the start event is not in it).
 * perf's GPU forms and {@link org.jshmem.perf.gpu.GpuCollectivesBench} time with it.
 */
public final class GpuClock implements AutoCloseable {
    private final ShmemStream stream;
    private final ShmemEvent start;
    private final ShmemEvent end;
    private final boolean captured;

    /** A stream and two events on this PE's GPU. */
    public GpuClock(Shmem shmem) {
        this(shmem, false);
    }

    /**
     * A stream and two events on this PE's GPU; {@code captured}: {@link #time} records the work in a
     * CUDA graph first and times one launch of it (NVSHMEM's perftests' {@code --cudagraph}).
     */
    public GpuClock(Shmem shmem, boolean captured) {
        stream = shmem.createStream();
        start = shmem.createEvent();
        end = shmem.createEvent();
        this.captured = captured;
    }

    /** Why a GPU form cannot run on this PE (its heap is not in GPU memory), or empty. */
    static Optional<String> unavailableReason(Shmem shmem) {
        try {
            shmem.unwrap(GpuBackend.class);
            return Optional.empty();
        } catch (ShmemStateException e) {
            String backend = shmem.describe().split("; ")[0];     // without the bootstrap's part
            return Optional.of("it needs a GPU heap (JSHMEM_BACKEND=cuda); this PE runs on " + backend);
        }
    }

    /** The stream the timed work goes on. */
    public ShmemStream stream() {
        return stream;
    }

    /**
     * Records the start event, runs {@code enqueue} (which queues work on {@link #stream()}),
     * records the end event and waits for it. Returns the nanoseconds between the two events. Captured:
     * {@code enqueue} runs inside a capture first, and the events are around one launch of the graph.
     */
    public long time(Runnable enqueue) {
        if (captured) {
            stream.beginCapture();
            enqueue.run();
            try (ShmemGraph graph = stream.endCapture()) {
                stream.record(start);
                graph.launch(stream);
                stream.record(end);
                end.synchronize();
            }
        } else {
            stream.record(start);
            enqueue.run();
            stream.record(end);
            end.synchronize();
        }
        return Math.round(end.elapsedMillisSince(start) * 1e6);
    }

    /**
     * {@link #time}, after a barrier on the stream: the NVSHMEM anchor's loop for bandwidths and
     * collectives ({@code nvshmemx_barrier_all_on_stream}, then the start event). The GPU is still in
     * that barrier while the host records the start event and enqueues the work, so the host's launch
     * of the first operation is timed only where it outlasts the barrier, as in the anchor's figures;
     * on an idle GPU all of it would be. Collective: every PE of the world calls it, also those that
     * enqueue nothing.
     */
    public long timeAfterBarrier(Shmem shmem, Runnable enqueue) {
        shmem.barrierAllOnStream(stream);
        return time(enqueue);
    }

    /** Largest bytes the copy-engine ceiling moves (enough to reach the link's full rate). */
    private static final long CEILING_BYTES = 64L << 20;
    private long ceilingBytes = -1;
    private double ceiling;

    /**
     * PE 0 only: the copy engine's rate (GB/s, best of three) putting {@code min(buffer, 64 MB)}
     * from its source to its partner's destination: the large-transfer path of the link (or of
     * HBM, when the PEs share a GPU), the ceiling of honest transfer figures. Measured once per
     * buffer size.
     */
    OptionalDouble copyEngineRate(PerfContext ctx) {
        long bytes = Math.min(ctx.bufferBytes(), CEILING_BYTES);
        if (bytes <= 0) {
            return OptionalDouble.empty();
        }
        if (bytes != ceilingBytes) {
            Shmem shmem = ctx.shmem();
            int peer = Math.max(0, ctx.partner());
            double best = 0;
            for (int rep = -1; rep < 3; rep++) {   // rep -1 untimed: first-use costs (mappings, engines) out
                long nanos = time(() -> {
                    for (int i = 0; i < 4; i++) {
                        shmem.putOnStream(ctx.dst(), 0, ctx.src(), 0, bytes, peer, stream);
                    }
                    shmem.quietOnStream(stream);
                });
                best = rep < 0 ? best : Math.max(best, 4.0 * bytes / nanos);
            }
            ceilingBytes = bytes;
            ceiling = best;
        }
        return OptionalDouble.of(ceiling);
    }

    @Override
    public void close() {
        stream.synchronize();
        end.close();
        start.close();
        stream.close();
    }
}
