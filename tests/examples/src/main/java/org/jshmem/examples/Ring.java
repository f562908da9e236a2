package org.jshmem.examples;

import java.lang.foreign.MemorySegment;
import org.jshmem.Cmp;
import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.Shmem;
import org.jshmem.SignalOp;
import org.jshmem.SymmetricSegment;

/**
 * A ring of put-with-signal, then a sum over all PEs.
 *
 * <p>Every PE starts with a block of numbers of its own. In each hop it sends the block it holds to
 * its right neighbour with {@code putSignal} (the data, then a signal the receiver waits on) and
 * takes the block that came from its left. After {@code nPes} hops every block has visited every PE
 * and is home again. Then the world team adds the PEs' blocks element by element with
 * {@code reduce(SUM)}, and every PE checks the result.
 *
 * <p>Run on 4 PEs (host shared memory, or a GPU heap with {@code JSHMEM_BACKEND=cuda}):
 * <pre>bin/jshmemrun -np 4 -cp tests/examples/target/jshmem-examples-0.1.0-SNAPSHOT.jar org.jshmem.examples.Ring</pre>
 */
public final class Ring {
    private static final int COUNT = 1024;   // longs per block

    public static void main(String[] args) {
        boolean ok;
        try (Shmem shmem = Shmem.init()) {
            int me = shmem.myPe();
            int n = shmem.nPes();
            int right = (me + 1) % n;

            // Symmetric allocations are collective: every PE allocates the same sizes in the same order,
            // and gets a segment at the same heap offset, which other PEs name in their puts.
            // One inbox slot and one signal per hop, so that a fast neighbour never overwrites a block
            // this PE has not read yet; calloc zeroes the signals.
            SymmetricSegment inbox = shmem.malloc((long) n * COUNT * Long.BYTES);
            SymmetricSegment arrived = shmem.calloc(n, Long.BYTES);

            long[] block = new long[COUNT];
            for (int i = 0; i < COUNT; i++) {
                block[i] = value(me, i);
            }

            boolean ringOk = true;
            for (int hop = 0; hop < n; hop++) {
                long slot = (long) hop * COUNT * Long.BYTES;
                // the block to the right neighbour's slot, then its signal for this hop set to 1
                shmem.putSignal(inbox, slot, MemorySegment.ofArray(block), arrived, hop * Long.BYTES, 1,
                        SignalOp.SET, right);
                // wait for the left neighbour's block: once the signal is seen, the data is there
                shmem.signalWaitUntil(arrived, hop * Long.BYTES, Cmp.EQ, 1);
                shmem.get(block, 0, COUNT, inbox, slot, me);
                int from = Math.floorMod(me - hop - 1, n);   // whose block this is
                for (int i = 0; i < COUNT; i++) {
                    ringOk &= block[i] == value(from, i);
                }
            }

            // The reduction: element i of the result is the sum over all PEs of their block's element i.
            // Collectives take symmetric sources and destinations: the block goes into this PE's
            // first inbox slot (a put to this PE itself), the sums into a segment of their own.
            SymmetricSegment sums = shmem.malloc((long) COUNT * Long.BYTES);
            shmem.put(inbox, 0, block, 0, COUNT, me);
            shmem.teamWorld().reduce(ReduceOp.SUM, DType.LONG, sums, inbox.asSlice(0, (long) COUNT * Long.BYTES),
                    COUNT);
            long[] result = new long[COUNT];
            shmem.get(result, 0, COUNT, sums, 0, me);
            boolean sumOk = true;
            for (int i = 0; i < COUNT; i++) {
                long expected = 0;
                for (int pe = 0; pe < n; pe++) {
                    expected += value(pe, i);
                }
                sumOk &= result[i] == expected;
            }

            // One whole line per PE, written at once, so that lines from several PEs do not interleave.
            System.out.print(String.format("PE %d of %d: %d hops, every block from the expected PE and intact: %s;"
                    + " sum over the PEs: %s%n", me, n, n, ringOk ? "OK" : "WRONG", sumOk ? "OK" : "WRONG"));
            System.out.flush();

            // Did every PE pass? The minimum of the PEs' verdicts, with one more reduction.
            SymmetricSegment verdict = shmem.malloc(Integer.BYTES);
            SymmetricSegment all = shmem.malloc(Integer.BYTES);
            shmem.pInt(verdict, 0, ringOk && sumOk ? 1 : 0, me);
            shmem.teamWorld().reduce(ReduceOp.MIN, DType.INT, all, verdict, 1);
            ok = shmem.gInt(all, 0, me) == 1;
            shmem.barrierAll();   // every PE has printed its line before the summary
            if (me == 0) {
                System.out.print(String.format("ring: %d PEs on %s: %s%n", n, shmem.describe(),
                        ok ? "every PE OK" : "FAILED"));
            }
        }
        if (!ok) {
            System.exit(1);
        }
    }

    /** Element i of PE pe's block. */
    private static long value(int pe, int i) {
        return pe * 1_000_000L + i;
    }
}
