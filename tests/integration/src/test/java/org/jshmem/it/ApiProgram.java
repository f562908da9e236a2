package org.jshmem.it;

import static org.jshmem.it.PeProgram.report;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jshmem.Cmp;
import org.jshmem.Shmem;
import org.jshmem.ShmemStateException;
import org.jshmem.SignalOp;
import org.jshmem.SymmetricSegment;

/**
 * Every call of the API once or more, on every PE, reporting what it saw; {@link ApiTest}
 * computes what each PE must report. Neighbours: {@code right = me+1}, {@code left = me-1}
 * (mod nPes); with one PE both are PE 0 itself.
 */
public final class ApiProgram {
    static final int N = 6;            // elements of a typed put/get
    static final int REGION = 128;     // bytes per region of a type's area
    static final int AREA = 12 * REGION;

    public static void main(String[] args) {
        Shmem shmem = Shmem.init();
        int me = shmem.myPe();
        int n = shmem.nPes();
        int right = (me + 1) % n;
        int left = (me + n - 1) % n;
        report(me, "nPes", n);
        report(me, "myPe", me);
        report(me, "current", Shmem.current() == shmem);
        report(me, "heapSize", shmem.heapSize());
        report(me, "pid", ProcessHandle.current().pid());
        report(me, "describe", shmem.describe());

        allocation(shmem, me);
        putGet(shmem, me, right, left);
        scalars(shmem, me, right);
        strided(shmem, me, right);
        bulk(shmem, me, right, left);
        signals(shmem, me, n, right, left);
        atomics(shmem, me, n, right);
        ordering(shmem, me, right, left);
        waits(shmem, me, n, right, left);
        barriers(shmem, me, n, right);

        shmem.close();
        report(me, "closed", true);
        try {
            Shmem.current();
            report(me, "afterClose", "no exception");
        } catch (ShmemStateException e) {
            report(me, "afterClose", e.getClass().getSimpleName());
        }
    }

    // ------------------------------------------------------------------ malloc, calloc, align, free

    static void allocation(Shmem s, int me) {
        long capacity = s.heapSize();
        SymmetricSegment a = s.malloc(1000);
        SymmetricSegment b = s.calloc(10, 8);
        SymmetricSegment c = s.align(4096, 100);
        SymmetricSegment d = s.malloc(100);
        long start = LocalCopy.heapStart(s);           // offsets from the first byte the allocator hands out
        report(me, "alloc.offsets", List.of(a.heapOffset() - start, b.heapOffset() - start, c.heapOffset() - start,
                d.heapOffset() - start));
        report(me, "alloc.sizes", List.of(a.byteSize(), b.byteSize(), c.byteSize(), d.byteSize()));
        report(me, "alloc.used", capacity - s.heapFree());
        LocalCopy.fill(s, a, (byte) 0xFF);
        s.free(a);
        SymmetricSegment e = s.calloc(125, 8);         // reuses a's block, which must come back zeroed
        report(me, "alloc.reuse", e.heapOffset() - start);
        report(me, "alloc.callocNonZero", countNonZero(LocalCopy.read(s, e)));
        s.free(b);
        s.free(d);
        SymmetricSegment f = s.malloc(3000);           // fits only in b, d and the gap after d merged
        report(me, "alloc.coalesced", f.heapOffset() - start);
        s.free(c);
        s.free(e);
        s.free(f);
        report(me, "alloc.freeAfter", s.heapFree() == capacity);
    }

    static long countNonZero(MemorySegment m) {
        long k = 0;
        for (long i = 0; i < m.byteSize(); i++) {
            k += m.get(ValueLayout.JAVA_BYTE, i) != 0 ? 1 : 0;
        }
        return k;
    }

    // ------------------------------------------------------------------ puts and gets of every type

