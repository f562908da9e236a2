package org.jshmem.heap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SymmetricAllocatorTest {
    private static final long MB = 1L << 20;

    private static long alloc(SymmetricAllocator a, long bytes, long alignment) {
        SymmetricAllocator.Result r = a.allocate(bytes, alignment);
        return assertInstanceOf(SymmetricAllocator.Allocated.class, r, "allocate(" + bytes + ", " + alignment + ")").offset();
    }

    private static long alloc(SymmetricAllocator a, long bytes) {
        return alloc(a, bytes, SymmetricAllocator.MIN_ALIGNMENT);
    }

    @Test
    void firstFitOffsetsOfAKnownSequence() {
        SymmetricAllocator a = new SymmetricAllocator(0, MB);
        assertEquals(0, alloc(a, 1000));            // reserves 1024
        assertEquals(1024, alloc(a, 80));           // reserves 256
        assertEquals(4096, alloc(a, 100, 4096));    // 1280..4096 stays free
        assertEquals(1280, alloc(a, 100));          // first fit: the gap before the aligned block
        assertEquals(1536, alloc(a, 0));            // zero bytes still get a distinct block
        assertEquals(5, a.liveCount());
        assertEquals(MB - 1024 - 256 - 256 - 256 - 256, a.freeBytes());
    }

    @Test
    void sameCallsGiveSameOffsets() {
        List<Long> first = randomSequence(new SymmetricAllocator(4096, 64 * MB), 42);
        List<Long> second = randomSequence(new SymmetricAllocator(4096, 64 * MB), 42);
        assertEquals(first, second);
        assertTrue(first.size() > 100, "the sequence allocated " + first.size());
    }

    /** Random mallocs, aligned mallocs and frees from a seed; returns every offset handed out. */
    private static List<Long> randomSequence(SymmetricAllocator a, long seed) {
        Random rnd = new Random(seed);
        List<Long> live = new ArrayList<>();
        List<Long> offsets = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            if (!live.isEmpty() && rnd.nextInt(3) == 0) {
                assertTrue(a.release(live.remove(rnd.nextInt(live.size()))));
            } else {
                long align = 1L << rnd.nextInt(14);
                SymmetricAllocator.Result r = a.allocate(rnd.nextInt(100_000), align);
                if (r instanceof SymmetricAllocator.Allocated x) {
                    assertEquals(0, x.offset() % Math.max(align, SymmetricAllocator.MIN_ALIGNMENT));
                    live.add(x.offset());
                    offsets.add(x.offset());
                }
            }
        }
        return offsets;
    }

    @Test
    void blocksAreAlignedAndDoNotOverlap() {
        SymmetricAllocator a = new SymmetricAllocator(256, 16 * MB);
        long[][] blocks = new long[40][];
        for (int i = 0; i < blocks.length; i++) {
            long align = 1L << (i % 16);
            long bytes = 1 + i * 777L;
            long off = alloc(a, bytes, align);
            assertEquals(0, off % Math.max(align, SymmetricAllocator.MIN_ALIGNMENT), "offset " + off + " for alignment " + align);
            assertEquals(0, off % SymmetricAllocator.MIN_ALIGNMENT);
            assertTrue(off >= 256 && off + bytes <= 256 + 16 * MB, "block inside the heap: " + off);
            blocks[i] = new long[] {off, bytes};
        }
        for (int i = 0; i < blocks.length; i++) {
            for (int j = i + 1; j < blocks.length; j++) {
                boolean disjoint = blocks[i][0] + blocks[i][1] <= blocks[j][0] || blocks[j][0] + blocks[j][1] <= blocks[i][0];
                assertTrue(disjoint, "blocks " + i + " and " + j + " overlap");
            }
        }
    }

    @Test
    void freedBlockIsReused() {
        SymmetricAllocator a = new SymmetricAllocator(0, MB);
        long x = alloc(a, 4096);
        long y = alloc(a, 4096);
        assertTrue(a.release(x));
        assertEquals(x, alloc(a, 4000), "the freed first block is found first");
        assertTrue(a.release(y));
        assertEquals(y, alloc(a, 4096));
    }

    @Test
    void neighboursAreCoalesced() {
        SymmetricAllocator a = new SymmetricAllocator(0, 4096);
        long[] b = new long[16];
        for (int i = 0; i < 16; i++) {
            b[i] = alloc(a, 256);
        }
        assertInstanceOf(SymmetricAllocator.Exhausted.class, a.allocate(1, 1));
        // free 1, 3, 2 (after-merge, then before-and-after merge) and 5: the largest run is 3 blocks
        a.release(b[1]);
        a.release(b[3]);
        assertEquals(256, a.largestFreeBlock());
        a.release(b[2]);
        assertEquals(768, a.largestFreeBlock());
        a.release(b[5]);
        assertEquals(1024, a.freeBytes());
        assertEquals(768, a.largestFreeBlock());
        assertEquals(b[1], alloc(a, 700), "a 700-byte block fits only in the merged run");
        // free everything: one block of the whole heap again
        for (int i = 0; i < 16; i++) {
            if (i != 1 && i != 2 && i != 3 && i != 5) {
                assertTrue(a.release(b[i]));
            }
        }
        assertTrue(a.release(b[1]));
        assertEquals(4096, a.freeBytes());
        assertEquals(4096, a.largestFreeBlock());
        assertEquals(0, alloc(a, 4096));
    }

    @Test
    void alignmentsUpToOneGibibyteWhereTheHeapHasRoom() {
        long gib = 1L << 30;
        SymmetricAllocator a = new SymmetricAllocator(0, 2 * gib + 4 * MB);   // bookkeeping only: no memory
        assertEquals(0, alloc(a, 100));
        long end = 256;
        for (long alignment = 4 * MB; alignment <= gib; alignment <<= 1) {
            long off = alloc(a, 100, alignment);
            assertEquals(0, off % alignment, "alignment " + alignment);
            assertTrue(off >= end, "after the blocks before it");
            end = off + 256;
        }
        assertEquals(gib, end - 256, "1 GiB: the first multiple past offset 0");
        assertEquals(2 * gib + 4 * MB - 10 * 256, a.freeBytes(), "the padding stays free");
        assertEquals(256, alloc(a, 3 * MB), "and is handed out: first fit");
        assertInstanceOf(SymmetricAllocator.Exhausted.class, a.allocate(8 * MB, 2 * gib), "2 GiB has 4 MiB after it");
        assertEquals(2 * gib, alloc(a, 4 * MB, 2 * gib));
        assertInstanceOf(SymmetricAllocator.Exhausted.class, a.allocate(100, 4 * gib), "4 GiB: only 0, taken");
    }

    @Test
    void alignmentCountsFromOffsetZeroNotFromTheFirstUsableOffset() {
        long gib = 1L << 30;
        SymmetricAllocator a = new SymmetricAllocator(10 * MB, gib);   // a GPU heap: its first 10 MiB are jshmem's
        assertEquals(gib, alloc(a, 100, gib));
        assertEquals(16 * MB, alloc(a, 100, 16 * MB));
        assertInstanceOf(SymmetricAllocator.Exhausted.class, a.allocate(20 * MB, gib), "1 GiB + 20 MiB is past the end");
        SymmetricAllocator small = new SymmetricAllocator(0, gib);
        alloc(small, 100);
        SymmetricAllocator.Exhausted e = assertInstanceOf(SymmetricAllocator.Exhausted.class, small.allocate(100, gib));
        assertEquals(gib - 256, e.freeBytes());
        assertEquals(gib - 256, e.largestFreeBlock(), "free, but not at a multiple of 1 GiB");
        assertEquals(1, small.liveCount(), "a failed request changes nothing");
    }

    @Test
    void exhaustionSaysWhatIsFree() {
        SymmetricAllocator a = new SymmetricAllocator(0, 8192);
        long x = alloc(a, 2048);
        alloc(a, 2048);
        alloc(a, 2048);
        a.release(x);
        SymmetricAllocator.Result r = a.allocate(4096, 1);
        SymmetricAllocator.Exhausted e = assertInstanceOf(SymmetricAllocator.Exhausted.class, r);
        assertEquals(4096, e.freeBytes());
        assertEquals(2048, e.largestFreeBlock());
        assertEquals(4096, a.freeBytes(), "a failed request changes nothing");
        assertEquals(2, a.liveCount());
    }

    @Test
    void hugeRequestsAreExhaustedNotWrapped() {
        SymmetricAllocator a = new SymmetricAllocator(0, MB);
        for (long bytes : new long[] {MB + 1, 1L << 62, Long.MAX_VALUE - 100, Long.MAX_VALUE}) {
            assertInstanceOf(SymmetricAllocator.Exhausted.class, a.allocate(bytes, 1), "allocate(" + bytes + ")");
            assertInstanceOf(SymmetricAllocator.Exhausted.class, a.allocate(bytes, 1L << 62), "aligned allocate(" + bytes + ")");
        }
        assertEquals(MB, a.freeBytes());
        assertEquals(0, a.liveCount());
        assertEquals(0, alloc(a, MB), "the whole heap is still there");
    }

    @Test
    void releaseOfUnknownOffsetIsRefused() {
        SymmetricAllocator a = new SymmetricAllocator(0, MB);
        long x = alloc(a, 512);
        assertFalse(a.release(x + 256));
        assertFalse(a.release(12345));
        assertTrue(a.isLive(x));
        assertTrue(a.release(x));
        assertFalse(a.release(x), "double free");
        assertFalse(a.isLive(x));
    }

    @Test
    void badArgumentsAreRejected() {
        SymmetricAllocator a = new SymmetricAllocator(0, MB);
        assertThrows(IllegalArgumentException.class, () -> a.allocate(-1, 256));
        assertThrows(IllegalArgumentException.class, () -> a.allocate(1, 3));
        assertThrows(IllegalArgumentException.class, () -> a.allocate(1, 0));
        assertThrows(IllegalArgumentException.class, () -> new SymmetricAllocator(100, MB));
        assertThrows(IllegalArgumentException.class, () -> new SymmetricAllocator(0, -1));
    }
}
