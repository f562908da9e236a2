package org.jshmem;

import java.lang.foreign.MemorySegment;
import org.jshmem.spi.StreamCapability;

/** A GPU event: a point in a stream, to wait for or to time between. Made by {@link Shmem#createEvent()}. */
public final class ShmemEvent extends GpuHandle {

    ShmemEvent(Shmem owner, StreamCapability streams, MemorySegment handle) {
        super(owner, streams, handle, "event");
    }

    /** Waits until the work before the recorded point has finished. */
    public void synchronize() {
        streams.eventSynchronize(handle("synchronize"));
    }

    /** Milliseconds between {@code start} (recorded earlier) and this event; both must have completed. */
    public float elapsedMillisSince(ShmemEvent start) {
        Args.nonNull("elapsedMillisSince", "start", start);
        return streams.eventElapsedMillis(start.handle("elapsedMillisSince"), handle("elapsedMillisSince"));
    }

    @Override
    void destroy(MemorySegment h) {
        streams.eventDestroy(h);
    }
}