    static void putGet(Shmem s, int me, int right, int left) {
        SymmetricSegment all = s.calloc(Values.TYPES.length, AREA);
        for (int t = 0; t < Values.TYPES.length; t++) {
            String type = Values.TYPES[t];
            SymmetricSegment seg = all.asSlice((long) t * AREA, AREA);
            int w = Values.width(type);
            writeLocal(s, seg, 0, Values.array(type, me, 0, N));       // region 0: this PE's own data
            s.barrierAll();
            Object src1 = Values.array(type, me, 1, N + 2);
            put(s, seg, 1 * REGION, src1, 1, N, right, false);      // elements 1..N of an N+2 array
            put(s, seg, 2 * REGION, Values.array(type, me, 2, N), 0, N, left, true);
            s.put(seg, 3 * REGION, ofArray(Values.array(type, me, 3, N)), right);
            s.putNbi(seg, 4 * REGION, ofArray(Values.array(type, me, 4, N)), left);
            s.put(seg, 5 * REGION, seg, 0, (long) N * w, right);
            s.putNbi(seg, 6 * REGION, seg, 0, (long) N * w, left);
            s.get(seg, 7 * REGION, seg, 0, (long) N * w, right);
            s.getNbi(seg, 8 * REGION, seg, 0, (long) N * w, left);
            Object got = Values.zeros(type, N + 1);
            get(s, got, 1, N, seg, 0, right, false);                // into elements 1..N
            report(me, "get." + type, Values.str(got));
            Object gotNbi = Values.zeros(type, N);
            get(s, gotNbi, 0, N, seg, 0, left, true);
            MemorySegment segGot = ofArray(Values.zeros(type, N));
            s.get(segGot, seg, 0, right);
            MemorySegment segGotNbi = ofArray(Values.zeros(type, N));
            s.getNbi(segGotNbi, seg, 0, left);
            s.quiet();
            report(me, "getNbi." + type, Values.str(gotNbi));
            report(me, "getSeg." + type, Values.str(toArray(segGot, type)));
            report(me, "getNbiSeg." + type, Values.str(toArray(segGotNbi, type)));
            s.barrierAll();
            String[] keys = {"put", "putNbi", "putSeg", "putNbiSeg", "putSym", "putNbiSym", "getSym", "getNbiSym"};
            for (int r = 1; r <= 8; r++) {
                report(me, keys[r - 1] + "." + type, Values.str(readLocal(s, seg, (long) r * REGION, type, N)));
            }
        }
        s.barrierAll();
        s.free(all);
    }

    // ------------------------------------------------------------------ p and g

    static void scalars(Shmem s, int me, int right) {
        SymmetricSegment seg = s.calloc(2, 32);
        MemorySegment own = LocalCopy.buffer(32);     // this PE's values, written to its heap before the barrier
        own.set(ValueLayout.JAVA_BYTE, 0, (byte) Values.scalar("byte", me, 0));
        own.set(ValueLayout.JAVA_SHORT, 2, (short) Values.scalar("short", me, 0));
        own.set(ValueLayout.JAVA_INT, 4, (int) Values.scalar("int", me, 0));
        own.set(ValueLayout.JAVA_LONG, 8, (long) Values.scalar("long", me, 0));
        own.set(ValueLayout.JAVA_FLOAT, 16, (float) Values.scalar("float", me, 0));
        own.set(ValueLayout.JAVA_DOUBLE, 24, (double) Values.scalar("double", me, 0));
        LocalCopy.write(s, seg, 0, own);
        s.barrierAll();
        s.pByte(seg, 32, (byte) Values.scalar("byte", me, 1), right);
        s.pShort(seg, 34, (short) Values.scalar("short", me, 1), right);
        s.pInt(seg, 36, (int) Values.scalar("int", me, 1), right);
        s.pLong(seg, 40, (long) Values.scalar("long", me, 1), right);
        s.pFloat(seg, 48, (float) Values.scalar("float", me, 1), right);
        s.pDouble(seg, 56, (double) Values.scalar("double", me, 1), right);
        report(me, "g.byte", s.gByte(seg, 0, right));
        report(me, "g.short", s.gShort(seg, 2, right));
        report(me, "g.int", s.gInt(seg, 4, right));
        report(me, "g.long", s.gLong(seg, 8, right));
        report(me, "g.float", s.gFloat(seg, 16, right));
        report(me, "g.double", s.gDouble(seg, 24, right));
        s.barrierAll();
        MemorySegment got = LocalCopy.read(s, seg, 32, 32);   // what the left PE's p calls wrote here
        report(me, "p.byte", got.get(ValueLayout.JAVA_BYTE, 0));
        report(me, "p.short", got.get(ValueLayout.JAVA_SHORT, 2));
        report(me, "p.int", got.get(ValueLayout.JAVA_INT, 4));
        report(me, "p.long", got.get(ValueLayout.JAVA_LONG, 8));
        report(me, "p.float", got.get(ValueLayout.JAVA_FLOAT, 16));
        report(me, "p.double", got.get(ValueLayout.JAVA_DOUBLE, 24));
        s.barrierAll();
        s.free(seg);
    }

    // ------------------------------------------------------------------ large strided and non-blocking transfers

    /** Elements of the large cases: several of the GPU backend's 2 MiB staging halves each. */
    static final int BULK = 600_000;

