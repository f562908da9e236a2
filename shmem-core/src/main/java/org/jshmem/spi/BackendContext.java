package org.jshmem.spi;

import java.lang.foreign.MemorySegment;
import org.jshmem.AtomicOp;
import org.jshmem.SignalOp;

/**
 * One ordered channel of data movement between this PE and the heaps of the PEs (this one
 * included): the {@link Backend} itself, or a channel it made for a context
 * ({@link Backend#openContext}). The core has checked every argument (see {@link Backend}).
 *
 * <p>Ordering, as OpenSHMEM 1.5 promises it, per channel: a blocking put returns when its source
 * may be reused (not when it is visible at the target); {@link #fence()} orders the puts, stores
 * and atomics to each PE issued before it before those issued after it; {@link #quiet()} completes
 * (makes visible) every operation of this channel issued before it, and need not wait for other
 * channels. Stores of {@link #store} are release stores, loads of {@link #load} acquire loads;
 * fetching atomics are sequentially consistent.
 */
public interface BackendContext {
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
     * Strided copy between heaps, blocking: element i ({@code elemBytes}) from {@code srcPe}'s heap at
     * {@code srcOffset + i * srcPitch} to {@code dstPe}'s at {@code dstOffset + i * dstPitch}, for
     * {@code i < nelems}; one of the two PEs is this PE.
     */
    default void copyStrided(int dstPe, long dstOffset, long dstPitch, int srcPe, long srcOffset, long srcPitch,
                             long elemBytes, long nelems) {
        for (long i = 0; i < nelems; i++) {
            copy(dstPe, dstOffset + i * dstPitch, srcPe, srcOffset + i * srcPitch, elemBytes, false);
        }
    }

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

    /** Completes every earlier put, get, store and atomic of this channel. */
    void quiet();
}
