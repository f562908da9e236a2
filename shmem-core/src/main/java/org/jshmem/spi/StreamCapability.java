package org.jshmem.spi;

import java.lang.foreign.MemorySegment;
import org.jshmem.AtomicOp;
import org.jshmem.Cmp;
import org.jshmem.SignalOp;

/**
 * The optional part of a backend that queues work on device streams (CUDA / HIP streams): what
 * {@link org.jshmem.ShmemStream}, {@link org.jshmem.ShmemEvent}, the {@code ...OnStream}
 * operations of {@link org.jshmem.Shmem} and of {@link org.jshmem.Team} need. A backend without
 * streams returns an empty {@link Backend#streams()}, and those calls throw
 * {@link org.jshmem.ShmemStateException}. Stream and event handles are native handles
 * ({@code cudaStream_t}, {@code cudaEvent_t}); heap offsets are checked by the core, as for
 * {@link Backend}.
 */
public interface StreamCapability {

    /** A new stream on this PE's device. */
    MemorySegment streamCreate();

    void streamDestroy(MemorySegment stream);

    /** Waits until the work queued on {@code stream} has finished. */
    void streamSynchronize(MemorySegment stream);

    /** Makes later work on {@code stream} wait for {@code event}. */
    void streamWaitEvent(MemorySegment stream, MemorySegment event);

    /** A new event; {@code timing}: able to measure elapsed time. */
    MemorySegment eventCreate(boolean timing);

    void eventDestroy(MemorySegment event);

    /** Records {@code event} at this point of {@code stream}. */
    void eventRecord(MemorySegment event, MemorySegment stream);

    /** Waits until the work before {@code event}'s recorded point has finished. */
    void eventSynchronize(MemorySegment event);

    /** Milliseconds between two completed events. */
    float eventElapsedMillis(MemorySegment start, MemorySegment end);

    /**
     * Starts recording {@code stream}: its work from now on goes into a graph instead of running, until
     * {@link #endCapture}. Calls of this thread that cannot be recorded fail meanwhile.
     */
    void beginCapture(MemorySegment stream);

    /** A recorded graph, ready to replay: its native handle and how many operations it holds. */
    record Graph(MemorySegment handle, long operations) {}

    /** Ends the recording begun on {@code stream} and instantiates its graph. */
    Graph endCapture(MemorySegment stream);

    /** Whether {@code stream} is being captured into a graph (by jshmem or anyone else). */
    boolean capturing(MemorySegment stream);

    /** Queues one replay of {@code graph} on {@code stream}. */
    void graphLaunch(MemorySegment graph, MemorySegment stream);

    void graphDestroy(MemorySegment graph);

    /** Queues a copy of {@code bytes} between two heaps (one of them this PE's). */
    void copyOnStream(int dstPe, long dstOffset, int srcPe, long srcOffset, long bytes, MemorySegment stream);

    /**
     * Queues {@code rows} copies of {@code width} bytes between two heaps (one of them this PE's):
     * row i from {@code srcOffset + i * srcPitch} of {@code srcPe}'s heap to {@code dstOffset + i *
     * dstPitch} of {@code dstPe}'s.
     */
    void copy2dOnStream(int dstPe, long dstOffset, long dstPitch, int srcPe, long srcOffset, long srcPitch, long width,
                        long rows, MemorySegment stream);

    /**
     * Checks that all of {@code memory} is device memory of this PE's device, outside the symmetric
     * heap, for {@link org.jshmem.Shmem#registerBuffer}.
     *
     * @throws IllegalArgumentException naming {@code call}, what the memory is and what to pass instead
     */
    void checkExternalBuffer(String call, MemorySegment memory);

    /**
     * Queues a copy of {@code bytes} between {@code external} (device memory of this PE checked by
     * {@link #checkExternalBuffer}) and {@code pe}'s heap at {@code heapOffset}: into the heap when
     * {@code toHeap}, out of it otherwise.
     */
    void copyExternalOnStream(int pe, long heapOffset, MemorySegment external, boolean toHeap, long bytes,
                              MemorySegment stream);

    /** Queues a copy from this PE's heap to {@code pe}'s, then the signal update on {@code pe}. */
    void putSignalOnStream(int pe, long dstOffset, long srcOffset, long bytes, long sigOffset, long signal,
                           SignalOp op, MemorySegment stream);

    /** Makes {@code stream} wait until this PE's signal at {@code sigOffset} satisfies {@code cmp value}. */
    void signalWaitOnStream(long sigOffset, Cmp cmp, long value, MemorySegment stream);

    /** Enqueues a non-fetching atomic ({@code op}: SET, ADD, AND, OR, XOR) of {@code width} (4 or 8) bytes at {@code pe}'s {@code offset}. */
    void atomicOnStream(AtomicOp op, int pe, long offset, int width, long value, MemorySegment stream);

    /** Queues a barrier of the team in slot {@code teamSlot}. */
    void barrierOnStream(int teamSlot, MemorySegment stream);

    /** Queues a synchronisation of the team in slot {@code teamSlot}. */
    void syncOnStream(int teamSlot, MemorySegment stream);

    /** The device address of {@code offset} in {@code pe}'s heap, as this process maps it. */
    MemorySegment address(int pe, long offset);

    /**
     * Whether this backend's barriers, syncs and collectives on a stream run as its own kernels that time
     * themselves for the job's trace when tagged ({@link #tagKernels}); a traced PE times the others with
     * events around them.
     */
    default boolean kernelsTimeTaggedOperations() {
        return false;
    }

    /**
     * Tags the backend's kernels that this thread queues from now on with traced operation {@code op} (0:
     * none): each of their blocks records its span, with the tag, where the backend keeps its kernels'
     * spans ({@link Backend#drainDeviceTrace}). Returns how many kernels were queued under the tag this
     * one replaces (none for a call that queued a plain copy, or that a graph captured).
     */
    default int tagKernels(int op) {
        return 0;
    }

    /**
     * The on-stream collectives. Valid after the core has called {@link Backend#collectives} (at
     * start-up, before any team exists).
     */
    StreamCollectives collectives();
}