    /**
     * Large transfers that take several staging rounds on a GPU heap: a strided iput from a Java
     * array (every other element, to every third), a non-blocking put from native memory, a strided
     * iget back, and a non-blocking get into native memory. Reports the number of wrong elements.
     */
    static void bulk(Shmem s, int me, int right, int left) {
        int n = BULK;
        SymmetricSegment seg = s.calloc(4L * n, 8);
        long[] src = new long[2 * n];
        for (int i = 0; i < src.length; i++) {
            src[i] = me * 1_000_000_000L + i;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nat = arena.allocate(8L * n, 8);
            for (int i = 0; i < n; i++) {
                nat.setAtIndex(ValueLayout.JAVA_LONG, i, -(me * 1_000_000_000L + i));
            }
            s.iput(seg, 0, 3, src, 0, 2, n, right);                      // src[2i] -> element 3i on the right
            s.putNbi(seg, 3L * n * 8, nat, right);                      // native, completed by the quiet
            s.quiet();
            s.barrierAll();
            MemorySegment mine = LocalCopy.read(s, seg);
            long wrong = 0;
            for (int i = 0; i < n; i++) {
                wrong += mine.getAtIndex(ValueLayout.JAVA_LONG, 3L * i) != left * 1_000_000_000L + 2L * i ? 1 : 0;
                wrong += mine.getAtIndex(ValueLayout.JAVA_LONG, 3L * i + 1) != 0 ? 1 : 0;
                wrong += mine.getAtIndex(ValueLayout.JAVA_LONG, 3L * n + i) != -(left * 1_000_000_000L + i) ? 1 : 0;
            }
            report(me, "bulk.put", wrong);
            long[] got = new long[2 * n];
            s.iget(got, 1, 2, seg, 0, 3, n, right);                     // the right's element 3i -> got[1 + 2i]
            MemorySegment back = arena.allocate(8L * n, 8);
            s.getNbi(back, seg, 3L * n * 8, right);
            s.quiet();
            wrong = 0;
            for (int i = 0; i < n; i++) {
                wrong += got[2 * i] != 0 || got[2 * i + 1] != me * 1_000_000_000L + 2L * i ? 1 : 0;
                wrong += back.getAtIndex(ValueLayout.JAVA_LONG, i) != -(me * 1_000_000_000L + i) ? 1 : 0;
            }
            report(me, "bulk.get", wrong);
        }
        s.barrierAll();
        s.free(seg);
    }

    // ------------------------------------------------------------------ iput and iget

    static void strided(Shmem s, int me, int right) {
        SymmetricSegment all = s.calloc(Values.TYPES.length, 2 * 12 * 8L);
        for (int t = 0; t < Values.TYPES.length; t++) {
            String type = Values.TYPES[t];
            SymmetricSegment seg = all.asSlice(t * 2 * 12 * 8L, 2 * 12 * 8L);
            int w = Values.width(type);
            writeLocal(s, seg, 12L * w, Values.array(type, me, 6, 12));   // second half: source of igets
            s.barrierAll();
            // src[1], src[3], src[5], src[7] -> elements 0, 3, 6, 9 of the first half on the right
            iput(s, seg, 0, 3, Values.array(type, me, 5, 10), 1, 2, 4, right);
            // elements 0, 3, 6, 9 of the right's second half -> got[1], got[3], got[5], got[7]
            Object got = Values.zeros(type, 8);
            iget(s, got, 1, 2, seg, 12L * w, 3, 4, right);
            report(me, "iget." + type, Values.str(got));
            s.barrierAll();
            report(me, "iput." + type, Values.str(readLocal(s, seg, 0, type, 12)));
        }
        // the segment forms with a layout: ints 2 apart from a segment to ints 1 apart on the right
        SymmetricSegment seg = s.calloc(6, 4);
        MemorySegment src = MemorySegment.ofArray(new int[] {me, -1, me + 10, -1, me + 20});
        s.iput(seg, 4, 1, src, 2, ValueLayout.JAVA_INT, 3, right);
        MemorySegment dst = MemorySegment.ofArray(new int[6]);
        s.barrierAll();
        s.iget(dst, 2, seg, 4, 1, ValueLayout.JAVA_INT, 3, right);
        report(me, "iputSeg", Arrays.toString(LocalCopy.read(s, seg).toArray(ValueLayout.JAVA_INT)));
        report(me, "igetSeg", Arrays.toString(dst.toArray(ValueLayout.JAVA_INT)));
        s.barrierAll();
        // blocked strides (OpenSHMEM 1.6): blocks of 2 ints, 3 apart in the source, 4 apart on the right
        SymmetricSegment blocks = s.calloc(12, 4);
        int[] nine = new int[9];
        Arrays.setAll(nine, i -> me * 100 + i);
        s.ibput(blocks, 0, 4, MemorySegment.ofArray(nine), 3, ValueLayout.JAVA_INT, 2, 3, right);
        s.barrierAll();
        MemorySegment gotBlocks = MemorySegment.ofArray(new int[10]);   // the right's ints 1-2, 5-6, 9-10, 3 apart
        s.ibget(gotBlocks, 3, blocks, 4, 4, ValueLayout.JAVA_INT, 2, 3, right);
        report(me, "ibput", Arrays.toString(LocalCopy.read(s, blocks).toArray(ValueLayout.JAVA_INT)));
        report(me, "ibget", Arrays.toString(gotBlocks.toArray(ValueLayout.JAVA_INT)));
        s.barrierAll();
        s.free(blocks);
        s.free(seg);
        s.free(all);
    }

