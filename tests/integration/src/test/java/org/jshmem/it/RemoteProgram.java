package org.jshmem.it;

import static org.jshmem.it.PeProgram.report;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import org.jshmem.Cmp;
import org.jshmem.Shmem;
import org.jshmem.SignalOp;
import org.jshmem.SymmetricSegment;

/**
 * What the remote transport must get right beyond the API suite, on every PE of a job whose peers
 * are (partly) remote: the node each PE sees; {@code ptr} present only for PEs of its node; a
 * target that spins in a plain Java loop on its own memory, outside jshmem and MPI, still seeing
 * remote atomics and put-with-signal (the progress thread); atomics of every PE at once on one
 * word (remote ones through MPI, node-local ones in shared memory) losing no update; and
 * put-with-signal ordering: who sees the signal sees the data.
 */
public final class RemoteProgram {
    static final int ADDS = 2000;
    static final int WORDS = 4096;
    static final int ROUNDS = 50;
    /** PE 0's increments against the others' compare-and-swap: bursts of BURST, GAP_NANOS apart, for INTERFERE_NANOS at most. */
    static final int BURST = 32;
    static final long GAP_NANOS = 2_000_000L;
    static final long INTERFERE_NANOS = 5_000_000_000L;

    /** One compare-and-swap increment of the int at {@code offset} of PE 0; 1 if it took. */
    private static int casIncrement(Shmem s, SymmetricSegment words, long offset) {
        int old = s.atomicFetchInt(words, offset, 0);
        return s.atomicCompareSwapInt(words, offset, old, old + 1, 0) == old ? 1 : 0;
    }

