package org.jshmem.perf;

import java.util.Optional;
import org.jshmem.Shmem;
import org.jshmem.ShmemEvent;
import org.jshmem.ShmemStateException;
import org.jshmem.ShmemStream;
import org.jshmem.gpu.GpuBackend;

/**
 * A stream of this PE's GPU and two events around the work a GPU form enqueues on it, as the
 * NVSHMEM anchor times: record the start event, enqueue, record the end event, wait for it; the
 * figure is the GPU time between the two events (host work before the start event is not in it).
 */
final class GpuClock implements AutoCloseable {
    private final ShmemStream stream;
    private final ShmemEvent start;
    private final ShmemEvent end;

    GpuClock(Shmem shmem) {
        stream = shmem.createStream();
        start = shmem.createEvent();
        end = shmem.createEvent();
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

    ShmemStream stream() {
        return stream;
    }

    /**
     * Records the start event, runs {@code enqueue} (which queues work on {@link #stream()}),
     * records the end event and waits for it. Returns the nanoseconds between the two events.
     */
    long time(Runnable enqueue) {
        stream.record(start);
        enqueue.run();
        stream.record(end);
        end.synchronize();
        return Math.round(end.elapsedMillisSince(start) * 1e6);
    }

    @Override
    public void close() {
        stream.synchronize();
        end.close();
        start.close();
        stream.close();
    }
}
