package org.jshmem.heap;

import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Carves the symmetric heap. Deterministic: the same sequence of calls gives the same offsets on
 * every PE, which is what makes the heap symmetric without any communication. First fit over a
 * free list ordered by offset; freed blocks are merged with free neighbours and reused.
 * Not thread-safe: allocation is a collective call, made by one thread per PE.
 */
public final class SymmetricAllocator {
    /** Every block starts at a multiple of this; suits cache lines, GPU 128-byte transactions and any vector width. */
    public static final long MIN_ALIGNMENT = 256;

    private final long base;
    private final long capacity;
    private final NavigableMap<Long, Long> free = new TreeMap<>();   // offset -> length
    private final Map<Long, Long> live = new TreeMap<>();            // offset -> length (as reserved)
    private long freeBytes;

    /** A heap of {@code capacity} bytes whose usable offsets start at {@code base}. */
    public SymmetricAllocator(long base, long capacity) {
        if (base < 0 || capacity < 0 || base % MIN_ALIGNMENT != 0) {
            throw new IllegalArgumentException("bad heap range: base " + base + ", capacity " + capacity);
        }
        this.base = base;
        this.capacity = capacity;
        if (capacity > 0) {
            free.put(base, capacity);
        }
        this.freeBytes = capacity;
    }

    /** Outcome of a request: the offset, or why it cannot be met. */
    public sealed interface Result permits Allocated, Exhausted {}

    /** The block given out: its offset and the bytes reserved for it (the request rounded up). */
    public record Allocated(long offset, long reserved) implements Result {}

    /** No free block is large enough; what was free at the time. */
    public record Exhausted(long freeBytes, long largestFreeBlock) implements Result {}

    /** Reserves {@code bytes} (rounded up) at a multiple of {@code alignment}, a power of two. */
    public Result allocate(long bytes, long alignment) {
        if (bytes < 0) {
            throw new IllegalArgumentException("negative size " + bytes);
        }
        if (alignment <= 0 || Long.bitCount(alignment) != 1) {
            throw new IllegalArgumentException("alignment must be a power of two, got " + alignment);
        }
        long align = Math.max(alignment, MIN_ALIGNMENT);
        if (bytes > capacity) {   // cannot fit; also keeps the rounding below from overflowing
            return new Exhausted(freeBytes, largestFreeBlock());
        }
        long size = roundUp(Math.max(bytes, 1), MIN_ALIGNMENT);
        for (Map.Entry<Long, Long> block : free.entrySet()) {
            long start = block.getKey();
            long length = block.getValue();
            long aligned = roundUp(start, align);
            long pad = aligned - start;
            if (pad + size <= length) {
                free.remove(start);
                if (pad > 0) {
                    free.put(start, pad);
                }
                long tail = length - pad - size;
                if (tail > 0) {
                    free.put(aligned + size, tail);
                }
                live.put(aligned, size);
                freeBytes -= size;
                return new Allocated(aligned, size);
            }
        }
        return new Exhausted(freeBytes, largestFreeBlock());
    }

    /** Returns a block to the heap; false if {@code offset} is not the start of a live block. */
    public boolean release(long offset) {
        Long size = live.remove(offset);
        if (size == null) {
            return false;
        }
        freeBytes += size;
        long start = offset;
        long length = size;
        Map.Entry<Long, Long> before = free.floorEntry(offset);
        if (before != null && before.getKey() + before.getValue() == offset) {
            start = before.getKey();
            length += before.getValue();
            free.remove(before.getKey());
        }
        Long after = free.remove(offset + size);
        if (after != null) {
            length += after;
        }
        free.put(start, length);
        return true;
    }

    /**
     * Resizes the live block at {@code offset} to {@code bytes} (rounded up) where it is: shrinking
     * gives the tail back, growing takes the free block right after it. False, and nothing changed,
     * when it cannot grow in place.
     */
    public boolean resizeInPlace(long offset, long bytes) {
        Long length = live.get(offset);
        if (length == null || bytes < 0 || bytes > capacity) {
            return false;
        }
        long size = roundUp(Math.max(bytes, 1), MIN_ALIGNMENT);
        if (size == length) {
            return true;
        }
        Long next = free.get(offset + length);
        long room = length + (next == null ? 0 : next);
        if (size > room) {
            return false;
        }
        if (next != null) {
            free.remove(offset + length);
        }
        if (room > size) {
            free.put(offset + size, room - size);
        }
        live.put(offset, size);
        freeBytes += length - size;
        return true;
    }

    /** Whether {@code offset} starts a live block. */
    public boolean isLive(long offset) {
        return live.containsKey(offset);
    }

    /** Bytes free in total. */
    public long freeBytes() {
        return freeBytes;
    }

    /** The largest single free block. */
    public long largestFreeBlock() {
        long max = 0;
        for (long length : free.values()) {
            max = Math.max(max, length);
        }
        return max;
    }

    /** Heap bytes managed. */
    public long capacity() {
        return capacity;
    }

    /** First usable offset. */
    public long base() {
        return base;
    }

    /** Number of live blocks. */
    public int liveCount() {
        return live.size();
    }

    private static long roundUp(long value, long multiple) {
        return (value + multiple - 1) & -multiple;
    }
}
