package org.jshmem;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jshmem.ShmemConfig.BackendKind;
import org.jshmem.ShmemConfig.BootstrapKind;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job of one PE ({@code JSHMEM_BOOTSTRAP=single}, host backend) that talks to itself: every
 * call on PE 0, the error cases, and the life cycle (init, current, close, use after close and free).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SinglePeShmemTest {
    private static final long HEAP = 1L << 20;
    private static final byte SENTINEL = (byte) 0xA5;

    @TempDir
    Path shmDir;

    private Shmem shmem;

    private ShmemConfig config(long heap) {
        return config(heap, Map.of());
    }

    /** {@link #config(long)} with {@code more} settings. */
    private ShmemConfig config(long heap, Map<String, String> more) {
        Map<String, String> settings = new java.util.HashMap<>(Map.of("JSHMEM_SYMMETRIC_SIZE", Long.toString(heap),
                "JSHMEM_BACKEND", "host", "JSHMEM_BOOTSTRAP", "single", "JSHMEM_SHM_DIR", shmDir.toString(),
                "JSHMEM_LIVENESS_MS", "50", "JSHMEM_SPIN", "64"));
        settings.putAll(more);
        return ShmemConfig.fromMap(settings);
    }

    private Shmem start() {
        shmem = Shmem.init(config(HEAP));
        return shmem;
    }

    @AfterEach
    void closeAndCheckNoFileIsLeft() throws IOException {
        if (shmem != null) {
            shmem.close();
        }
        assertThrows(ShmemStateException.class, Shmem::current, "no PE is left current after a test");
        try (Stream<Path> left = Files.list(shmDir)) {
            assertEquals(List.of(), left.toList(), "files left in JSHMEM_SHM_DIR");
        }
    }

    // ------------------------------------------------------------------ life cycle

    @Test
    void currentBeforeInitSaysToCallInit() {
        ShmemStateException e = assertThrows(ShmemStateException.class, Shmem::current);
        assertTrue(e.getMessage().contains("Shmem.init()"), e.getMessage());
    }

    @Test
    void initGivesPeZeroOfOne() {
        Shmem s = start();
        assertEquals(0, s.myPe());
        assertEquals(1, s.nPes());
        assertSame(s, Shmem.current());
        assertEquals(HEAP, s.heapSize());
        assertEquals(HEAP, s.heapFree());
        assertTrue(s.describe().contains("host shared memory"), s.describe());
        assertTrue(s.describe().contains("single PE"), s.describe());
    }

    @Test
    void doubleInitIsRefusedAndLeavesTheFirstPeWorking() {
        Shmem s = start();
        ShmemStateException e = assertThrows(ShmemStateException.class, () -> Shmem.init(config(HEAP)));
        assertTrue(e.getMessage().contains("already has a PE"), e.getMessage());
        assertTrue(e.getMessage().contains("close it first"), e.getMessage());
        assertSame(s, Shmem.current());
        SymmetricSegment seg = s.malloc(8);
        s.pLong(seg, 0, 42, 0);
        assertEquals(42, s.gLong(seg, 0, 0));
    }

    @Test
    void closeTwiceIsHarmlessAndInitAgainWorks() {
        Shmem s = start();
        s.close();
        s.close();
        assertThrows(ShmemStateException.class, Shmem::current);
        Shmem t = start();
        assertNotSame(s, t);
        assertSame(t, Shmem.current());
        assertEquals(0, t.malloc(16).heapOffset(), "a new PE has a fresh heap");
    }

    @Test
    void useAfterCloseIsAnErrorNamingTheCall() {
        Shmem s = start();
        SymmetricSegment seg = s.malloc(64);
        s.close();
        List<Executable> calls = List.of(
                () -> s.put(seg, 0, new int[] {1}, 0, 1, 0),
                () -> s.get(new int[1], 0, 1, seg, 0, 0),
                () -> s.pInt(seg, 0, 1, 0),
                () -> s.gInt(seg, 0, 0),
                () -> s.atomicFetchAddLong(seg, 0, 1, 0),
                () -> s.signalFetch(seg, 0),
                () -> s.signalWaitUntil(seg, 0, Cmp.EQ, 0),
                () -> s.waitUntilInt(seg, 0, Cmp.EQ, 0),
                () -> s.testLong(seg, 0, Cmp.EQ, 0),
                () -> s.malloc(8),
                () -> s.free(seg),
                () -> s.barrierAll(),
                () -> s.syncAll(),
                () -> s.fence(),
                () -> s.quiet(),
                seg::local);
        for (Executable call : calls) {
            ShmemStateException e = assertThrows(ShmemStateException.class, call);
            assertTrue(e.getMessage().contains("closed"), e.getMessage());
        }
        assertTrue(assertThrows(ShmemStateException.class, () -> s.malloc(8)).getMessage().startsWith("malloc(8)"));
        shmem = null;
    }

    @Test
    void useAfterFreeIsAnErrorAndTheBlockIsReused() {
        Shmem s = start();
        SymmetricSegment seg = s.malloc(256);
        SymmetricSegment slice = seg.asSlice(8, 8);
        s.free(seg);
        assertTrue(seg.isFreed());
        assertTrue(slice.isFreed());
        for (Executable call : List.<Executable>of(
                () -> s.pLong(seg, 0, 1, 0),
                () -> s.gLong(slice, 0, 0),
                () -> s.atomicAddInt(seg, 0, 1, 0),
                () -> s.put(slice, 0, new byte[1], 0, 1, 0),
                seg::local,
                () -> s.free(seg))) {
            ShmemStateException e = assertThrows(ShmemStateException.class, call);
            assertTrue(e.getMessage().contains("freed"), e.getMessage());
        }
        SymmetricSegment again = s.calloc(32, 8);
        assertEquals(seg.heapOffset(), again.heapOffset(), "the freed block is reused");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> s.free(again.asSlice(0, 8)));
        assertTrue(e.getMessage().contains("slice"), e.getMessage());
    }

    @Test
    void segmentOfAClosedInstanceIsRefusedByTheNextOne() {
        Shmem s = start();
        SymmetricSegment old = s.malloc(64);
        s.close();
        Shmem t = start();
        ShmemStateException e = assertThrows(ShmemStateException.class, () -> t.pInt(old, 0, 1, 0));
        assertTrue(e.getMessage().contains("another jshmem instance"), e.getMessage());
    }

    @Test
    void staleFileOfADeadJobIsRemovedAndALiveOneKept() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        Path stale = Files.createFile(shmDir.resolve("jshmem-" + p.pid() + "-0123456789abcdef"));
        Path live = Files.createFile(shmDir.resolve("jshmem-" + ProcessHandle.current().pid() + "-0123456789abcdef"));
        start();
        assertFalse(Files.exists(stale), "file of dead process " + p.pid() + " removed");
        assertTrue(Files.exists(live), "file of a live process kept");
        Files.delete(live);
    }

    // ------------------------------------------------------------------ data movement on PE 0

    @Test
    void putsAndGetsOfEveryType() {
        Shmem s = start();
        SymmetricSegment seg = s.calloc(64, 8);
        s.put(seg, 0, new byte[] {9, 1, -2, 3}, 1, 3, 0);
        byte[] b = new byte[4];
        s.get(b, 1, 3, seg, 0, 0);
        assertArrayEquals(new byte[] {0, 1, -2, 3}, b);

        s.put(seg, 8, new short[] {-5, 300}, 0, 2, 0);
        short[] sh = new short[2];
        s.getNbi(sh, 0, 2, seg, 8, 0);
        s.quiet();
        assertArrayEquals(new short[] {-5, 300}, sh);

        s.putNbi(seg, 16, new int[] {7, -8, 9}, 0, 3, 0);
        s.quiet();
        int[] in = new int[3];
        s.get(in, 0, 3, seg, 16, 0);
        assertArrayEquals(new int[] {7, -8, 9}, in);

        s.put(seg, 32, new long[] {Long.MIN_VALUE, 1L << 40}, 0, 2, 0);
        long[] lo = new long[2];
        s.get(lo, 0, 2, seg, 32, 0);
        assertArrayEquals(new long[] {Long.MIN_VALUE, 1L << 40}, lo);

        s.put(seg, 48, new float[] {1.5f, -0.25f}, 0, 2, 0);
        float[] fl = new float[2];
        s.get(fl, 0, 2, seg, 48, 0);
        assertArrayEquals(new float[] {1.5f, -0.25f}, fl);

        s.put(seg, 56, new double[] {Math.PI, -1e300}, 0, 2, 0);
        double[] db = new double[2];
        s.get(db, 0, 2, seg, 56, 0);
        assertArrayEquals(new double[] {Math.PI, -1e300}, db);

        // segment forms, and the local view agrees
        MemorySegment src = MemorySegment.ofArray(new long[] {11, 12, 13});
        s.put(seg, 128, src, 0);
        assertEquals(12, seg.local().get(ValueLayout.JAVA_LONG, 136));
        s.put(seg, 256, seg, 128, 24, 0);
        long[] copy = new long[3];
        s.get(MemorySegment.ofArray(copy), seg, 256, 0);
        assertArrayEquals(new long[] {11, 12, 13}, copy);
        s.getNbi(seg, 384, seg, 256, 24, 0);
        s.putNbi(seg, 408, seg, 384, 8, 0);
        s.quiet();
        assertEquals(11, s.gLong(seg, 408, 0));
    }

    @Test
    void scalarPutAndGet() {
        Shmem s = start();
        SymmetricSegment seg = s.calloc(1, 64);
        s.pByte(seg, 0, (byte) -3, 0);
        s.pShort(seg, 2, (short) -30000, 0);
        s.pInt(seg, 4, -123456789, 0);
        s.pLong(seg, 8, -1234567890123L, 0);
        s.pFloat(seg, 16, -2.5f, 0);
        s.pDouble(seg, 24, 6.02e23, 0);
        assertEquals((byte) -3, s.gByte(seg, 0, 0));
        assertEquals((short) -30000, s.gShort(seg, 2, 0));
        assertEquals(-123456789, s.gInt(seg, 4, 0));
        assertEquals(-1234567890123L, s.gLong(seg, 8, 0));
        assertEquals(-2.5f, s.gFloat(seg, 16, 0));
        assertEquals(6.02e23, s.gDouble(seg, 24, 0));
    }

    @Test
    void stridedPutAndGet() {
        Shmem s = start();
        SymmetricSegment seg = s.calloc(32, 4);
        int[] src = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
        s.iput(seg, 4, 3, src, 1, 2, 4, 0);   // src[1,3,5,7] -> ints 1,4,7,10
        int[] all = new int[12];
        s.get(all, 0, 12, seg, 0, 0);
        assertArrayEquals(new int[] {0, 1, 0, 0, 3, 0, 0, 5, 0, 0, 7, 0}, all);
        int[] dst = {-1, -1, -1, -1, -1, -1, -1};
        s.iget(dst, 0, 2, seg, 4, 3, 4, 0);   // ints 1,4,7,10 -> dst[0,2,4,6]
        assertArrayEquals(new int[] {1, -1, 3, -1, 5, -1, 7}, dst);
    }

    @Test
    void stridedPutWithATooShortSourceTouchesNoMemory() {
        Shmem s = start();
        SymmetricSegment seg = s.malloc(256);
        seg.local().fill(SENTINEL);
        MemorySegment shortSrc = MemorySegment.ofArray(new int[] {1, 2, 3});
        assertThrows(IndexOutOfBoundsException.class,
                () -> s.iput(seg, 0, 1, shortSrc, 1, ValueLayout.JAVA_INT, 5, 0));
        assertSentinel(seg.local(), 0, 256);
        MemorySegment shortDst = MemorySegment.ofArray(new int[] {-7, -7, -7});
        assertThrows(IndexOutOfBoundsException.class,
                () -> s.iget(shortDst, 1, seg, 0, 1, ValueLayout.JAVA_INT, 5, 0));
        assertArrayEquals(new int[] {-7, -7, -7}, shortDst.toArray(ValueLayout.JAVA_INT));
    }

    @Test
    void atomicsOnPeZero() {
        Shmem s = start();
        SymmetricSegment seg = s.calloc(4, 8);
        s.atomicSetInt(seg, 0, 10, 0);
        assertEquals(10, s.atomicFetchInt(seg, 0, 0));
        assertEquals(10, s.atomicSwapInt(seg, 0, 20, 0));
        assertEquals(20, s.atomicCompareSwapInt(seg, 0, 1, 30, 0));
        assertEquals(20, s.atomicCompareSwapInt(seg, 0, 20, 30, 0));
        assertEquals(30, s.atomicFetchAddInt(seg, 0, 5, 0));
        assertEquals(35, s.atomicFetchIncInt(seg, 0, 0));
        s.atomicAddInt(seg, 0, -6, 0);
        s.atomicIncInt(seg, 0, 0);
        assertEquals(31, s.atomicFetchAndInt(seg, 0, 0b10101, 0));
        assertEquals(0b10101, s.atomicFetchOrInt(seg, 0, 0b1000, 0));
        assertEquals(0b11101, s.atomicFetchXorInt(seg, 0, 0b110, 0));
        s.atomicAndInt(seg, 0, 0b11010, 0);
        s.atomicOrInt(seg, 0, 1 << 31, 0);
        s.atomicXorInt(seg, 0, 1, 0);
        assertEquals((0b11011 & 0b11010 | 1 << 31) ^ 1, s.atomicFetchInt(seg, 0, 0));

        long big = 1L << 40;
        s.atomicSetLong(seg, 8, big, 0);
        assertEquals(big, s.atomicFetchLong(seg, 8, 0));
        assertEquals(big, s.atomicSwapLong(seg, 8, big + 1, 0));
        assertEquals(big + 1, s.atomicCompareSwapLong(seg, 8, big, 7, 0));
        assertEquals(big + 1, s.atomicCompareSwapLong(seg, 8, big + 1, big * 3, 0));
        assertEquals(big * 3, s.atomicFetchAddLong(seg, 8, big, 0));
        assertEquals(big * 4, s.atomicFetchIncLong(seg, 8, 0));
        s.atomicAddLong(seg, 8, -1, 0);
        s.atomicIncLong(seg, 8, 0);
        assertEquals(big * 4 + 1, s.atomicFetchAndLong(seg, 8, big * 4, 0));
        assertEquals(big * 4, s.atomicFetchOrLong(seg, 8, 3, 0));
        assertEquals(big * 4 + 3, s.atomicFetchXorLong(seg, 8, big * 4 + 1, 0));
        s.atomicAndLong(seg, 8, 6, 0);
        s.atomicOrLong(seg, 8, Long.MIN_VALUE, 0);
        s.atomicXorLong(seg, 8, 1, 0);
        assertEquals(Long.MIN_VALUE | 3, s.atomicFetchLong(seg, 8, 0));
    }

    @Test
    void cmpTestsSignedOrUnsigned() {
        assertTrue(Cmp.GT.testUnsigned(-1, 0));
        assertFalse(Cmp.GT.test(-1, 0));
        assertTrue(Cmp.GE.testUnsigned(Long.MIN_VALUE, Long.MAX_VALUE));
        assertFalse(Cmp.GE.test(Long.MIN_VALUE, Long.MAX_VALUE));
        assertTrue(Cmp.LT.testUnsigned(5, -1));
        assertFalse(Cmp.LT.test(5, -1));
        assertTrue(Cmp.LE.testUnsigned(-1, -1) && Cmp.EQ.testUnsigned(-1, -1) && Cmp.NE.testUnsigned(-1, 1));
        assertFalse(Cmp.LT.testUnsigned(-1, 0));
    }

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void signalsCompareUnsigned() {
        Shmem s = start();
        SymmetricSegment sig = s.calloc(2, 8);
        s.signalOp(sig, 0, -1, SignalOp.SET, 0);                  // 2^64 - 1
        assertEquals(-1, s.signalWaitUntil(sig, 0, Cmp.GT, 0));
        assertEquals(-1, s.signalWaitUntil(sig, 0, Cmp.GE, Long.MIN_VALUE));
        s.signalOp(sig, 8, Long.MIN_VALUE, SignalOp.SET, 0);      // 2^63
        assertEquals(Long.MIN_VALUE, s.signalWaitUntil(sig, 8, Cmp.GE, Long.MAX_VALUE));
        assertEquals(Long.MIN_VALUE, s.signalWaitUntil(sig, 8, Cmp.LT, -1));
        s.signalOp(sig, 8, Long.MAX_VALUE, SignalOp.ADD, 0);     // 2^64 - 1
        assertEquals(-1, s.signalWaitUntil(sig, 8, Cmp.GT, Long.MIN_VALUE));
        s.signalOp(sig, 8, 6, SignalOp.ADD, 0);                  // wraps to 5
        assertEquals(5, s.signalWaitUntil(sig, 8, Cmp.LT, Long.MIN_VALUE));
        assertEquals(5, s.signalWaitUntil(sig, 8, Cmp.LE, -1));
    }

    @Test
    void signalsAndWaitsOnPeZero() throws Exception {
        Shmem s = start();
        SymmetricSegment data = s.calloc(4, 8);
        SymmetricSegment sig = s.calloc(2, 8);
        s.putSignal(data, 0, MemorySegment.ofArray(new long[] {5, 6}), sig, 0, 9, SignalOp.SET, 0);
        assertEquals(9, s.signalFetch(sig, 0));
        assertEquals(9, s.signalWaitUntil(sig, 0, Cmp.EQ, 9));
        s.putSignalNbi(data, 16, MemorySegment.ofArray(new long[] {7}), sig, 0, 3, SignalOp.ADD, 0);
        s.quiet();
        assertEquals(12, s.signalWaitUntil(sig, 0, Cmp.GE, 10));
        s.putSignal(data, 24, data, 0, 8, sig, 8, -1, SignalOp.ADD, 0);
        assertEquals(-1, s.signalFetch(sig, 8));
        long[] got = new long[4];
        s.get(got, 0, 4, data, 0, 0);
        assertArrayEquals(new long[] {5, 6, 7, 5}, got);

        // a wait that another thread of this PE ends
        SymmetricSegment flags = s.calloc(4, 8);
        Thread setter = Thread.ofPlatform().start(() -> {
            sleep(30);
            s.atomicSetLong(flags, 8, 77, 0);
            sleep(30);
            s.atomicSetInt(flags, 0, 5, 0);
        });
        s.waitUntilLong(flags, 8, Cmp.EQ, 77);
        s.waitUntilInt(flags, 0, Cmp.GT, 4);
        setter.join();
        assertTrue(s.testInt(flags, 0, Cmp.EQ, 5));
        assertFalse(s.testInt(flags, 0, Cmp.NE, 5));
        assertTrue(s.testLong(flags, 8, Cmp.LE, 77));
        assertFalse(s.testLong(flags, 8, Cmp.LT, 77));
        assertEquals(1, s.testAnyLong(flags, 0, 4, null, Cmp.EQ, 77));
        assertArrayEquals(new int[] {1}, s.testSomeLong(flags, 0, 4, null, Cmp.EQ, 77));
        assertFalse(s.testAllLong(flags, 0, 4, null, Cmp.EQ, 77));
        assertTrue(s.testAllLong(flags, 0, 4, new boolean[] {true, false, true, true}, Cmp.EQ, 77));
        assertEquals(-1, s.waitUntilAnyLong(flags, 0, 4, new boolean[] {true, true, true, true}, Cmp.EQ, 1));
        s.barrierAll();
        s.syncAll();
        s.fence();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ------------------------------------------------------------------ errors touch no memory

    @Test
    void peOutOfRange() {
        Shmem s = start();
        SymmetricSegment seg = s.malloc(256);
        seg.local().fill(SENTINEL);
        for (int pe : new int[] {1, -1, Integer.MAX_VALUE}) {
            PeOutOfRangeException e = assertThrows(PeOutOfRangeException.class, () -> s.pInt(seg, 0, 0, pe));
            assertEquals(pe, e.pe());
            assertTrue(e.getMessage().contains("pInt: PE " + pe + " is out of range"), e.getMessage());
            assertTrue(e.getMessage().contains("only PE 0"), e.getMessage());
        }
        assertThrows(PeOutOfRangeException.class, () -> s.put(seg, 0, new long[4], 0, 4, 1));
        assertThrows(PeOutOfRangeException.class, () -> s.atomicAddLong(seg, 0, 1, 1));
        assertThrows(PeOutOfRangeException.class,
                () -> s.putSignal(seg, 0, MemorySegment.ofArray(new long[2]), seg, 128, 1, SignalOp.SET, 1));
        assertSentinel(seg.local(), 0, 256);
    }

    @Test
    void outsideTheAllocation() {
        Shmem s = start();
        SymmetricSegment before = s.malloc(256);
        SymmetricSegment seg = s.malloc(256);
        SymmetricSegment after = s.malloc(256);
        MemorySegment all = before.local().reinterpret(768);
        assertEquals(seg.heapOffset(), before.heapOffset() + 256, "the three blocks are adjacent");
        all.fill(SENTINEL);
        HeapBoundsException e = assertThrows(HeapBoundsException.class, () -> s.put(seg, 252, new long[1], 0, 1, 0));
        assertTrue(e.getMessage().contains("offset 252 + length 8"), e.getMessage());
        assertTrue(e.getMessage().contains("heap offset " + seg.heapOffset()), e.getMessage());
        assertTrue(e.getMessage().contains("offset + length <= 256"), e.getMessage());
        assertThrows(HeapBoundsException.class, () -> s.put(seg, -8, new long[1], 0, 1, 0));
        assertThrows(HeapBoundsException.class, () -> s.get(new byte[2], 0, 2, seg, 255, 0));
        assertThrows(HeapBoundsException.class, () -> s.iput(seg, 0, 100, new int[3], 0, 1, 3, 0));
        assertThrows(HeapBoundsException.class, () -> s.put(seg, 0, after, 0, 512, 0));
        assertThrows(HeapBoundsException.class, () -> s.put(seg, Long.MAX_VALUE - 2, new byte[4], 0, 4, 0));
        assertThrows(HeapBoundsException.class, () -> s.atomicAddLong(seg, 256, 1, 0));
        assertThrows(HeapBoundsException.class, () -> seg.asSlice(200, 100));
        SymmetricSegment slice = seg.asSlice(64, 16);
        assertThrows(HeapBoundsException.class, () -> s.pLong(slice, 12, 1, 0));
        assertThrows(HeapBoundsException.class,
                () -> s.putSignal(seg, 0, MemorySegment.ofArray(new long[2]), seg, 256, 1, SignalOp.SET, 0));
        assertThrows(HeapBoundsException.class, () -> s.waitUntilAllInt(seg, 200, 20, null, Cmp.EQ, 0));
        assertSentinel(all, 0, 768);
    }

    @Test
    void misalignedAtomics() {
        Shmem s = start();
        SymmetricSegment seg = s.malloc(256);
        seg.local().fill(SENTINEL);
        MisalignedAtomicException e = assertThrows(MisalignedAtomicException.class, () -> s.atomicAddLong(seg, 4, 1, 0));
        assertTrue(e.getMessage().contains("offset 4"), e.getMessage());
        assertTrue(e.getMessage().contains("multiple of 8"), e.getMessage());
        assertThrows(MisalignedAtomicException.class, () -> s.atomicCompareSwapInt(seg, 2, 0, 1, 0));
        assertThrows(MisalignedAtomicException.class, () -> s.atomicSetInt(seg.asSlice(1, 8), 0, 1, 0));
        assertThrows(MisalignedAtomicException.class, () -> s.pLong(seg, 12, 1, 0));
        assertThrows(MisalignedAtomicException.class,
                () -> s.putSignal(seg, 0, MemorySegment.ofArray(new long[2]), seg, 129, 1, SignalOp.ADD, 0));
        assertThrows(MisalignedAtomicException.class, () -> s.signalWaitUntil(seg, 4, Cmp.EQ, 0));
        assertThrows(MisalignedAtomicException.class, () -> s.waitUntilInt(seg, 3, Cmp.EQ, 0));
        assertSentinel(seg.local(), 0, 256);
    }

    @Test
    void heapExhaustedSaysAskedFreeAndHowToRaiseTheSize() {
        Shmem s = start();
        SymmetricSegment seg = s.malloc(HEAP / 2);
        seg.local().fill(SENTINEL);
        HeapExhaustedException e = assertThrows(HeapExhaustedException.class, () -> s.malloc(HEAP));
        assertEquals(HEAP, e.requested());
        assertEquals(HEAP / 2, e.free());
        String m = e.getMessage();
        assertTrue(m.contains("malloc(" + HEAP + ") on PE 0"), m);
        assertTrue(m.contains(HEAP + " bytes asked"), m);
        assertTrue(m.contains(HEAP / 2 + " bytes free"), m);
        assertTrue(m.contains("JSHMEM_SYMMETRIC_SIZE (now 1M)"), m);
        assertTrue(m.contains("JSHMEM_SYMMETRIC_SIZE=2M"), m);
        assertEquals(HEAP / 2, s.heapFree(), "a failed malloc allocates nothing");
        assertSentinel(seg.local(), 0, HEAP / 2);
        assertEquals(HEAP / 2, s.malloc(HEAP / 2).heapOffset(), "the rest is still usable");
    }

    @Test
    @Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void hugeRequestsAreExhaustedNotWrappedOrHung() {
        Shmem s = start();
        for (long bytes : new long[] {1L << 62, (1L << 62) + 1, Long.MAX_VALUE}) {
            HeapExhaustedException e = assertThrows(HeapExhaustedException.class, () -> s.malloc(bytes));
            // no JSHMEM_SYMMETRIC_SIZE=4194304T: no machine holds such a heap, the request is wrong
            assertTrue(e.getMessage().contains("The request itself is too large: " + bytes + " bytes is more than this"
                    + " machine can give one PE"), e.getMessage());
            assertFalse(e.getMessage().contains("JSHMEM_SYMMETRIC_SIZE="), e.getMessage());
            assertThrows(HeapExhaustedException.class, () -> s.align(4096, bytes));
        }
        assertThrows(HeapExhaustedException.class, () -> s.calloc(Long.MAX_VALUE, 2));
        assertEquals(HEAP, s.heapFree());
        assertEquals(0, s.malloc(HEAP).heapOffset());
    }

    @Test
    void heapExhaustedNeverSuggestsMoreThanTheMachineHas() {
        Shmem s = start();
        long memory = HeapLimits.memoryOf(s.backend());
        assertTrue(memory > 1L << 30, "physical memory read: " + memory);
        HeapExhaustedException e = assertThrows(HeapExhaustedException.class, () -> s.malloc(memory / 2));
        assertTrue(e.getMessage().contains("JSHMEM_SYMMETRIC_SIZE="), e.getMessage());
        String suggested = e.getMessage().replaceAll("(?s).*JSHMEM_SYMMETRIC_SIZE=([0-9]+[KMGT]?).*", "$1");
        assertTrue(ShmemConfig.parseSize(suggested) <= memory, suggested + " > " + memory + ": " + e.getMessage());
    }

    @Test
    void alignTakesAnyPowerOfTwoTheHeapHasRoomFor() {
        // a 1 GiB heap, its pages not touched at init: its base is 1 GiB-aligned
        shmem = Shmem.init(config(1L << 30, Map.of("JSHMEM_PREFAULT", "0")));
        Shmem s = shmem;
        List<SymmetricSegment> blocks = new java.util.ArrayList<>(List.of(s.malloc(100)));   // offset 0 is taken
        for (long alignment = 256; alignment <= 1L << 29; alignment <<= 1) {
            SymmetricSegment seg = s.align(alignment, 100);
            assertEquals(0, seg.local().address() % alignment, "align(" + alignment + ") gave address "
                    + Long.toHexString(seg.local().address()));
            assertEquals(0, seg.heapOffset() % alignment);
            blocks.add(seg);
        }
        long free = s.heapFree();
        HeapExhaustedException full = assertThrows(HeapExhaustedException.class, () -> s.align(1L << 30, 100));
        assertTrue(full.getMessage().startsWith("align(1073741824, 100) on PE 0: the symmetric heap is exhausted: 100"
                + " bytes asked at a multiple of 1G, "), full.getMessage());
        HeapExhaustedException above = assertThrows(HeapExhaustedException.class, () -> s.align(2L << 30, 100));
        assertEquals("align(2147483648, 100) on PE 0: no block of the symmetric heap is at a multiple of 2G on every PE:"
                + " the heap's base address is 1G-aligned on every PE (a heap is placed at a multiple of the largest"
                + " power of two not above its size). Use a smaller alignment, or a larger heap (at least 2147483748"
                + " bytes), e.g. JSHMEM_SYMMETRIC_SIZE=4G.", above.getMessage());
        assertEquals(free, s.heapFree(), "a failed align allocates nothing");
        blocks.forEach(s::free);
        SymmetricSegment gib = s.align(1L << 30, 100);   // the heap's base: the only multiple of 1 GiB in it
        assertEquals(0, gib.heapOffset());
        assertEquals(0, gib.local().address() % (1L << 30));
    }

    @Test
    void reallocKeepsTheOriginFlat() {
        Shmem s = start();
        SymmetricSegment seg = s.malloc(1000);
        s.malloc(100);   // so that growing moves the block
        long from = -1;
        for (long bytes = 2000; bytes <= 6000; bytes += 1000) {
            from = seg.heapOffset();
            seg = s.realloc(seg, bytes);
            assertEquals("realloc(heap offset " + from + ", " + bytes + ")", seg.origin());
        }
        assertEquals("symmetric segment [heap offset " + seg.heapOffset() + ", 6000 bytes of realloc(heap offset "
                + from + ", 6000)]", seg.toString(), "the fifth realloc describes one call, not five");
        SymmetricSegment last = seg;
        String e = assertThrows(HeapExhaustedException.class, () -> s.realloc(last, 2 * HEAP)).getMessage();
        assertEquals(1, e.split("symmetric segment").length - 1, e);
    }

    @Test
    void badAllocationArguments() {
        Shmem s = start();
        assertThrows(IllegalArgumentException.class, () -> s.malloc(-1));
        assertThrows(IllegalArgumentException.class, () -> s.calloc(-1, 8));
        assertThrows(IllegalArgumentException.class, () -> s.align(3, 8));
        assertEquals(HEAP, s.heapFree());
    }

    @Test
    void blockStridedPutOnStreamNeedsAGpuHeapAndSaySo() {
        Shmem s = start();
        SymmetricSegment a = s.malloc(64);
        ShmemStateException e = assertThrows(ShmemStateException.class,
                () -> s.ibputOnStream(a, 0, 32, a, 0, 32, 16, 2, 0, null));
        assertTrue(e.getMessage().startsWith("ibputOnStream needs the symmetric heap in GPU memory"), e.getMessage());
    }

    @Test
    void onStreamCollectivesNeedAGpuHeapAndSaySo() {
        Shmem s = start();
        Team w = s.teamWorld();
        SymmetricSegment a = s.malloc(64);
        SymmetricSegment b = s.malloc(64);
        List<org.junit.jupiter.api.function.Executable> calls = List.of(
                () -> w.reduceOnStream(ReduceOp.SUM, DType.INT, a, b, 4, null),
                () -> w.fcollectOnStream(a, b, 4, DType.INT, null),
                () -> w.collectOnStream(a, b, new long[] {4}, DType.INT, null),
                () -> w.alltoallOnStream(a, b, 4, DType.INT, null),
                () -> w.broadcastOnStream(a, b, 4, 0, DType.INT, null),
                () -> w.barrierOnStream(null),
                () -> w.syncOnStream(null));
        for (org.junit.jupiter.api.function.Executable call : calls) {
            ShmemStateException e = assertThrows(ShmemStateException.class, call);
            assertTrue(e.getMessage().startsWith("Team.") && e.getMessage().contains("OnStream needs the symmetric heap in"
                    + " GPU memory"), e.getMessage());
        }
        // the blocking forms still work on the host heap
        b.local().fill((byte) 1);
        w.reduce(ReduceOp.SUM, DType.INT, a, b, 4);
        assertEquals(0x01010101, a.local().get(ValueLayout.JAVA_INT, 0));
    }

    @Test
    void registerBufferNeedsAGpuHeapAndSaySo() {
        Shmem s = start();
        try (Arena arena = Arena.ofConfined()) {
            ShmemStateException e = assertThrows(ShmemStateException.class, () -> s.registerBuffer(arena.allocate(64)));
            assertTrue(e.getMessage().startsWith("registerBuffer needs the symmetric heap in GPU memory"), e.getMessage());
        }
    }

    private static void assertSentinel(MemorySegment m, long from, long to) {
        for (long i = from; i < to; i++) {
            if (m.get(ValueLayout.JAVA_BYTE, i) != SENTINEL) {
                throw new AssertionError("byte " + i + " was overwritten: " + m.get(ValueLayout.JAVA_BYTE, i));
            }
        }
    }
}
