package org.jshmem.spi;

import java.lang.foreign.MemorySegment;
import java.util.Optional;
import org.jshmem.AtomicOp;
import org.jshmem.SignalOp;

/**
 * The contract between the core ({@link org.jshmem.Shmem}, {@link org.jshmem.Team} and the
 * facets) and a backend: it moves data between this PE and the heaps of the PEs (this one
 * included), runs atomics and signals, builds the collectives of its teams, hears about teams, and
 * may queue work on device streams ({@link #streams()}). A new backend implements this and
 * registers a {@link BackendFactory}; the core never asks which backend it has. The core checks every
 * argument before calling, so a backend may assume PE numbers and offsets are valid, atomics are
 * aligned and lengths fit. Offsets are bytes from the start of a PE's symmetric heap.
 *
 * <p>Ordering, as OpenSHMEM 1.5 promises it: a blocking put returns when its source may be reused
 * (not when it is visible at the target); {@link #fence()} orders the puts, stores and atomics to
 * each PE issued before it before those issued after it; {@link #quiet()} completes (makes visible)
 * every operation issued before it. Stores of {@link #store} are release stores, loads of
 * {@link #load} acquire loads; fetching atomics are sequentially consistent.
 */
public interface Backend extends AutoCloseable {
    /** Short description for messages and benchmark headers. */
    String describe();

    /** Heap bytes per PE that the core may hand out, from offset {@link #heapStart()}. */
    long heapSize();

    /** First offset the core may hand out; the bytes below are the backend's own. */
    long heapStart();

    /** Copies {@code src} (host memory) to {@code pe}'s heap at {@code offset}; returns when src may be reused. */
    void put(int pe, long offset, MemorySegment src);

    /** Like {@link #put} but may return before the copy; {@link #quiet()} completes it. */
    default void putNbi(int pe, long offset, MemorySegment src) {
        put(pe, offset, src);
    }

    /** Copies {@code dst.byteSize()} bytes from {@code pe}'s heap at {@code offset} into {@code dst} (host memory). */
    void get(MemorySegment dst, int pe, long offset);

    /** Like {@link #get} but may return before the copy; {@link #quiet()} completes it. */
    default void getNbi(MemorySegment dst, int pe, long offset) {
        get(dst, pe, offset);
    }

    /**
     * Strided put: {@code nelems} elements of {@code elemBytes}, element i read from {@code src} at
     * byte {@code i * srcPitch} and written to {@code pe}'s heap at {@code offset + i * destPitch}.
     * Returns when {@code src} may be reused, as {@link #put}.
     */
    default void iput(int pe, long offset, long destPitch, MemorySegment src, long srcPitch, long elemBytes,
                      long nelems) {
        for (long i = 0; i < nelems; i++) {
            put(pe, offset + i * destPitch, src.asSlice(i * srcPitch, elemBytes));
        }
    }

    /** Strided get, the mirror of {@link #iput}: element i from {@code offset + i * srcPitch} to {@code dst} at {@code i * dstPitch}. */
    default void iget(MemorySegment dst, long dstPitch, int pe, long offset, long srcPitch, long elemBytes, long nelems) {
        for (long i = 0; i < nelems; i++) {
            get(dst.asSlice(i * dstPitch, elemBytes), pe, offset + i * srcPitch);
        }
    }

    /**
     * Copies {@code bytes} from {@code srcPe}'s heap to {@code dstPe}'s heap; one of the two is
     * this PE. Blocking unless {@code nbi}.
     */
    void copy(int dstPe, long dstOffset, int srcPe, long srcOffset, long bytes, boolean nbi);

    /**
     * Put with signal: copies {@code src} to {@code pe}'s heap at {@code offset}, then updates the
     * 8-byte signal at {@code sigOffset} on {@code pe}; whoever sees the signal sees the data.
     * Blocking unless {@code nbi} (then {@link #quiet()} completes it).
     */
    default void putSignal(int pe, long offset, MemorySegment src, long sigOffset, long signal, SignalOp op, boolean nbi) {
        put(pe, offset, src);
        signal(pe, sigOffset, signal, op);
    }

    /** Like {@link #putSignal} with the data taken from {@code srcPe}'s (this PE's) heap at {@code srcOffset}. */
    default void copySignal(int pe, long offset, int srcPe, long srcOffset, long bytes, long sigOffset, long signal,
                            SignalOp op, boolean nbi) {
        copy(pe, offset, srcPe, srcOffset, bytes, false);
        signal(pe, sigOffset, signal, op);
    }

    /** Updates a signal after earlier puts to {@code pe}: a fence, then a release store or an atomic add. */
    private void signal(int pe, long sigOffset, long signal, SignalOp op) {
        fence();
        if (op == SignalOp.SET) {
            store(pe, sigOffset, 8, signal);
        } else {
            atomicLong(AtomicOp.ADD, pe, sigOffset, signal, 0);
        }
    }

    /** Atomic store of the low {@code width} (1, 2, 4, 8) bytes of {@code bits}, release order. */
    void store(int pe, long offset, int width, long bits);

    /** Atomic load of {@code width} (1, 2, 4, 8) bytes, acquire order, zero-extended. */
    long load(int pe, long offset, int width);

    /** An atomic on a 4-byte int; returns the old value for fetching forms, else anything. */
    int atomicInt(AtomicOp op, int pe, long offset, int value, int comparand);

    /** An atomic on an 8-byte long; returns the old value for fetching forms, else anything. */
    long atomicLong(AtomicOp op, int pe, long offset, long value, long comparand);

    /** Orders earlier puts, stores and atomics to each PE before later ones. */
    void fence();

    /** Completes every earlier put, get, store and atomic of this PE. */
    void quiet();

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

    /** The stream capability (GPU heaps), or empty: then the {@code ...OnStream} operations throw. */
    default Optional<StreamCapability> streams() {
        return Optional.empty();
    }

    /** Releases the heap; no call follows. */
    @Override
    void close();
}
