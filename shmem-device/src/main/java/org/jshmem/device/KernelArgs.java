package org.jshmem.device;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import org.jshmem.Shmem;
import org.jshmem.SymmetricSegment;

/**
 * Turns Java launch arguments into the kernel's parameter buffer (an array of pointers to the
 * values). The Java type fixes the C type, so pass exactly what the kernel declares:
 * {@code int} for {@code int}, {@code long} for {@code long long}/{@code int64_t}/{@code size_t},
 * {@code float}, {@code double}, {@code short}, {@code byte} or {@code boolean} for one byte; a
 * {@link SymmetricSegment} becomes this PE's device address of it, {@link Pointer} a device
 * address with an offset, a {@link MemorySegment} its raw address (device or pinned memory), and
 * {@link Kernel#byValue} a struct's bytes.
 */
final class KernelArgs {
    /** A struct's alignment in the buffer (a CUtensorMap needs 64). */
    private static final long STRUCT_ALIGNMENT = 64;

    /**
     * Each launching thread's parameter buffer, used again by its next launch: the driver copies the
     * parameters when it queues the launch, so a launch allocates no native memory.
     */
    private static final ThreadLocal<ReusedBuffer> BUFFER = ThreadLocal.withInitial(ReusedBuffer::new);

    private KernelArgs() {
    }

    /** This thread's reused parameter buffer: what {@link #pack} puts in it lasts until the thread's next pack. */
    static SegmentAllocator threadBuffer() {
        return BUFFER.get();
    }

    /** One block that grows to the largest parameter buffer asked of it; the garbage collector frees it. */
    private static final class ReusedBuffer implements SegmentAllocator {
        private static final long FIRST_BYTES = 1024;
        private MemorySegment block = MemorySegment.NULL;

        @Override
        public MemorySegment allocate(long byteSize, long byteAlignment) {
            if (byteAlignment > STRUCT_ALIGNMENT) {
                throw new IllegalArgumentException("alignment " + byteAlignment + " above " + STRUCT_ALIGNMENT);
            }
            if (block.byteSize() < byteSize) {
                block = Arena.ofAuto().allocate(Math.max(byteSize, FIRST_BYTES), STRUCT_ALIGNMENT);
            }
            return block.asSlice(0, byteSize);
        }
    }

    /** A symmetric segment plus a byte offset, passed as a device pointer. */
    record Pointer(SymmetricSegment segment, long offset) {
    }

    /** The bytes of a struct (or a CUtensorMap), passed by value. */
    record ByValue(MemorySegment bytes) {
    }

    /**
     * The parameter buffer in one allocation from {@code allocator}: the table of pointers, then each
     * value (a scalar in 8 bytes, a struct in its own size; see {@link #placed}). Every argument's type
     * is checked before anything is written.
     */
    static MemorySegment pack(SegmentAllocator allocator, Shmem shmem, String kernel, Object[] args) {
        long table = ADDRESS.byteSize() * Math.max(args.length, 1);
        long size = table;
        for (int i = 0; i < args.length; i++) {
            size = placed(size, kernel, i, args[i]) + bytes(args[i]);
        }
        MemorySegment block = allocator.allocate(size, STRUCT_ALIGNMENT);
        long at = table;
        for (int i = 0; i < args.length; i++) {
            at = placed(at, kernel, i, args[i]);
            MemorySegment slot = block.asSlice(at, bytes(args[i]));
            write(slot, shmem, args[i]);
            block.setAtIndex(ADDRESS, i, slot);
            at += slot.byteSize();
        }
        return block.asSlice(0, table);
    }

    /**
     * Where argument i goes at or after {@code at}: a scalar at a multiple of 8 (also after a struct of any
     * size), a struct at a multiple of 64. Checks the argument's type first.
     */
    private static long placed(long at, String kernel, int i, Object arg) {
        return switch (arg) {
            case Integer _, Long _, Float _, Double _, Short _, Byte _, Boolean _, SymmetricSegment _, Pointer _,
                 MemorySegment _ -> (at + Long.BYTES - 1) & -Long.BYTES;
            case ByValue _ -> (at + STRUCT_ALIGNMENT - 1) & -STRUCT_ALIGNMENT;
            case null -> throw new IllegalArgumentException("argument " + i + " of kernel " + kernel + " is null");
            default -> throw new IllegalArgumentException("argument " + i + " of kernel " + kernel + " has type "
                    + arg.getClass().getName() + "; pass int, long, float, double, short, byte, boolean,"
                    + " SymmetricSegment, Kernel.pointer(segment, offset), Kernel.byValue(struct) or MemorySegment");
        };
    }

    private static long bytes(Object arg) {
        return arg instanceof ByValue v ? v.bytes().byteSize() : Long.BYTES;
    }

    private static void write(MemorySegment slot, Shmem shmem, Object arg) {
        switch (arg) {
            case Integer v -> slot.set(JAVA_INT, 0, v);
            case Long v -> slot.set(JAVA_LONG, 0, v);
            case Float v -> slot.set(JAVA_FLOAT, 0, v);
            case Double v -> slot.set(JAVA_DOUBLE, 0, v);
            case Short v -> slot.set(JAVA_SHORT, 0, v);
            case Byte v -> slot.set(JAVA_BYTE, 0, v);
            case Boolean v -> slot.set(JAVA_BYTE, 0, (byte) (v ? 1 : 0));
            case SymmetricSegment seg -> slot.set(ADDRESS, 0, shmem.deviceAddress(seg, 0));
            case Pointer ptr -> slot.set(ADDRESS, 0, shmem.deviceAddress(ptr.segment(), ptr.offset()));
            case MemorySegment m -> slot.set(ADDRESS, 0, m);
            case ByValue v -> slot.copyFrom(v.bytes());
            default -> throw new AssertionError(arg);   // placed() checked the type
        }
    }
}