    // ------------------------------------------------------------------ put with signal

    static void signals(Shmem s, int me, int n, int right, int left) {
        SymmetricSegment data = s.calloc(n + 8, 8);
        SymmetricSegment sig = s.calloc(6, 8);
        SymmetricSegment own = s.malloc(8);
        LocalCopy.writeLong(s, own, 0, 5000L + me);
        s.barrierAll();
        // SET, to the right: data longs 0 and 1, signal 0
        s.putSignal(data, 0, MemorySegment.ofArray(new long[] {me * 10L + 1, me * 10L + 2}), sig, 0, me + 100,
                SignalOp.SET, right);
        report(me, "sigSet.wait", s.signalWaitUntil(sig, 0, Cmp.EQ, left + 100));
        report(me, "sigSet.data", Arrays.toString(readLongs(s, data, 0, 2)));
        // ADD, to every PE: data long 8+me, signal 1 adds me+1
        for (int pe = 0; pe < n; pe++) {
            s.putSignal(data, 64 + 8L * me, MemorySegment.ofArray(new long[] {me + 7L}), sig, 8, me + 1, SignalOp.ADD, pe);
        }
        report(me, "sigAdd.wait", s.signalWaitUntil(sig, 8, Cmp.GE, (long) n * (n + 1) / 2));
        report(me, "sigAdd.data", Arrays.toString(readLongs(s, data, 64, n)));
        // non-blocking SET, to the left: data long 2, signal 2
        s.putSignalNbi(data, 16, MemorySegment.ofArray(new long[] {me * 3L}), sig, 16, me + 1, SignalOp.SET, left);
        s.quiet();
        report(me, "sigNbi.wait", s.signalWaitUntil(sig, 16, Cmp.GT, 0));
        report(me, "sigNbi.data", readLongs(s, data, 16, 1)[0]);
        // from this PE's symmetric memory, ADD 5 then ADD -2, to the right: data long 3, signal 3
        s.putSignal(data, 24, own, 0, 8, sig, 24, 5, SignalOp.ADD, right);
        s.putSignal(data, 32, own, 0, 8, sig, 24, -2, SignalOp.ADD, right);
        report(me, "sigSym.wait", s.signalWaitUntil(sig, 24, Cmp.EQ, 3));
        report(me, "sigSym.data", Arrays.toString(readLongs(s, data, 24, 2)));
        // signals are unsigned: -1 is 2^64-1, above 0; 2^63 (Long.MIN_VALUE) is above 2^63-1; left + 100 is below -1
        s.putSignal(data, 40, MemorySegment.ofArray(new long[] {me}), sig, 32, -1, SignalOp.SET, right);
        report(me, "sigUnsigned.gt", s.signalWaitUntil(sig, 32, Cmp.GT, 0));
        s.putSignal(data, 48, MemorySegment.ofArray(new long[] {me}), sig, 40, Long.MIN_VALUE, SignalOp.SET, right);
        report(me, "sigUnsigned.ge", s.signalWaitUntil(sig, 40, Cmp.GE, Long.MAX_VALUE));
        report(me, "sigUnsigned.lt", s.signalWaitUntil(sig, 0, Cmp.LT, -1));
        s.barrierAll();
        report(me, "signalFetch", List.of(s.signalFetch(sig, 0), s.signalFetch(sig, 8), s.signalFetch(sig, 16),
                s.signalFetch(sig, 24)));
        s.barrierAll();
        s.free(own);
        s.free(sig);
        s.free(data);
    }

    // ------------------------------------------------------------------ atomics

