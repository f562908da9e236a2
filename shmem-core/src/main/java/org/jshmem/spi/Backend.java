package org.jshmem.spi;

import java.lang.foreign.MemorySegment;
import java.util.Optional;

/**
 * The contract between the core ({@link org.jshmem.Shmem}, {@link org.jshmem.Team} and the
 * facets) and a backend: it moves data between this PE and the heaps of the PEs (this one
 * included), runs atomics and signals, builds the collectives of its teams, hears about teams, and
 * may queue work on device streams ({@link #streams()}). A new backend implements this and
 * registers a {@link BackendFactory}; the core never asks which backend it has. The core checks every
 * argument before calling, so a backend may assume PE numbers and offsets are valid, atomics are
 * aligned and lengths fit. Offsets are bytes from the start of a PE's symmetric heap.
 *
 * <p>The data movement and ordering calls are those of {@link BackendContext}: the backend is its
 * own default channel, and {@link #openContext} may make more.
 */
public interface Backend extends BackendContext, AutoCloseable {
    /** Short description for messages and benchmark headers. */
    String describe();

    /** Heap bytes per PE that the core may hand out, from offset {@link #heapStart()}. */
    long heapSize();

    /** First offset the core may hand out; the bytes below are the backend's own. */
    long heapStart();

    /**
     * The alignment of the address of heap offset 0 that this backend gives this heap on every PE:
     * a power of two, at least 2 MiB. {@link org.jshmem.Shmem#align} meets alignments up to it,
     * where the heap has room, and no larger ones.
     */
    default long heapAlignment() {
        return 2L << 20;
    }

    /** The largest {@link #heapAlignment()} this backend gives a heap of any size. */
    default long maxHeapAlignment() {
        return heapAlignment();
    }

    /**
     * A channel of its own for a {@link org.jshmem.ShmemContext}: its puts, gets and atomics are
     * ordered and completed by its own {@link BackendContext#fence()} and {@link BackendContext#quiet()},
     * independently of this backend's other channels. A backend whose operations complete before
     * returning (host memory) may hand out itself, which is what this default does.
     *
     * @param serialized the caller promises no two threads use the channel at once, so it needs no lock
     */
    default BackendContext openContext(boolean serialized) {
        return this;
    }

    /** The context's channel made by {@link #openContext} will not be used again: its work is complete. */
    default void closeContext(BackendContext channel) {
    }

    /**
     * This PE's heap as host memory that Java may read and write directly, or {@code null} when
     * the heap is not host-accessible (GPU memory).
     */
    MemorySegment localHeap();

    /** Zeroes {@code bytes} of this PE's heap from {@code offset} (for calloc). */
    default void clearLocal(long offset, long bytes) {
        localHeap().asSlice(offset - heapStart(), bytes).fill((byte) 0);
    }

    /**
     * PE {@code pe}'s heap as host memory this PE may read and write directly (byte 0 is heap
     * offset {@link #heapStart()}, as for {@link #localHeap()}), or {@code null} when peers' heaps
     * are not host-accessible (GPU memory). Collectives use it to read peers' data in place.
     */
    default MemorySegment peerHeap(int pe) {
        return null;
    }

    // ---------------------------------------------------------------- collectives and teams

    /**
     * The collectives of this backend's teams, built once by the core at start-up (before any team
     * exists), e.g. direct reads of peers' heaps, kernels, or {@code org.jshmem.collectives.CopyCollectives}
     * over this backend's copies. A backend with {@link #streams()} also readies its
     * {@link StreamCapability#collectives()} here.
     */
    Collectives collectives(CollectiveContext context);

    /**
     * A new team holds {@code team.slot()} on this PE. Every member calls this before the host
     * barrier that ends the split, so per-slot state a backend keeps (e.g. device barrier cells)
     * starts from zero everywhere.
     */
    default void teamCreated(TeamLayout team) {
    }

    /** A team of this PE is being destroyed: work this backend still has queued for it must finish first. */
    default void teamClosing() {
    }

    /** Team slot {@code slot} is free again on this PE. */
    default void teamReleased(int slot) {
    }

    /**
     * Bytes of the memory this backend's heap comes from (a GPU's memory), or 0 for the machine's
     * physical memory: bounds the heap sizes worth suggesting in an error.
     */
    default long memoryBytes() {
        return 0;
    }

    /**
     * Hands over the spans this PE's kernels recorded for the job's trace ({@code JSHMEM_TRACE}) and
     * forgets them. Backends without kernels have none.
     */
    default void drainDeviceTrace(DeviceSpans into) {
    }

    /** The stream capability (GPU heaps), or empty: then the {@code ...OnStream} operations throw. */
    default Optional<StreamCapability> streams() {
        return Optional.empty();
    }

    /** Releases the heap; no call follows. */
    @Override
    void close();
}
