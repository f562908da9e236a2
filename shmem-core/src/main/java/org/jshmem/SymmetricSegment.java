package org.jshmem;

import java.lang.foreign.MemorySegment;

/**
 * A block of the symmetric heap: the same offset and size on every PE. Returned by
 * {@link Shmem#malloc}, {@link Shmem#calloc} and {@link Shmem#align}; a slice of one by
 * {@link #asSlice}. Operations name a segment, a byte offset in it and a PE; the offset is
 * checked against the segment, so a stray offset is an exception, not a corrupted heap.
 *
 * <p>A segment is a handle, not the memory: {@link #local()} gives this PE's copy as a
 * {@link MemorySegment} when the heap is in host memory.
 */
public final class SymmetricSegment {
    private final Shmem owner;
    private final SymmetricSegment allocation;   // the malloc'd block this is (a slice of)
    private final long heapOffset;
    private final long byteSize;
    private final String origin;
    private boolean freed;                        // only on allocations; set by Shmem.free

    SymmetricSegment(Shmem owner, long heapOffset, long byteSize, String origin) {
        this.owner = owner;
        this.allocation = this;
        this.heapOffset = heapOffset;
        this.byteSize = byteSize;
        this.origin = origin;
    }

    private SymmetricSegment(SymmetricSegment parent, long offset, long size) {
        this.owner = parent.owner;
        this.allocation = parent.allocation;
        this.heapOffset = parent.heapOffset + offset;
        this.byteSize = size;
        this.origin = parent.origin;
    }

    /** Size in bytes. */
    public long byteSize() {
        return byteSize;
    }

    /**
     * Offset of this segment from the start of each PE's heap region (the same on every PE). A
     * backend may keep the first bytes of the region for itself (GPU heaps keep 2 MiB of flags), so
     * the first allocation need not be at 0.
     */
    public long heapOffset() {
        return heapOffset;
    }

    /**
     * The call that allocated this segment's block, e.g. {@code malloc(4096)}, or for a block
     * resized by {@link Shmem#realloc} {@code realloc(heap offset 1024, 8192)}.
     */
    public String origin() {
        return origin;
    }

    /** Whether this is a whole allocation (not a slice), the kind {@link Shmem#free} takes. */
    public boolean isAllocation() {
        return allocation == this;
    }

    /** Whether the block has been freed. */
    public boolean isFreed() {
        return allocation.freed;
    }

    /** The bytes {@code [offset, offset + size)} of this segment, as a segment of their own. */
    public SymmetricSegment asSlice(long offset, long size) {
        checkRange("asSlice", offset, size);
        return new SymmetricSegment(this, offset, size);
    }

    /**
     * This PE's copy of the segment as host memory, to read and write directly.
     *
     * @throws ShmemStateException when the heap is in GPU memory (use get/put, or device code),
     *                             after {@link Shmem#free} or after close
     */
    public MemorySegment local() {
        checkUsable("local");
        MemorySegment heap = owner.backendLocalHeap();
        if (heap == null) {
            throw new ShmemStateException("local(): the symmetric heap is in GPU memory (" + owner.backendName()
                    + "), which Java cannot dereference; use shmem.get(...)/put(...) or a kernel");
        }
        return heap.asSlice(heapOffset - owner.heapStart(), byteSize);
    }

    Shmem owner() {
        return owner;
    }

    SymmetricSegment allocation() {
        return allocation;
    }

    void markFreed() {
        freed = true;
    }

    void checkUsable(String call) {
        if (allocation.freed) {
            throw new ShmemStateException(call + ": " + this + " was freed; allocate a new segment");
        }
        owner.checkOpen(call);
    }

    /** Checks that {@code [offset, offset + length)} lies in this segment; names the call if not. */
    void checkRange(String call, long offset, long length) {
        if (offset < 0 || length < 0 || offset > byteSize - length) {
            throw new HeapBoundsException(call + ": offset " + offset + " + length " + length
                    + " is outside " + this + " (valid: 0 <= offset, offset + length <= " + byteSize + ")");
        }
    }

    @Override
    public String toString() {
        return "symmetric segment [heap offset " + heapOffset + ", " + byteSize + " bytes"
                + (isAllocation() ? "" : ", slice") + " of " + origin + "]";
    }
}