    static void atomics(Shmem s, int me, int n, int right) {
        SymmetricSegment fi = s.calloc(n, 4);       // fetching ops on int slot me at the right
        SymmetricSegment fl = s.calloc(n, 8);
        SymmetricSegment ni = s.calloc(n, 4);       // non-fetching ops on slot me at the right
        SymmetricSegment nl = s.calloc(n, 8);
        SymmetricSegment ci = s.calloc(16, 4);      // contended ints on PE 0
        SymmetricSegment cl = s.calloc(16, 8);      // contended longs on PE 0
        if (me == 0) {
            s.atomicSetInt(ci, 8, -1, 0);           // and-targets start all ones
            s.atomicSetInt(ci, 36, -1, 0);
            s.atomicSetLong(cl, 16, -1L, 0);
            s.atomicSetLong(cl, 72, -1L, 0);
        }
        s.barrierAll();

        long oi = 4L * me;
        List<Integer> si = new ArrayList<>();
        s.atomicSetInt(fi, oi, 1000 + me, right);
        si.add(s.atomicFetchInt(fi, oi, right));
        si.add(s.atomicSwapInt(fi, oi, 2000 + me, right));
        si.add(s.atomicCompareSwapInt(fi, oi, 1, 5, right));
        si.add(s.atomicCompareSwapInt(fi, oi, 2000 + me, 3000 + me, right));
        si.add(s.atomicFetchAddInt(fi, oi, 5, right));
        si.add(s.atomicFetchIncInt(fi, oi, right));
        si.add(s.atomicFetchAndInt(fi, oi, 0xFF0, right));
        si.add(s.atomicFetchOrInt(fi, oi, 0x10000, right));
        si.add(s.atomicFetchXorInt(fi, oi, 0x3, right));
        si.add(s.atomicFetchInt(fi, oi, right));
        report(me, "fetchInt.seq", si);

        long ol = 8L * me;
        List<Long> sl = new ArrayList<>();
        long big = 1L << 40;
        s.atomicSetLong(fl, ol, big + me, right);
        sl.add(s.atomicFetchLong(fl, ol, right));
        sl.add(s.atomicSwapLong(fl, ol, 2 * big + me, right));
        sl.add(s.atomicCompareSwapLong(fl, ol, 1, 5, right));
        sl.add(s.atomicCompareSwapLong(fl, ol, 2 * big + me, 3 * big + me, right));
        sl.add(s.atomicFetchAddLong(fl, ol, big, right));
        sl.add(s.atomicFetchIncLong(fl, ol, right));
        sl.add(s.atomicFetchAndLong(fl, ol, 0xFFFF_FFFF_F0L, right));
        sl.add(s.atomicFetchOrLong(fl, ol, 1L << 62, right));
        sl.add(s.atomicFetchXorLong(fl, ol, 0x3, right));
        sl.add(s.atomicFetchLong(fl, ol, right));
        report(me, "fetchLong.seq", sl);

        s.atomicSetInt(ni, oi, 7 + me, right);
        s.atomicAddInt(ni, oi, 10, right);
        s.atomicIncInt(ni, oi, right);
        s.atomicAndInt(ni, oi, 0x3E, right);
        s.atomicOrInt(ni, oi, 0x100, right);
        s.atomicXorInt(ni, oi, 0x3, right);
        s.atomicSetLong(nl, ol, big * 7 + me, right);
        s.atomicAddLong(nl, ol, big * 10, right);
        s.atomicIncLong(nl, ol, right);
        s.atomicAndLong(nl, ol, 0xFFFF_FFFF_FF3EL, right);
        s.atomicOrLong(nl, ol, 1L << 61, right);
        s.atomicXorLong(nl, ol, 0x3, right);

        // contended on PE 0; ints at ci offsets, longs at cl offsets
        s.atomicAddInt(ci, 0, me + 1, 0);
        s.atomicIncInt(ci, 0, 0);
        s.atomicOrInt(ci, 4, 1 << me, 0);
        s.atomicAndInt(ci, 8, ~(1 << me), 0);
        s.atomicXorInt(ci, 12, (1 << me) | (1 << 20), 0);
        int faI = s.atomicFetchAddInt(ci, 16, me + 1, 0);
        int fiI = s.atomicFetchIncInt(ci, 20, 0);
        int swI = s.atomicSwapInt(ci, 24, me + 1, 0);
        int csI = s.atomicCompareSwapInt(ci, 28, 0, me + 1, 0);
        int foI = s.atomicFetchOrInt(ci, 32, 1 << me, 0);
        int fnI = s.atomicFetchAndInt(ci, 36, ~(1 << me), 0);
        int fxI = s.atomicFetchXorInt(ci, 40, 1 << me, 0);
        s.atomicAddLong(cl, 0, (me + 1L) << 33, 0);
        s.atomicIncLong(cl, 0, 0);
        s.atomicOrLong(cl, 8, 1L << (32 + me), 0);
        s.atomicAndLong(cl, 16, ~(1L << (32 + me)), 0);
        s.atomicXorLong(cl, 24, (1L << (32 + me)) | (1L << 60), 0);
        long faL = s.atomicFetchAddLong(cl, 32, (me + 1L) << 33, 0);
        long fiL = s.atomicFetchIncLong(cl, 40, 0);
        long swL = s.atomicSwapLong(cl, 48, (me + 1L) << 33, 0);
        long csL = s.atomicCompareSwapLong(cl, 56, 0, (me + 1L) << 33, 0);
        long foL = s.atomicFetchOrLong(cl, 64, 1L << (32 + me), 0);
        long fnL = s.atomicFetchAndLong(cl, 72, ~(1L << (32 + me)), 0);
        long fxL = s.atomicFetchXorLong(cl, 80, 1L << (32 + me), 0);
        report(me, "cInt.fetched", List.of(faI, fiI, swI, csI, foI, fnI, fxI));
        report(me, "cLong.fetched", List.of(faL, fiL, swL, csL, foL, fnL, fxL));
        s.barrierAll();
        List<Integer> finI = new ArrayList<>();
        List<Long> finL = new ArrayList<>();
        for (int k = 0; k < 11; k++) {
            finI.add(s.atomicFetchInt(ci, 4L * k, 0));
            finL.add(s.atomicFetchLong(cl, 8L * k, 0));
        }
        report(me, "cInt.final", finI);
        report(me, "cLong.final", finL);
        int left = (me + n - 1) % n;
        report(me, "fetchInt.final", LocalCopy.readInt(s, fi, 4L * left));
        report(me, "fetchLong.final", LocalCopy.readLong(s, fl, 8L * left));
        report(me, "nofetchInt.final", LocalCopy.readInt(s, ni, 4L * left));
        report(me, "nofetchLong.final", LocalCopy.readLong(s, nl, 8L * left));
        s.barrierAll();
        for (SymmetricSegment seg : List.of(cl, ci, nl, ni, fl, fi)) {
            s.free(seg);
        }
    }

