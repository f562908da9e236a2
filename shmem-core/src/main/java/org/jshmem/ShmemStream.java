package org.jshmem;

import java.lang.foreign.MemorySegment;
import org.jshmem.gpu.Shim;

/**
 * A GPU stream (CUDA stream / HIP stream) for the {@code ...OnStream} operations, which run in
 * its order, after the work queued on it before. Made by {@link Shmem#createStream()}; only on
 * GPU heaps. Close it when done.
 */
public final class ShmemStream implements AutoCloseable {
    private final Shmem owner;
    private final MemorySegment handle;
    private boolean closed;

    ShmemStream(Shmem owner, MemorySegment handle) {
        this.owner = owner;
        this.handle = handle;
    }

    /** Waits until everything queued on this stream has finished. */
    public void synchronize() {
        Shim.streamSynchronize(handle("synchronize"));
    }

    /** Records {@code event} at this point of the stream. */
    public void record(ShmemEvent event) {
        Args.nonNull("record", "event", event);
        Shim.eventRecord(event.handle("record"), handle("record"));
    }

    /** Makes work queued on this stream after this call wait for {@code event}. */
    public void waitFor(ShmemEvent event) {
        Args.nonNull("waitFor", "event", event);
        Shim.streamWaitEvent(handle("waitFor"), event.handle("waitFor"));
    }

    /** The native stream ({@code cudaStream_t} / {@code hipStream_t}), e.g. to launch kernels on it. */
    public MemorySegment handle() {
        return handle("handle");
    }

    MemorySegment handle(String call) {
        if (closed) {
            throw new ShmemStateException(call + ": this stream was closed");
        }
        owner.checkOpen(call);
        return handle;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            Shim.streamDestroy(handle);
        }
    }
}
