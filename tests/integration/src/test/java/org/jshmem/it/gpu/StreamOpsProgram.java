package org.jshmem.it.gpu;

import static org.jshmem.it.PeProgram.report;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.jshmem.Cmp;
import org.jshmem.RegisteredBuffer;
import org.jshmem.DType;
import org.jshmem.Shmem;
import org.jshmem.ShmemEvent;
import org.jshmem.ShmemStateException;
import org.jshmem.ShmemStream;
import org.jshmem.SignalOp;
import org.jshmem.SymmetricSegment;
import org.jshmem.gpu.shim.Shim;

/**
 * Runs on every PE of a GPU job: the on-stream operations. Each check fills buffers with a
 * pattern that names the writer, moves them on a stream, and reports how many longs differ from
 * what must have arrived (the test asserts 0) and a checksum (the test computes its own).
 */
public final class StreamOpsProgram {
    static long pattern(int pe, long i, int salt) {
        return pe * 1_000_000_007L + i * 31 + salt;
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init(); ShmemStream stream = shmem.createStream();
             ShmemEvent start = shmem.createEvent(); ShmemEvent end = shmem.createEvent()) {
            int me = shmem.myPe();
            int n = shmem.nPes();
            int right = (me + 1) % n;
            int left = (me - 1 + n) % n;
            report(me, "describe", shmem.describe().replace(' ', '_'));
            long[] sizes = {8, 4096, (1 << 20) + 24, 16L << 20};
            long max = sizes[sizes.length - 1];
            SymmetricSegment src = shmem.malloc(max);
            SymmetricSegment dst = shmem.malloc(max);
            SymmetricSegment sig = shmem.calloc(4, Long.BYTES);
            int salt = 0;
            for (long bytes : sizes) {
                int count = (int) (bytes / Long.BYTES);
                // putOnStream: my src -> right's dst
                salt++;
                fill(shmem, src, count, me, salt);
                shmem.barrierAll();
                stream.record(start);
                shmem.putOnStream(dst, 0, src, 0, bytes, right, stream);
                shmem.barrierAllOnStream(stream);
                stream.record(end);
                stream.synchronize();
                report(me, "put." + bytes + ".mismatches", mismatches(shmem, dst, count, left, salt));
                report(me, "put." + bytes + ".elapsedNonNegative", end.elapsedMillisSince(start) >= 0);
                shmem.barrierAll();
                // getOnStream: left's src -> my dst
                salt++;
                fill(shmem, src, count, me, salt);
                shmem.barrierAll();
                shmem.getOnStream(dst, 0, src, 0, bytes, left, stream);
                shmem.quietOnStream(stream);
                stream.synchronize();
                report(me, "get." + bytes + ".mismatches", mismatches(shmem, dst, count, left, salt));
                shmem.barrierAll();
            }
            // put-with-signal ring on the stream, 100 rounds; each round waits for the left's signal
            int rounds = 100;
            int count = 4096 / Long.BYTES;
            for (int r = 1; r <= rounds; r++) {
                fill(shmem, src, count, me, 1000 + r);   // host-blocking: src holds round r's data
                shmem.putSignalOnStream(dst, 0, src, 0, 4096, sig, 0, r, SignalOp.SET, right, stream);
                shmem.signalWaitUntilOnStream(sig, 0, Cmp.GE, r, stream);
                stream.synchronize();
                shmem.barrierAll();   // nobody refills src before every PE's round-r put has landed
            }
            report(me, "ring.signal", shmem.signalFetch(sig, 0));
            report(me, "ring.mismatches", mismatches(shmem, dst, count, left, 1000 + rounds));
            // ADD signals from every PE into PE 0, waited for with a comparison the stream API lacks (NE -> kernel)
            shmem.putSignalOnStream(dst, 0, src, 0, 8, sig, 8, me + 1, SignalOp.ADD, 0, stream);
            if (me == 0) {
                shmem.signalWaitUntilOnStream(sig, 8, Cmp.NE, 0, stream);
                shmem.signalWaitUntilOnStream(sig, 8, Cmp.GE, (long) n * (n + 1) / 2, stream);
            }
            stream.synchronize();
            shmem.barrierAll();
            report(me, "add.signal", shmem.signalFetch(sig, 8));
            // signals are unsigned on the stream too: the left sets 2^64-1 and 2^63, above every value below them
            shmem.signalOpOnStream(sig, 16, -1, SignalOp.SET, right, stream);
            shmem.signalOpOnStream(sig, 24, Long.MIN_VALUE, SignalOp.SET, right, stream);
            shmem.signalWaitUntilOnStream(sig, 16, Cmp.GT, 0, stream);                   // a kernel
            shmem.signalWaitUntilOnStream(sig, 16, Cmp.GE, 4, stream);                   // in the stream, by mask
            shmem.signalWaitUntilOnStream(sig, 16, Cmp.GE, Long.MIN_VALUE + 1, stream);  // a kernel (2^63 + 1)
            shmem.signalWaitUntilOnStream(sig, 24, Cmp.GE, 3, stream);                   // in the stream, cyclic
            shmem.signalWaitUntilOnStream(sig, 24, Cmp.GE, Long.MAX_VALUE, stream);      // in the stream, cyclic
            shmem.signalWaitUntilOnStream(sig, 24, Cmp.LT, -1, stream);                  // a kernel
            stream.synchronize();
            shmem.barrierAll();
            report(me, "unsigned.signals", shmem.signalFetch(sig, 16) + "," + shmem.signalFetch(sig, 24));
            // p and signalOp on the stream: the values are taken at enqueue, written when the stream gets there
            SymmetricSegment words = shmem.calloc(4, Long.BYTES);
            shmem.pIntOnStream(words, 0, 1000 + me, right, stream);
            shmem.pFloatOnStream(words, 4, me + 0.5f, right, stream);
            shmem.pLongOnStream(words, 8, (1L << 40) + me, right, stream);
            shmem.pDoubleOnStream(words, 16, me + 0.25, right, stream);
            shmem.signalOpOnStream(words, 24, 7, SignalOp.SET, right, stream);
            shmem.signalOpOnStream(words, 24, me + 1, SignalOp.ADD, right, stream);
            shmem.barrierAllOnStream(stream);
            stream.synchronize();
            report(me, "p.int", shmem.gInt(words, 0, me));
            report(me, "p.float", shmem.gFloat(words, 4, me));
            report(me, "p.long", shmem.gLong(words, 8, me));
            report(me, "p.double", shmem.gDouble(words, 16, me));
            report(me, "signalOp.onStream", shmem.signalFetch(words, 24));
            shmem.barrierAll();
            registeredBuffer(shmem, stream, src, dst);
            backToBack(shmem, stream, src, dst);
            blockStridedPut(shmem, stream, src, dst);
            signalledGather(shmem, stream, src, dst);
            // back-to-back barriers on the stream
            for (int i = 0; i < 1000; i++) {
                shmem.barrierAllOnStream(stream);
            }
            stream.synchronize();
            report(me, "barriers", "done");
        }
    }

    /**
     * Device memory outside the heap as the local side of on-stream copies: each PE gets its left
     * neighbour's src into a registered buffer, then puts the buffer into its right neighbour's dst,
     * so PE p's dst ends with PE p-2's pattern. Then the registration errors.
     */
    private static void registeredBuffer(Shmem shmem, ShmemStream stream, SymmetricSegment src, SymmetricSegment dst) {
        int me = shmem.myPe();
        int n = shmem.nPes();
        long bytes = (1 << 20) + 24;
        int count = (int) (bytes / Long.BYTES);
        MemorySegment device = Shim.heapAlloc(bytes + 4096);   // plain device memory, not the symmetric heap
        try {
            fill(shmem, src, count, me, 77);
            shmem.barrierAll();
            try (RegisteredBuffer buf = shmem.registerBuffer(device.reinterpret(bytes + 4096))) {
                shmem.getOnStream(buf, 4096, src, 0, bytes, (me - 1 + n) % n, stream);
                shmem.putOnStream(dst, 0, buf, 4096, bytes, (me + 1) % n, stream);
                shmem.barrierAllOnStream(stream);
                stream.synchronize();
                report(me, "registered.mismatches", mismatches(shmem, dst, count, (me - 2 + 2 * n) % n, 77));
                report(me, "registered.outOfBounds", thrown(IndexOutOfBoundsException.class,
                        () -> shmem.putOnStream(dst, 0, buf, 4097, bytes, me, stream), "is outside"));
                report(me, "registered.overlap", thrown(IllegalArgumentException.class,
                        () -> shmem.registerBuffer(device.reinterpret(64)), "overlaps registered device buffer"));
                report(me, "registered.heap", thrown(IllegalArgumentException.class,
                        () -> shmem.registerBuffer(shmem.deviceAddress(src, 0).reinterpret(64)),
                        "overlaps this PE's symmetric heap"));
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment host = arena.allocate(64);
                    report(me, "registered.host", thrown(IllegalArgumentException.class,
                            () -> shmem.registerBuffer(host), "is host memory"));
                }
                buf.close();
                report(me, "registered.afterClose", thrown(ShmemStateException.class,
                        () -> shmem.putOnStream(dst, 0, buf, 0, 8, me, stream), "was unregistered"));
            }
            shmem.barrierAll();
        } finally {
            Shim.heapFree(device);
        }
    }

    /** "ok" if {@code call} throws {@code type} with a message containing {@code text}, else what happened. */
    private static String thrown(Class<? extends RuntimeException> type, Runnable call, String text) {
        try {
            call.run();
            return "returned_normally";
        } catch (RuntimeException e) {
            return type.isInstance(e) && e.getMessage().contains(text) ? "ok"
                    : (e.getClass().getSimpleName() + ":" + e.getMessage()).replace(' ', '_');
        }
    }

    /**
     * Team.fcollectSignalOnStream: 1 MiB from every PE, each block checked and its signal set to
     * the call's value; then again in place (src = this PE's block of dest) with the next value.
     */
    private static void signalledGather(Shmem shmem, ShmemStream stream, SymmetricSegment src, SymmetricSegment dst) {
        int me = shmem.myPe(), n = shmem.nPes(), count = (1 << 20) / Long.BYTES;
        SymmetricSegment sigs = shmem.calloc(n, Long.BYTES);
        long bad = 0, signalled = 0;
        try (ShmemEvent entered = shmem.createEvent()) {
            for (int round = 1; round <= 2; round++) {
                SymmetricSegment from = round == 1 ? src : dst.asSlice((long) me * count * Long.BYTES, (long) count * Long.BYTES);
                fill(shmem, from, count, me, 70 + round);
                shmem.barrierAll();
                shmem.teamWorld().fcollectSignalOnStream(dst, from, count, DType.LONG, sigs, 10 + round, stream, entered);
                stream.synchronize();
                entered.synchronize();
                long[] v = new long[count];
                for (int q = 0; q < n; q++) {
                    shmem.get(v, 0, count, dst, (long) q * count * Long.BYTES, me);
                    for (int i = 0; i < count; i++) {
                        bad += v[i] == pattern(q, i, 70 + round) ? 0 : 1;
                    }
                    signalled += shmem.gLong(sigs, (long) q * Long.BYTES, me) == 10 + round ? 1 : 0;
                }
                shmem.barrierAll();
            }
        }
        report(me, "gather.mismatches", bad);
        report(me, "gather.signalled", signalled);
        othersGather(shmem, stream, src, dst, sigs, count);
        shmem.free(sigs);
    }

    /**
     * ibputOnStream: a 33-row rectangle of 40 longs per row, rows 64 longs apart in src and 100 in
     * the right neighbour's dst (from long 5 on), which was filled with -1 first: the rows arrive,
     * the gaps between them stay -1. Then a stride below the block size is refused.
     */
    private static void blockStridedPut(Shmem shmem, ShmemStream stream, SymmetricSegment src, SymmetricSegment dst) {
        int me = shmem.myPe(), n = shmem.nPes(), right = (me + 1) % n, left = (me - 1 + n) % n;
        int rows = 33, width = 40, srcPitch = 64, dstPitch = 100, at = 5, span = at + rows * dstPitch;
        fill(shmem, src, rows * srcPitch, me, 90);
        long[] minusOne = new long[span];
        java.util.Arrays.fill(minusOne, -1);
        shmem.put(dst, 0, minusOne, 0, span, me);
        shmem.quiet();
        shmem.barrierAll();
        shmem.ibputOnStream(dst, at * 8L, dstPitch * 8L, src, 0, srcPitch * 8L, width * 8L, rows, right, stream);
        shmem.barrierAllOnStream(stream);
        stream.synchronize();
        long[] v = new long[span];
        shmem.get(v, 0, span, dst, 0, me);
        long bad = 0;
        for (int i = 0; i < span; i++) {
            int row = (i - at) / dstPitch, col = (i - at) % dstPitch;
            boolean copied = i >= at && col < width;
            bad += v[i] == (copied ? pattern(left, (long) row * srcPitch + col, 90) : -1) ? 0 : 1;
        }
        report(me, "ibput.mismatches", bad);
        try {
            shmem.ibputOnStream(dst, 0, 8, src, 0, 64, 16, 2, right, stream);
            report(me, "ibput.overlap", "not refused");
        } catch (IllegalArgumentException e) {
            report(me, "ibput.overlap", e.getMessage().contains("stride at least the block size") ? "ok" : e.getMessage());
        }
        shmem.barrierAll();
    }

    /**
     * Team.collectOthersSignalOnStream after signalledGather's in-place round: the others' blocks
     * arrive from their src with the new signal value; this PE's block keeps the in-place round's
     * data and its signal that round's value.
     */
    private static void othersGather(Shmem shmem, ShmemStream stream, SymmetricSegment src, SymmetricSegment dst,
                                     SymmetricSegment sigs, int count) {
        int me = shmem.myPe(), n = shmem.nPes();
        long[] counts = new long[n];
        java.util.Arrays.fill(counts, count);
        fill(shmem, src, count, me, 73);
        shmem.barrierAll();
        try (ShmemEvent entered = shmem.createEvent()) {
            shmem.teamWorld().collectOthersSignalOnStream(dst, src, counts, DType.LONG, sigs, 13, stream, entered);
            stream.synchronize();
        }
        long bad = 0, signalled = 0;
        long[] v = new long[count];
        for (int q = 0; q < n; q++) {
            int salt = q == me ? 72 : 73;
            shmem.get(v, 0, count, dst, (long) q * count * Long.BYTES, me);
            for (int i = 0; i < count; i++) {
                bad += v[i] == pattern(q, i, salt) ? 0 : 1;
            }
            signalled += shmem.gLong(sigs, (long) q * Long.BYTES, me) == (q == me ? 12 : 13) ? 1 : 0;
        }
        shmem.barrierAll();
        report(me, "gather.others.mismatches", bad);
        report(me, "gather.others.signals", signalled);
    }

    /**
     * Copies back to back on one stream keep their order: each PE puts two different blocks of 1 MiB
     * (sizes that run as a chained SM kernel between GPUs) into the same place of its right
     * neighbour's dst, then gets that place back into the second half of its own dst. It must read
     * the second block.
     */
    private static void backToBack(Shmem shmem, ShmemStream stream, SymmetricSegment src, SymmetricSegment dst) {
        int me = shmem.myPe();
        int right = (me + 1) % shmem.nPes();
        long bytes = 1 << 20;
        int count = (int) (bytes / Long.BYTES);
        fill(shmem, src, 0, count, me, 7001);
        fill(shmem, src, bytes, count, me, 7002);
        shmem.barrierAll();
        shmem.putOnStream(dst, 0, src, 0, bytes, right, stream);
        shmem.putOnStream(dst, 0, src, bytes, bytes, right, stream);
        shmem.getOnStream(dst, bytes, dst, 0, bytes, right, stream);
        shmem.quietOnStream(stream);
        stream.synchronize();
        report(me, "backToBack.mismatches", mismatches(shmem, dst, bytes, count, me, 7002));
        shmem.barrierAll();
    }

    private static void fill(Shmem shmem, SymmetricSegment seg, int count, int pe, int salt) {
        fill(shmem, seg, 0, count, pe, salt);
    }

    /** Fills {@code count} longs of {@code seg} from byte {@code offset} with PE {@code pe}'s pattern. */
    private static void fill(Shmem shmem, SymmetricSegment seg, long offset, int count, int pe, int salt) {
        long[] v = new long[count];
        for (int i = 0; i < count; i++) {
            v[i] = pattern(pe, i, salt);
        }
        shmem.put(seg, offset, v, 0, count, shmem.myPe());
        shmem.quiet();
    }

    private static long mismatches(Shmem shmem, SymmetricSegment seg, int count, int from, int salt) {
        return mismatches(shmem, seg, 0, count, from, salt);
    }

    /** How many of {@code count} longs of {@code seg} from byte {@code offset} differ from PE {@code from}'s pattern. */
    private static long mismatches(Shmem shmem, SymmetricSegment seg, long offset, int count, int from, int salt) {
        long[] v = new long[count];
        shmem.get(v, 0, count, seg, offset, shmem.myPe());
        long bad = 0;
        for (int i = 0; i < count; i++) {
            bad += v[i] == pattern(from, i, salt) ? 0 : 1;
        }
        return bad;
    }
}
