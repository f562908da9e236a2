package org.jshmem.remote;

import java.lang.foreign.MemorySegment;
import org.jshmem.AtomicOp;

/**
 * Memory that the two-sided transport's server applies requests to on behalf of other nodes'
 * PEs: its node's shared-memory file, or a heap the host cannot load from directly (a GPU heap,
 * {@link RemoteTransport#serveDeviceHeap}). Offsets are bytes from the memory's start. Every call is
 * complete when it returns, and calls are made one at a time, in the order the requests came.
 */
public interface TargetMemory {
    /** Copies {@code src} (host memory) to {@code at}. */
    void write(long at, MemorySegment src);

    /** Copies from {@code at} into {@code dst} (host memory). */
    void read(long at, MemorySegment dst);

    /** Copies {@code packed}'s elements of {@code elemBytes} to {@code at}, {@code at + pitch}, ... */
    default void writeStrided(long at, long pitch, MemorySegment packed, long elemBytes) {
        for (long i = 0, n = packed.byteSize() / elemBytes; i < n; i++) {
            write(at + i * pitch, packed.asSlice(i * elemBytes, elemBytes));
        }
    }

    /** Copies the elements of {@code elemBytes} at {@code at}, {@code at + pitch}, ... into {@code packed}, back to back. */
    default void readStrided(long at, long pitch, MemorySegment packed, long elemBytes) {
        for (long i = 0, n = packed.byteSize() / elemBytes; i < n; i++) {
            read(at + i * pitch, packed.asSlice(i * elemBytes, elemBytes));
        }
    }

    /** An atomic on the integer of {@code width} (4 or 8) bytes at {@code at}: the old value (sign-extended; 0 for SET). */
    long atomic(AtomicOp op, int width, long at, long value, long comparand);

    /** Stores the low {@code width} (1, 2, 4, 8) bytes of {@code bits} at {@code at}. */
    void store(long at, int width, long bits);

    /** Loads {@code width} (1, 2, 4, 8) bytes at {@code at}, zero-extended. */
    long load(long at, int width);

    /**
     * Readies {@code buffer}, page-aligned host memory through which the server will pass this
     * memory's data, until {@link #releaseBuffer}: a GPU heap page-locks it, so that its copy engines
     * reach it directly (from pageable memory the driver stages every copy itself, synchronously).
     */
    default void adoptBuffer(MemorySegment buffer) {
    }

    /** Undoes {@link #adoptBuffer}; the server passes no more data through {@code buffer} for this memory. */
    default void releaseBuffer(MemorySegment buffer) {
    }
}
