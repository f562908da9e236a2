package org.jshmem;

import java.lang.foreign.MemorySegment;
import org.jshmem.spi.StreamCapability;

/**
 * What {@link ShmemStream}, {@link ShmemEvent} and {@link ShmemGraph} share: a native handle of the backend's
 * {@link StreamCapability}, usable while neither it nor its PE is closed, destroyed once.
 */
abstract sealed class GpuHandle implements AutoCloseable permits ShmemStream, ShmemEvent, ShmemGraph {
    final Shmem owner;
    final StreamCapability streams;
    private final MemorySegment handle;
    private final String what;
    private boolean closed;

    GpuHandle(Shmem owner, StreamCapability streams, MemorySegment handle, String what) {
        this.owner = owner;
        this.streams = streams;
        this.handle = handle;
        this.what = what;
    }

    /** The handle, for {@code call}; throws if this handle or its PE was closed. */
    final MemorySegment handle(String call) {
        if (closed) {
            throw new ShmemStateException(call + ": this " + what + " was closed");
        }
        owner.checkOpen(call);
        return handle;
    }

    /** Whether {@link #close()} was called. */
    final boolean isClosed() {
        return closed;
    }

    /** Destroys the native handle. */
    abstract void destroy(MemorySegment h);

    @Override
    public final void close() {
        if (!closed) {
            closed = true;
            destroy(handle);
        }
    }
}
