package org.jshmem;

import java.lang.foreign.MemorySegment;
import org.jshmem.spi.StreamCapability;

/**
 * A recorded sequence of stream work (a CUDA / HIP graph), made by {@link ShmemStream#endCapture()}:
 * one {@link #launch} replays all of it with a single call, the way inference servers run their
 * decode steps. Replays on one stream run one after the other; a graph holding collectives or
 * signals to other PEs must be launched by every PE that took part in the recording, in the same
 * order. Close it when done.
 */
public final class ShmemGraph extends GpuHandle {
    private final long operations;

    ShmemGraph(Shmem owner, StreamCapability streams, MemorySegment handle, long operations) {
        super(owner, streams, handle, "graph");
        this.operations = operations;
    }

    /** Queues one replay of the graph on {@code stream}, after the work queued on it before. */
    public void launch(ShmemStream stream) {
        Args.nonNull("launch", "stream", stream);
        streams.graphLaunch(handle("launch"), stream.handle("launch"));
    }

    /** How many operations (kernels, copies, memory operations, event waits) the graph holds. */
    public long operations() {
        return operations;
    }

    @Override
    void destroy(MemorySegment h) {
        streams.graphDestroy(h);
    }
}
