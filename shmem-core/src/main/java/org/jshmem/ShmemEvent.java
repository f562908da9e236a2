package org.jshmem;

import java.lang.foreign.MemorySegment;
import org.jshmem.gpu.Shim;

/** A GPU event: a point in a stream, to wait for or to time between. Made by {@link Shmem#createEvent()}. */
public final class ShmemEvent implements AutoCloseable {
    private final Shmem owner;
    private final MemorySegment handle;
    private boolean closed;

    ShmemEvent(Shmem owner, MemorySegment handle) {
        this.owner = owner;
        this.handle = handle;
    }

    /** Waits until the work before the recorded point has finished. */
    public void synchronize() {
        Shim.eventSynchronize(handle("synchronize"));
    }

    /** Milliseconds between {@code start} (recorded earlier) and this event; both must have completed. */
    public float elapsedMillisSince(ShmemEvent start) {
        Args.nonNull("elapsedMillisSince", "start", start);
        return Shim.eventElapsedMillis(start.handle("elapsedMillisSince"), handle("elapsedMillisSince"));
    }

    MemorySegment handle(String call) {
        if (closed) {
            throw new ShmemStateException(call + ": this event was closed");
        }
        owner.checkOpen(call);
        return handle;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            Shim.eventDestroy(handle);
        }
    }
}
