package org.jshmem.examples;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jshmem.Cmp;
import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.Shmem;
import org.jshmem.SignalOp;
import org.jshmem.SymmetricSegment;

/**
 * The demo: a ring of put-with-signal, then a sum over all PEs. Each PE sends a block of
 * numbers to its right neighbour with a signal, waits for the block from its left, passes the
 * block on, and after a full round every block has visited every PE; then each PE adds its
 * result into PE 0's total with an atomic, and finally the world team sums every PE's blocks
 * element by element with a reduction, which every PE checks.
 * Run: {@code bin/jshmemrun -np 4 org.jshmem.examples.RingDemo}.
 */
public final class RingDemo {
    private static final int COUNT = 1024;

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            int me = shmem.myPe();
            int n = shmem.nPes();
            int right = (me + 1) % n;
            SymmetricSegment inbox = shmem.malloc((long) COUNT * Long.BYTES);
            SymmetricSegment signal = shmem.calloc(1, Long.BYTES);
            SymmetricSegment total = shmem.calloc(1, Long.BYTES);
            SymmetricSegment sums = shmem.malloc((long) COUNT * Long.BYTES);

            long[] block = new long[COUNT];
            for (int i = 0; i < COUNT; i++) {
                block[i] = me * 1_000_000L + i;        // this PE's contribution
            }
            long mySum = 0;
            for (int hop = 1; hop <= n; hop++) {
                shmem.putSignal(inbox, 0, MemorySegment.ofArray(block), signal, 0, hop, SignalOp.SET, right);
                shmem.signalWaitUntil(signal, 0, Cmp.GE, hop);
                shmem.get(block, 0, COUNT, inbox, 0, me);   // the block that just arrived
                shmem.barrierAll();                           // everyone has read its inbox before the next hop
                mySum += block[COUNT - 1];
            }
            shmem.atomicAddLong(total, 0, mySum, 0);
            shmem.barrierAll();
            long expectedEach = 0;
            for (int pe = 0; pe < n; pe++) {
                expectedEach += pe * 1_000_000L + COUNT - 1;
            }
            if (me == 0) {
                System.out.println("jshmem ring demo: " + n + " PEs, " + shmem.describe());
            }
            for (int pe = 0; pe < n; pe++) {       // print in PE order
                if (pe == me) {
                    System.out.println(String.format("PE %d: its own block came home after %d hops (first value %d);"
                            + " sum of the blocks' last elements %d (expected %d)", me, n, block[0], mySum, expectedEach));
                    System.out.flush();
                }
                shmem.barrierAll();
            }
            if (me == 0) {
                long t = shmem.atomicFetchLong(total, 0, 0);
                System.out.println(String.format("PE 0: total over all PEs %d (expected %d): %s", t, expectedEach * n,
                        t == expectedEach * n ? "OK" : "WRONG"));
            }

            // The same kind of sum as a collective: element i of the result is the sum over all PEs of
            // their block's element i (the block each PE holds now is its own, home after n hops).
            shmem.put(inbox, 0, MemorySegment.ofArray(block), me);
            shmem.teamWorld().reduce(ReduceOp.SUM, DType.LONG, sums, inbox, COUNT);
            long[] result = new long[COUNT];
            shmem.get(result, 0, COUNT, sums, 0, me);
            int ok = 1;
            for (int i = 0; i < COUNT; i++) {
                if (result[i] != 1_000_000L * n * (n - 1) / 2 + (long) n * i) {
                    ok = 0;
                }
            }
            // and whether every PE got it right: the minimum of the PEs' verdicts
            SymmetricSegment verdict = shmem.malloc(Integer.BYTES);
            SymmetricSegment verdicts = shmem.malloc(Integer.BYTES);
            shmem.pInt(verdict, 0, ok, me);
            shmem.teamWorld().reduce(ReduceOp.MIN, DType.INT, verdicts, verdict, 1);
            if (me == 0) {
                System.out.println(String.format("teamWorld().reduce(SUM, LONG) of the %d blocks, element by element:"
                        + " element 1 = %d (expected %d); every PE's result right: %s", n, result[1],
                        1_000_000L * n * (n - 1) / 2 + n, shmem.gInt(verdicts, 0, me) == 1 ? "OK" : "WRONG"));
            }
        }
    }
}