    // ------------------------------------------------------------------ fence and quiet

    static void ordering(Shmem s, int me, int right, int left) {
        SymmetricSegment seg = s.calloc(8, 8);
        s.put(seg, 0, new long[] {me + 1000L}, 0, 1, right);
        s.fence();
        s.put(seg, 8, new long[] {1}, 0, 1, right);
        s.waitUntilLong(seg, 8, Cmp.EQ, 1);
        report(me, "fence.data", readLongs(s, seg, 0, 1)[0]);
        s.putNbi(seg, 16, new long[] {me + 2000L}, 0, 1, left);
        s.quiet();
        s.atomicSetLong(seg, 24, 1, left);
        s.waitUntilLong(seg, 24, Cmp.EQ, 1);
        report(me, "quiet.data", readLongs(s, seg, 16, 1)[0]);
        s.putNbi(seg, 32, new long[] {me + 3000L}, 0, 1, right);   // pe_quiet (OpenSHMEM 1.6) for the right only
        s.peQuiet(right);
        s.atomicSetLong(seg, 40, 1, right);
        s.waitUntilLong(seg, 40, Cmp.EQ, 1);
        report(me, "peQuiet.data", readLongs(s, seg, 32, 1)[0]);
        s.barrierAll();
        s.free(seg);
    }

    // ------------------------------------------------------------------ waits and tests

