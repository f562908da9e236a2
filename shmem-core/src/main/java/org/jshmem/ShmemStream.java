package org.jshmem;

import java.lang.foreign.MemorySegment;
import org.jshmem.spi.StreamCapability;

/**
 * A GPU stream (CUDA stream / HIP stream) for the {@code ...OnStream} operations, which run in
 * its order, after the work queued on it before. Made by {@link Shmem#createStream()}; only on
 * GPU heaps. Close it when done.
 */
public final class ShmemStream extends GpuHandle {

    ShmemStream(Shmem owner, StreamCapability streams, MemorySegment handle) {
        super(owner, streams, handle, "stream");
    }

    /** Waits until everything queued on this stream has finished. */
    public void synchronize() {
        streams.streamSynchronize(handle("synchronize"));
    }

    /** Records {@code event} at this point of the stream. */
    public void record(ShmemEvent event) {
        Args.nonNull("record", "event", event);
        streams.eventRecord(event.handle("record"), handle("record"));
    }

    /** Makes work queued on this stream after this call wait for {@code event}. */
    public void waitFor(ShmemEvent event) {
        Args.nonNull("waitFor", "event", event);
        streams.streamWaitEvent(handle("waitFor"), event.handle("waitFor"));
    }

    /** The native stream ({@code cudaStream_t} / {@code hipStream_t}), e.g. to launch kernels on it. */
    public MemorySegment handle() {
        return handle("handle");
    }

    @Override
    void destroy(MemorySegment h) {
        streams.streamDestroy(h);
    }
}
