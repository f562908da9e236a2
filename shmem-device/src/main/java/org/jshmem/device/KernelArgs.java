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
    private KernelArgs() {
    }

    /** A symmetric segment plus a byte offset, passed as a device pointer. */
    record Pointer(SymmetricSegment segment, long offset) {
    }

    /** The bytes of a struct (or a CUtensorMap), passed by value. */
    record ByValue(MemorySegment bytes) {
    }

    static MemorySegment pack(Arena arena, Shmem shmem, String kernel, Object[] args) {
        MemorySegment params = arena.allocate(ADDRESS, Math.max(args.length, 1));
        for (int i = 0; i < args.length; i++) {
            params.setAtIndex(ADDRESS, i, value(arena, shmem, kernel, i, args[i]));
        }
        return params;
    }

    private static MemorySegment value(Arena a, Shmem shmem, String kernel, int i, Object arg) {
        return switch (arg) {
            case Integer v -> a.allocateFrom(JAVA_INT, v);
            case Long v -> a.allocateFrom(JAVA_LONG, v);
            case Float v -> a.allocateFrom(JAVA_FLOAT, v);
            case Double v -> a.allocateFrom(JAVA_DOUBLE, v);
            case Short v -> a.allocateFrom(JAVA_SHORT, v);
            case Byte v -> a.allocateFrom(JAVA_BYTE, v);
            case Boolean v -> a.allocateFrom(JAVA_BYTE, (byte) (v ? 1 : 0));
            case SymmetricSegment s -> a.allocateFrom(ADDRESS, shmem.deviceAddress(s, 0));
            case Pointer p -> a.allocateFrom(ADDRESS, shmem.deviceAddress(p.segment(), p.offset()));
            case MemorySegment m -> a.allocateFrom(ADDRESS, m);
            case ByValue v -> a.allocate(v.bytes().byteSize(), 64).copyFrom(v.bytes());
            case null -> throw new IllegalArgumentException("argument " + i + " of kernel " + kernel + " is null");
            default -> throw new IllegalArgumentException("argument " + i + " of kernel " + kernel + " has type "
                    + arg.getClass().getName() + "; pass int, long, float, double, short, byte, boolean,"
                    + " SymmetricSegment, Kernel.pointer(segment, offset), Kernel.byValue(struct) or MemorySegment");
        };
    }
}
