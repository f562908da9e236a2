package org.jshmem;

import java.lang.foreign.MemorySegment;
import org.jshmem.spi.StreamCapability;

/**
 * A GPU stream (CUDA stream / HIP stream) for the {@code ...OnStream} operations, which run in
 * its order, after the work queued on it before. Made by {@link Shmem#createStream()}; only on
 * GPU heaps. Close it when done.
 */
public final class ShmemStream extends GpuHandle {
    private boolean capturing;

    ShmemStream(Shmem owner, StreamCapability streams, MemorySegment handle) {
        super(owner, streams, handle, "stream");
    }

    /** Waits until everything queued on this stream has finished. */
    public void synchronize() {
        MemorySegment h = handle("synchronize");
        if (capturing) {
            throw new ShmemStateException("synchronize: this stream is being captured into a graph, so nothing on it"
                    + " runs until the graph is launched; call endCapture() first");
        }
        streams.streamSynchronize(h);
    }

    /**
     * Starts recording this stream into a graph (CUDA / HIP stream capture): the work queued on it from
     * now on, jshmem's on-stream operations, collectives and fused GEMMs included, is recorded instead of
     * run, until {@link #endCapture()}, which returns the graph to replay. Call both on the same thread.
     * Meanwhile that thread's calls that cannot be recorded fail with a message that says so: blocking
     * jshmem calls (they wait on the GPU), {@link #synchronize()}, and on-stream operations with PEs of
     * other nodes (they run on the host). The recorded operations keep their arguments: a replay
     * repeats the same puts with the same signal values, so wait for a signal and reset it inside the
     * graph ({@link Shmem#signalOpOnStream} with {@code SET 0}) where every replay needs a fresh one.
     *
     * @throws ShmemStateException if this stream is already being captured
     */
    public void beginCapture() {
        MemorySegment h = handle("beginCapture");
        if (capturing) {
            throw new ShmemStateException("beginCapture: this stream is already being captured; call endCapture() first");
        }
        streams.beginCapture(h);
        capturing = true;
    }

    /**
     * Ends the recording begun by {@link #beginCapture()} and returns it as a graph, ready to
     * {@linkplain ShmemGraph#launch launch} on any stream of this PE.
     *
     * @throws ShmemStateException if this stream is not being captured
     * @throws GpuException if a call during the capture broke it (the message names why)
     */
    public ShmemGraph endCapture() {
        MemorySegment h = handle("endCapture");
        if (!capturing) {
            throw new ShmemStateException("endCapture: this stream is not being captured; call beginCapture() first");
        }
        capturing = false;
        StreamCapability.Graph g = streams.endCapture(h);
        return new ShmemGraph(owner, streams, g.handle(), g.operations());
    }

    /** Whether this stream is being captured ({@link #beginCapture()} and no {@link #endCapture()} yet). */
    public boolean isCapturing() {
        return capturing;
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