    public static void main(String[] args) {
        try (Shmem s = Shmem.init()) {
            int me = s.myPe();
            int n = s.nPes();
            report(me, "describe", s.describe());
            report(me, "pid", ProcessHandle.current().pid());
            report(me, "sharedTeam", s.teamShared().nPes());
            SymmetricSegment words = s.calloc(8, 8);
            StringBuilder ptr = new StringBuilder();
            for (int pe = 0; pe < n; pe++) {
                ptr.append(s.ptr(words, pe).isPresent() ? 'y' : 'n');
            }
            report(me, "ptr", ptr);

            // 1. PE 0 spins on its own memory in plain Java (no jshmem call, no MPI call) while the
            //    last PE adds to it and swaps it remotely: the progress thread must apply them.
            int last = n - 1;
            s.barrierAll();
            if (me == 0 && n > 1) {
                MemorySegment mine = words.local();
                long t0 = System.nanoTime();
                while ((long) VH.getAcquire(mine, 0L) != 3 || (long) VH.getAcquire(mine, 8L) == 0) {
                    Thread.onSpinWait();
                    if (System.nanoTime() - t0 > 20_000_000_000L) {
                        break;
                    }
                }
                report(me, "spinSawAtomics", mine.get(ValueLayout.JAVA_LONG, 0));
                report(me, "spinCasOld", mine.get(ValueLayout.JAVA_LONG, 8));
            } else if (me == last) {
                s.atomicAddLong(words, 0, 1, 0);
                long old = s.atomicCompareSwapLong(words, 0, 1, 3, 0);
                s.atomicSetLong(words, 8, old, 0);
            }
            s.barrierAll();

            // 2. Every PE adds to PE 0's word 2 and int 8 (ADDS times), and by compare-and-swap to word 3
            //    (ADDS / 10 times).
            for (int i = 0; i < ADDS; i++) {
                s.atomicFetchAddLong(words, 16, 1, 0);
                s.atomicAddInt(words, 32, 1, 0);
            }
            for (int done = 0; done < ADDS / 10; ) {
                long old = s.atomicFetchLong(words, 24, 0);
                if (s.atomicCompareSwapLong(words, 24, old, old + 1, 0) == old) {
                    done++;
                }
            }
            // Ints too, with PE 0 incrementing its own int (CPU atomics) while the others run: Open MPI's
            // 4-byte compare-and-swap is not atomic with the target's CPU atomics. A remote increment
            // needs PE 0's int unchanged from its fetch to its swap, two visits of PE 0's progress
            // thread apart (JSHMEM_REMOTE_PROGRESS_US): PE 0 leaves such gaps between bursts, and stands
            // aside after INTERFERE_NANOS, or on a machine with idle cores the others could never win.
            long ownIncrements = 0;
            if (me == 0) {
                long start = System.nanoTime();
                for (int i = 0; s.atomicFetchInt(words, 40, 0) < n - 1; i++) {
                    if (System.nanoTime() - start < INTERFERE_NANOS) {
                        ownIncrements += casIncrement(s, words, 36);
                    }
                    if (i % BURST == BURST - 1) {
                        LockSupport.parkNanos(GAP_NANOS);
                    } else {
                        for (long t = System.nanoTime(); System.nanoTime() - t < 2_000; ) {
                            Thread.onSpinWait();
                        }
                    }
                }
            } else {
                for (int done = 0; done < ADDS / 10; ) {
                    done += casIncrement(s, words, 36);
                }
                s.atomicAddInt(words, 40, 1, 0);
            }
            s.barrierAll();
            if (me == 0) {
                report(me, "sumAdds", words.local().get(ValueLayout.JAVA_LONG, 16));
                report(me, "sumIntAdds", words.local().get(ValueLayout.JAVA_INT, 32));
                report(me, "sumCas", words.local().get(ValueLayout.JAVA_LONG, 24));
                report(me, "sumIntCas", words.local().get(ValueLayout.JAVA_INT, 36));
                report(me, "intCasExpected", (long) (n - 1) * (ADDS / 10) + ownIncrements);
            }

            // 3. Put with signal around the ring, ROUNDS times: the data must be there with the signal.
            SymmetricSegment data = s.calloc(WORDS, 8);
            SymmetricSegment sig = s.calloc(1, 8);
            int right = (me + 1) % n;
            long bad = 0;
            long[] block = new long[WORDS];
            for (int round = 1; round <= ROUNDS; round++) {
                for (int i = 0; i < WORDS; i++) {
                    block[i] = (long) round * 1_000_000 + me * 10_000 + i;
                }
                s.putSignalNbi(data, 0, MemorySegment.ofArray(block), sig, 0, round, SignalOp.SET, right);
                s.signalWaitUntil(sig, 0, Cmp.GE, round);
                int left = (me + n - 1) % n;
                MemorySegment got = data.local();
                for (int i = 0; i < WORDS; i++) {
                    if (got.getAtIndex(ValueLayout.JAVA_LONG, i) != (long) round * 1_000_000 + left * 10_000 + i) {
                        bad++;
                    }
                }
                s.quiet();
                s.barrierAll();   // the left PE may overwrite data only after this PE read it
            }
            report(me, "signalDataMismatches", bad);

            // 4. Fence: a put, a fence, a put to another word of the same PE: the second seen implies the first.
            SymmetricSegment two = s.calloc(2, 8);
            s.barrierAll();
            if (me == last) {
                for (long v = 1; v <= 200; v++) {
                    s.pLong(two, 0, v, 0);
                    s.fence();
                    s.pLong(two, 8, v, 0);
                }
            } else if (me == 0) {
                long violations = 0;
                MemorySegment l = two.local();
                for (long seen = 0; seen < 200; ) {
                    long second = (long) VH.getAcquire(l, 8L);
                    long first = (long) VH.getAcquire(l, 0L);
                    if (first < second) {
                        violations++;
                    }
                    seen = second;
                    s.testLong(two, 8, Cmp.GE, 200);   // a jshmem call now and then drives progress too
                }
                report(me, "fenceViolations", violations);
            }
            // strided transfers of no elements to another node return at once (no request, no answer to wait for)
            int other = (me + 1) % s.nPes();
            s.iput(two, 0, 1, MemorySegment.ofArray(new long[1]), 1, ValueLayout.JAVA_LONG, 0, other);
            s.iget(MemorySegment.ofArray(new long[1]), 1, two, 0, 1, ValueLayout.JAVA_LONG, 0, other);
            report(me, "emptyStrided", "returned");
            s.barrierAll();
            report(me, "done", "yes");
        }
    }

    private static final VarHandle VH = ValueLayout.JAVA_LONG.varHandle();
}