    static void waits(Shmem s, int me, int n, int right, int left) {
        SymmetricSegment wi = s.calloc(n + 1, 4);   // slot n is never set
        SymmetricSegment wl = s.calloc(n + 1, 8);
        s.barrierAll();
        report(me, "before.int", List.of(s.testInt(wi, 0, Cmp.NE, 0), s.testAnyInt(wi, 0, n, null, Cmp.NE, 0),
                Arrays.toString(s.testSomeInt(wi, 0, n, null, Cmp.NE, 0)), s.testAllInt(wi, 0, n, null, Cmp.NE, 0)));
        report(me, "before.long", List.of(s.testLong(wl, 0, Cmp.NE, 0), s.testAnyLong(wl, 0, n, null, Cmp.NE, 0),
                Arrays.toString(s.testSomeLong(wl, 0, n, null, Cmp.NE, 0)), s.testAllLong(wl, 0, n, null, Cmp.NE, 0)));
        s.barrierAll();
        long big = 1L << 40;
        // only the left neighbour sets a slot here (slot left), so "any" and "some" have one answer
        s.atomicSetInt(wi, 4L * me, me + 1, right);
        s.atomicSetLong(wl, 8L * me, big + me, right);
        s.waitUntilInt(wi, 4L * left, Cmp.EQ, left + 1);
        s.waitUntilLong(wl, 8L * left, Cmp.GE, big + left);
        report(me, "one.int", List.of(s.waitUntilAnyInt(wi, 0, n, null, Cmp.NE, 0),
                Arrays.toString(s.waitUntilSomeInt(wi, 0, n, null, Cmp.GT, 0)),
                s.testAnyInt(wi, 0, n, null, Cmp.NE, 0), Arrays.toString(s.testSomeInt(wi, 0, n, null, Cmp.NE, 0)),
                s.testAllInt(wi, 0, n, null, Cmp.NE, 0), s.testInt(wi, 4L * left, Cmp.EQ, left + 1)));
        report(me, "one.long", List.of(s.waitUntilAnyLong(wl, 0, n, null, Cmp.NE, 0),
                Arrays.toString(s.waitUntilSomeLong(wl, 0, n, null, Cmp.GT, 0)),
                s.testAnyLong(wl, 0, n, null, Cmp.NE, 0), Arrays.toString(s.testSomeLong(wl, 0, n, null, Cmp.NE, 0)),
                s.testAllLong(wl, 0, n, null, Cmp.NE, 0), s.testLong(wl, 8L * left, Cmp.EQ, big + left)));
        s.barrierAll();
        // now every PE sets its slot on every PE
        for (int pe = 0; pe < n; pe++) {
            s.atomicSetInt(wi, 4L * me, me + 1, pe);
            s.atomicSetLong(wl, 8L * me, big + me, pe);
        }
        s.waitUntilAllInt(wi, 0, n, null, Cmp.GT, 0);
        s.waitUntilAllLong(wl, 0, n, null, Cmp.GE, big);
        boolean[] ignoreLast = new boolean[n + 1];
        ignoreLast[n] = true;
        s.waitUntilAllInt(wi, 0, n + 1, ignoreLast, Cmp.GT, 0);
        s.waitUntilAllLong(wl, 0, n + 1, ignoreLast, Cmp.GE, big);
        boolean[] ignoreLeft = new boolean[n + 1];
        ignoreLeft[left] = true;
        boolean[] ignoreLeftAndLast = ignoreLeft.clone();
        ignoreLeftAndLast[n] = true;
        report(me, "all.int", List.of(Arrays.toString(LocalCopy.read(s, wi).toArray(ValueLayout.JAVA_INT)),
                Arrays.toString(s.waitUntilSomeInt(wi, 0, n + 1, ignoreLeftAndLast, Cmp.GT, 0)),
                s.waitUntilAnyInt(wi, 0, n + 1, ignoreLast, Cmp.EQ, me + 1),
                s.testAllInt(wi, 0, n, null, Cmp.GT, 0), s.testAllInt(wi, 0, n + 1, null, Cmp.GT, 0),
                s.testAllInt(wi, 0, n + 1, ignoreLast, Cmp.GT, 0),
                Arrays.toString(s.testSomeInt(wi, 0, n + 1, ignoreLeft, Cmp.LE, 1)),
                s.testAnyInt(wi, 0, n + 1, ignoreLeft, Cmp.EQ, 0)));
        report(me, "all.long", List.of(Arrays.toString(LocalCopy.read(s, wl).toArray(ValueLayout.JAVA_LONG)),
                Arrays.toString(s.waitUntilSomeLong(wl, 0, n + 1, ignoreLeftAndLast, Cmp.GE, big)),
                s.waitUntilAnyLong(wl, 0, n + 1, ignoreLast, Cmp.EQ, big + me),
                s.testAllLong(wl, 0, n, null, Cmp.GE, big), s.testAllLong(wl, 0, n + 1, null, Cmp.GE, big),
                s.testAllLong(wl, 0, n + 1, ignoreLast, Cmp.GE, big),
                Arrays.toString(s.testSomeLong(wl, 0, n + 1, ignoreLeft, Cmp.LE, big)),
                s.testAnyLong(wl, 0, n + 1, ignoreLeft, Cmp.EQ, 0)));
        // every comparison on this PE's own slot (value me+1, resp. big+me)
        List<Boolean> ci = new ArrayList<>();
        List<Boolean> cl = new ArrayList<>();
        for (Cmp c : Cmp.values()) {
            for (int delta = -1; delta <= 1; delta++) {
                ci.add(s.testInt(wi, 4L * me, c, me + 1 + delta));
                cl.add(s.testLong(wl, 8L * me, c, big + me + delta));
            }
        }
        report(me, "cmp.int", ci);
        report(me, "cmp.long", cl);
        s.barrierAll();
        s.free(wl);
        s.free(wi);
    }

    // ------------------------------------------------------------------ barrierAll and syncAll

    static void barriers(Shmem s, int me, int n, int right) {
        SymmetricSegment seg = s.calloc(2, 8);
        long barrierSum = 0;
        long syncSum = 0;
        for (int r = 1; r <= 50; r++) {
            s.pLong(seg, 0, r * 100L + me, right);
            s.barrierAll();
            barrierSum += LocalCopy.readLong(s, seg, 0);
            s.barrierAll();
            s.put(seg, 8, new long[] {r * 1000L + me}, 0, 1, right);
            s.quiet();
            s.syncAll();
            syncSum += LocalCopy.readLong(s, seg, 8);
            s.syncAll();
        }
        report(me, "barrier.sum", barrierSum);
        report(me, "sync.sum", syncSum);
        s.free(seg);
    }

    // ------------------------------------------------------------------ typed dispatch

    static MemorySegment ofArray(Object a) {
        return switch (a) {
            case byte[] x -> MemorySegment.ofArray(x);
            case short[] x -> MemorySegment.ofArray(x);
            case int[] x -> MemorySegment.ofArray(x);
            case long[] x -> MemorySegment.ofArray(x);
            case float[] x -> MemorySegment.ofArray(x);
            case double[] x -> MemorySegment.ofArray(x);
            default -> throw new IllegalArgumentException();
        };
    }

