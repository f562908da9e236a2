package org.jshmem.device;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** The kernel parameter buffer: a table of pointers, each to its value's bytes in the C type the Java type names. */
class KernelArgsTest {
    private static MemorySegment value(MemorySegment table, int i, long bytes) {
        return table.getAtIndex(ADDRESS, i).reinterpret(bytes);
    }

    @Test
    void everyScalarTypeAndAStructLandWhereTheTablePoints() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment struct = arena.allocate(128);
            for (int b = 0; b < 128; b++) {
                struct.set(JAVA_BYTE, b, (byte) (b * 7 + 1));
            }
            MemorySegment raw = MemorySegment.ofAddress(0x1234_5678_9abcL);
            Object[] args = {7, -3L, 1.5f, 2.25, (short) -9, (byte) 5, true, raw, Kernel.byValue(struct), 42};
            MemorySegment table = KernelArgs.pack(arena, null, "k", args);
            assertEquals(args.length * ADDRESS.byteSize(), table.byteSize());
            assertEquals(7, value(table, 0, 4).get(JAVA_INT, 0));
            assertEquals(-3L, value(table, 1, 8).get(JAVA_LONG, 0));
            assertEquals(1.5f, value(table, 2, 4).get(JAVA_FLOAT, 0));
            assertEquals(2.25, value(table, 3, 8).get(JAVA_DOUBLE, 0));
            assertEquals((short) -9, value(table, 4, 2).get(JAVA_SHORT, 0));
            assertEquals((byte) 5, value(table, 5, 1).get(JAVA_BYTE, 0));
            assertEquals((byte) 1, value(table, 6, 1).get(JAVA_BYTE, 0));
            assertEquals(raw.address(), value(table, 7, 8).get(ADDRESS, 0).address());
            MemorySegment copied = value(table, 8, 128);
            assertEquals(0, copied.address() % 64, "a struct (a CUtensorMap) is 64-byte aligned");
            assertEquals(-1, copied.mismatch(struct));
            assertEquals(42, value(table, 9, 4).get(JAVA_INT, 0));
            long first = table.getAtIndex(ADDRESS, 0).address();
            for (int i = 1; i < args.length; i++) {
                long at = table.getAtIndex(ADDRESS, i).address();
                assertTrue(at >= table.address() + table.byteSize() && at > first, "value " + i + " after the table");
            }
        }
    }

    @Test
    void aScalarAfterAStructOfOddSizeIsAligned() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment struct = arena.allocate(12).fill((byte) 3);
            MemorySegment table = KernelArgs.pack(arena, null, "k", new Object[] {Kernel.byValue(struct), -5L, 2.5});
            MemorySegment l = table.getAtIndex(ADDRESS, 1);
            assertEquals(0, l.address() % Long.BYTES, "the long after a 12-byte struct");
            assertEquals(-5L, l.reinterpret(8).get(JAVA_LONG, 0));
            assertEquals(2.5, value(table, 2, 8).get(JAVA_DOUBLE, 0));
            assertEquals(-1, value(table, 0, 12).mismatch(struct));
        }
    }

    @Test
    void aNullOrUnknownArgumentIsNamedWithItsPosition() {
        try (Arena arena = Arena.ofConfined()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> KernelArgs.pack(arena, null, "saxpy", new Object[] {1, null}));
            assertEquals("argument 1 of kernel saxpy is null", e.getMessage());
            e = assertThrows(IllegalArgumentException.class,
                    () -> KernelArgs.pack(arena, null, "saxpy", new Object[] {"x"}));
            assertTrue(e.getMessage().startsWith("argument 0 of kernel saxpy has type java.lang.String; pass int"),
                    e.getMessage());
        }
    }

    @Test
    void aThreadsLaunchesReuseOneBufferThatGrowsForALargeStruct() {
        MemorySegment first = KernelArgs.pack(KernelArgs.threadBuffer(), null, "k", new Object[] {1, 2L});
        MemorySegment second = KernelArgs.pack(KernelArgs.threadBuffer(), null, "k", new Object[] {3, 4L});
        assertEquals(first.address(), second.address(), "the second launch's table is where the first one's was");
        assertEquals(3, value(second, 0, 4).get(JAVA_INT, 0));
        assertEquals(4L, value(second, 1, 8).get(JAVA_LONG, 0));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment big = arena.allocate(3000);
            for (int b = 0; b < 3000; b++) {
                big.set(JAVA_BYTE, b, (byte) b);
            }
            MemorySegment table = KernelArgs.pack(KernelArgs.threadBuffer(), null, "k",
                    new Object[] {Kernel.byValue(big), 9L});
            assertEquals(-1, value(table, 0, 3000).mismatch(big), "the 3000-byte struct, above the first block's size");
            assertEquals(9L, value(table, 1, 8).get(JAVA_LONG, 0));
        }
    }

    @Test
    void noArgumentsStillGiveATable() {
        try (Arena arena = Arena.ofConfined()) {
            assertEquals(ADDRESS.byteSize(), KernelArgs.pack(arena, null, "k", new Object[0]).byteSize());
        }
    }
}
