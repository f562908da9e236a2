package org.jshmem.it;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jshmem.Shmem;
import org.jshmem.SymmetricSegment;
import org.jshmem.spi.Backend;

/**
 * Reads and writes this PE's copy of a symmetric segment through the public API, so that the PE
 * programs run on any backend: {@link SymmetricSegment#local()} throws on a GPU heap, which Java
 * cannot dereference. A read is a {@code get} from this PE into host memory; a write is a
 * {@code put} to this PE followed by {@code quiet()}, so that the data is in the heap (as a store
 * through {@code local()} was) before whatever comes next, e.g. a barrier or a collective. On a GPU
 * heap each call is a host-device copy of a few microseconds: read or write a whole range at once,
 * never element by element.
 */
public final class LocalCopy {
    private LocalCopy() {
    }

    /** A fresh, zeroed host buffer of {@code bytes}, aligned for any Java value (freed by the GC). */
    public static MemorySegment buffer(long bytes) {
        return Arena.ofAuto().allocate(bytes, 16);
    }

    /** Copies this PE's bytes {@code [offset, offset + dst.byteSize())} of {@code seg} into {@code dst}. */
    public static MemorySegment read(Shmem s, SymmetricSegment seg, long offset, MemorySegment dst) {
        if (dst.byteSize() > 0) {
            s.get(dst, seg, offset, s.myPe());
        }
        return dst;
    }

    /** This PE's bytes {@code [offset, offset + bytes)} of {@code seg}, in a fresh host buffer. */
    public static MemorySegment read(Shmem s, SymmetricSegment seg, long offset, long bytes) {
        return read(s, seg, offset, buffer(bytes));
    }

    /** This PE's copy of the whole of {@code seg}, in a fresh host buffer. */
    public static MemorySegment read(Shmem s, SymmetricSegment seg) {
        return read(s, seg, 0, seg.byteSize());
    }

    public static long readLong(Shmem s, SymmetricSegment seg, long offset) {
        return read(s, seg, offset, 8).get(ValueLayout.JAVA_LONG, 0);
    }

    public static int readInt(Shmem s, SymmetricSegment seg, long offset) {
        return read(s, seg, offset, 4).get(ValueLayout.JAVA_INT, 0);
    }

    /** Writes {@code src} to this PE's {@code seg} at {@code offset}; it is in the heap on return. */
    public static void write(Shmem s, SymmetricSegment seg, long offset, MemorySegment src) {
        if (src.byteSize() > 0) {
            s.put(seg, offset, src, s.myPe());
        }
        s.quiet();
    }

    public static void writeLong(Shmem s, SymmetricSegment seg, long offset, long value) {
        write(s, seg, offset, MemorySegment.ofArray(new long[] {value}));
    }

    /** Sets this PE's bytes {@code [offset, offset + bytes)} of {@code seg} to {@code value}. */
    public static void fill(Shmem s, SymmetricSegment seg, long offset, long bytes, byte value) {
        write(s, seg, offset, buffer(bytes).fill(value));
    }

    /** Sets every byte of this PE's {@code seg} to {@code value}. */
    public static void fill(Shmem s, SymmetricSegment seg, byte value) {
        fill(s, seg, 0, seg.byteSize(), value);
    }

    /** Copies this PE's {@code bytes} of {@code from} at {@code fromOffset} to its {@code to} at {@code toOffset}. */
    public static void copy(Shmem s, SymmetricSegment from, long fromOffset, SymmetricSegment to, long toOffset, long bytes) {
        if (bytes > 0) {
            s.put(to, toOffset, from, fromOffset, bytes, s.myPe());
        }
        s.quiet();
    }

    /**
     * The heap offset of the first byte the allocator hands out: 0 on the host heap, more on a GPU
     * heap, whose first bytes hold the backend's own state. {@link SymmetricSegment#heapOffset()}
     * counts from the start of the backend's heap, so offsets that a test expects on a fresh heap
     * are relative to this.
     */
    public static long heapStart(Shmem s) {
        return s.unwrap(Backend.class).heapStart();
    }
}