    static Object toArray(MemorySegment m, String type) {
        return switch (type) {
            case "byte" -> m.toArray(ValueLayout.JAVA_BYTE);
            case "short" -> m.toArray(ValueLayout.JAVA_SHORT);
            case "int" -> m.toArray(ValueLayout.JAVA_INT);
            case "long" -> m.toArray(ValueLayout.JAVA_LONG);
            case "float" -> m.toArray(ValueLayout.JAVA_FLOAT);
            default -> m.toArray(ValueLayout.JAVA_DOUBLE);
        };
    }

    /** {@code count} elements of this PE's {@code seg} at byte {@code offset}, read with a get. */
    static Object readLocal(Shmem s, SymmetricSegment seg, long offset, String type, int count) {
        return toArray(LocalCopy.read(s, seg, offset, (long) count * Values.width(type)), type);
    }

    static long[] readLongs(Shmem s, SymmetricSegment seg, long offset, int count) {
        return LocalCopy.read(s, seg, offset, 8L * count).toArray(ValueLayout.JAVA_LONG);
    }

    /** Writes {@code array} to this PE's {@code seg} at byte {@code offset} (put and quiet). */
    static void writeLocal(Shmem s, SymmetricSegment seg, long offset, Object array) {
        LocalCopy.write(s, seg, offset, ofArray(array));
    }

    static void put(Shmem s, SymmetricSegment d, long off, Object a, int idx, int cnt, int pe, boolean nbi) {
        switch (a) {
            case byte[] x -> { if (nbi) s.putNbi(d, off, x, idx, cnt, pe); else s.put(d, off, x, idx, cnt, pe); }
            case short[] x -> { if (nbi) s.putNbi(d, off, x, idx, cnt, pe); else s.put(d, off, x, idx, cnt, pe); }
            case int[] x -> { if (nbi) s.putNbi(d, off, x, idx, cnt, pe); else s.put(d, off, x, idx, cnt, pe); }
            case long[] x -> { if (nbi) s.putNbi(d, off, x, idx, cnt, pe); else s.put(d, off, x, idx, cnt, pe); }
            case float[] x -> { if (nbi) s.putNbi(d, off, x, idx, cnt, pe); else s.put(d, off, x, idx, cnt, pe); }
            case double[] x -> { if (nbi) s.putNbi(d, off, x, idx, cnt, pe); else s.put(d, off, x, idx, cnt, pe); }
            default -> throw new IllegalArgumentException();
        }
    }

    static void get(Shmem s, Object a, int idx, int cnt, SymmetricSegment src, long off, int pe, boolean nbi) {
        switch (a) {
            case byte[] x -> { if (nbi) s.getNbi(x, idx, cnt, src, off, pe); else s.get(x, idx, cnt, src, off, pe); }
            case short[] x -> { if (nbi) s.getNbi(x, idx, cnt, src, off, pe); else s.get(x, idx, cnt, src, off, pe); }
            case int[] x -> { if (nbi) s.getNbi(x, idx, cnt, src, off, pe); else s.get(x, idx, cnt, src, off, pe); }
            case long[] x -> { if (nbi) s.getNbi(x, idx, cnt, src, off, pe); else s.get(x, idx, cnt, src, off, pe); }
            case float[] x -> { if (nbi) s.getNbi(x, idx, cnt, src, off, pe); else s.get(x, idx, cnt, src, off, pe); }
            case double[] x -> { if (nbi) s.getNbi(x, idx, cnt, src, off, pe); else s.get(x, idx, cnt, src, off, pe); }
            default -> throw new IllegalArgumentException();
        }
    }

    static void iput(Shmem s, SymmetricSegment d, long off, long dStride, Object a, int idx, long sStride, int n, int pe) {
        switch (a) {
            case byte[] x -> s.iput(d, off, dStride, x, idx, sStride, n, pe);
            case short[] x -> s.iput(d, off, dStride, x, idx, sStride, n, pe);
            case int[] x -> s.iput(d, off, dStride, x, idx, sStride, n, pe);
            case long[] x -> s.iput(d, off, dStride, x, idx, sStride, n, pe);
            case float[] x -> s.iput(d, off, dStride, x, idx, sStride, n, pe);
            case double[] x -> s.iput(d, off, dStride, x, idx, sStride, n, pe);
            default -> throw new IllegalArgumentException();
        }
    }

    static void iget(Shmem s, Object a, int idx, long dStride, SymmetricSegment src, long off, long sStride, int n, int pe) {
        switch (a) {
            case byte[] x -> s.iget(x, idx, dStride, src, off, sStride, n, pe);
            case short[] x -> s.iget(x, idx, dStride, src, off, sStride, n, pe);
            case int[] x -> s.iget(x, idx, dStride, src, off, sStride, n, pe);
            case long[] x -> s.iget(x, idx, dStride, src, off, sStride, n, pe);
            case float[] x -> s.iget(x, idx, dStride, src, off, sStride, n, pe);
            case double[] x -> s.iget(x, idx, dStride, src, off, sStride, n, pe);
            default -> throw new IllegalArgumentException();
        }
    }
}
