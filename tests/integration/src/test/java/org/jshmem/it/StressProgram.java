package org.jshmem.it;

import static org.jshmem.it.PeProgram.report;

import java.lang.foreign.MemorySegment;
import org.jshmem.Cmp;
import org.jshmem.Shmem;
import org.jshmem.SignalOp;
import org.jshmem.SymmetricSegment;

/**
 * Long runs that must stay exact: {@code fence ROUNDS} (data, fence, flag; the receiver checks the
 * data once it sees the flag), {@code ring ROUNDS} (put-with-signal around the ring), {@code fadd
 * ROUNDS} (every PE fetch-adds PE 0's counters). Each PE reports counts of mismatches and sums of
 * what it received, which {@link StressTest} computes itself.
 */
public final class StressProgram {
    static final int FENCE_WORDS = 32;
    static final int RING_WORDS = 4;
    static final int RING_SLOTS = 8;    // >= nPes: a PE is never more than nPes-1 rounds ahead of its right

    public static void main(String[] args) {
        String mode = args[0];
        int rounds = Integer.parseInt(args[1]);
        try (Shmem shmem = Shmem.init()) {
            switch (mode) {
                case "fence" -> fence(shmem, rounds);
                case "ring" -> ring(shmem, rounds);
                case "fadd" -> fetchAdd(shmem, rounds);
                default -> throw new IllegalArgumentException(mode);
            }
        }
    }

    /** Word {@code i} that PE {@code pe} sends in round {@code r} of the fence test. */
    static long fenceWord(int pe, int r, int i) {
        return pe * 1_000_000_000L + r * 64L + i;
    }

    static void fence(Shmem s, int rounds) {
        int me = s.myPe();
        int n = s.nPes();
        int right = (me + 1) % n;
        int left = (me + n - 1) % n;
        SymmetricSegment data = s.calloc(FENCE_WORDS, 8);
        SymmetricSegment flag = s.calloc(1, 8);
        SymmetricSegment ack = s.calloc(1, 8);
        long[] out = new long[FENCE_WORDS];
        long[] one = new long[1];
        long[] in = new long[FENCE_WORDS];                    // this PE's data words, one get per round
        long mismatches = 0;
        long sum = 0;
        for (int r = 1; r <= rounds; r++) {
            s.waitUntilLong(ack, 0, Cmp.GE, r - 1);          // the right has checked round r-1
            for (int i = 0; i < FENCE_WORDS; i++) {
                out[i] = fenceWord(me, r, i);
            }
            s.put(data, 0, out, 0, FENCE_WORDS, right);
            s.fence();
            one[0] = r;
            s.put(flag, 0, one, 0, 1, right);                 // a plain put: only the fence orders it
            s.waitUntilLong(flag, 0, Cmp.EQ, r);
            s.get(in, 0, FENCE_WORDS, data, 0, me);
            for (int i = 0; i < FENCE_WORDS; i++) {
                long v = in[i];
                mismatches += v == fenceWord(left, r, i) ? 0 : 1;
                sum += v;
            }
            s.atomicSetLong(ack, 0, r, left);
        }
        report(me, "fence.mismatches", mismatches);
        report(me, "fence.sum", sum);
    }

    /** Word {@code i} that PE {@code pe} sends in round {@code r} of the ring. */
    static long ringWord(int pe, int r, int i) {
        return pe * 1_000_000_000_000L + r * 8L + i;
    }

    static void ring(Shmem s, int rounds) {
        int me = s.myPe();
        int n = s.nPes();
        int right = (me + 1) % n;
        int left = (me + n - 1) % n;
        SymmetricSegment inbox = s.calloc((long) RING_SLOTS * RING_WORDS, 8);
        SymmetricSegment signal = s.calloc(1, 8);
        long[] out = new long[RING_WORDS];
        MemorySegment src = MemorySegment.ofArray(out);
        long[] in = new long[RING_WORDS];                     // this PE's slot of the round, one get per round
        long mismatches = 0;
        long sum = 0;
        long lastSignal = 0;
        for (int r = 1; r <= rounds; r++) {
            long slot = (long) (r % RING_SLOTS) * RING_WORDS;
            for (int i = 0; i < RING_WORDS; i++) {
                out[i] = ringWord(me, r, i);
            }
            s.putSignal(inbox, slot * 8, src, signal, 0, r, SignalOp.SET, right);
            lastSignal = s.signalWaitUntil(signal, 0, Cmp.GE, r);
            s.get(in, 0, RING_WORDS, inbox, slot * 8, me);
            for (int i = 0; i < RING_WORDS; i++) {
                long v = in[i];
                mismatches += v == ringWord(left, r, i) ? 0 : 1;
                sum += v;
            }
        }
        s.barrierAll();
        report(me, "ring.mismatches", mismatches);
        report(me, "ring.sum", sum);
        report(me, "ring.signal", s.signalFetch(signal, 0));
        long[] last = new long[RING_WORDS];
        s.get(last, 0, RING_WORDS, inbox, (long) (rounds % RING_SLOTS) * RING_WORDS * 8, me);
        report(me, "ring.last", java.util.Arrays.toString(last));
    }

    static void fetchAdd(Shmem s, int rounds) {
        int me = s.myPe();
        SymmetricSegment counters = s.calloc(2, 8);
        s.barrierAll();
        long unit = 1 + (1L << 32);
        long sumInt = 0;
        long sumLong = 0;
        long outOfOrder = 0;
        int prevInt = -1;
        long prevLong = -1;
        for (int r = 0; r < rounds; r++) {
            int vi = s.atomicFetchAddInt(counters, 0, 1, 0);
            long vl = s.atomicFetchAddLong(counters, 8, unit, 0);
            outOfOrder += (vi > prevInt ? 0 : 1) + (vl > prevLong ? 0 : 1);
            prevInt = vi;
            prevLong = vl;
            sumInt += vi;
            sumLong += vl / unit;
            outOfOrder += vl % unit == 0 ? 0 : 1;
        }
        s.barrierAll();
        report(me, "fadd.outOfOrder", outOfOrder);
        report(me, "fadd.intSum", sumInt);
        report(me, "fadd.longSum", sumLong);
        report(me, "fadd.intTotal", s.atomicFetchInt(counters, 0, 0));
        report(me, "fadd.longTotal", s.atomicFetchLong(counters, 8, 0));
    }
}
