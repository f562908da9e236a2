package org.jshmem.trace;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.function.IntPredicate;
import java.util.function.UnaryOperator;

/**
 * Maps each PE's clock onto PE 0's at start-up. PEs on PE 0's node read the same clock
 * ({@code CLOCK_MONOTONIC} behind {@link System#nanoTime()}), so their offset is 0, exactly. When
 * the job spans nodes, every PE reads its clock right after each of {@link #ROUNDS} barriers; a
 * PE's offset is the median of its readings less PE 0's, and its error the half-spread of them.
 */
public final class Clocks {
    static final int ROUNDS = 15;

    private Clocks() {
    }

    /**
     * Collective: sets {@code trace}'s clock. {@code onPeZerosNode} says which PEs share PE 0's clock;
     * {@code spansNodes} whether any does not (then every PE takes part in the measured rounds).
     */
    public static void align(Trace trace, UnaryOperator<byte[]> allgather, Runnable barrier, boolean spansNodes,
                             IntPredicate onPeZerosNode) {
        int me = trace.myPe();
        long epoch = ByteBuffer.wrap(allgather.apply(time(System.nanoTime()))).getLong(0);   // PE 0's reading
        if (!spansNodes) {
            trace.setClock(epoch, 0, 0);
            return;
        }
        long[] diff = new long[ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            barrier.run();
            ByteBuffer all = ByteBuffer.wrap(allgather.apply(time(System.nanoTime())));
            diff[r] = all.getLong(me * Long.BYTES) - all.getLong(0);
        }
        if (onPeZerosNode.test(me)) {
            trace.setClock(epoch, 0, 0);
            return;
        }
        Arrays.sort(diff);
        trace.setClock(epoch, diff[ROUNDS / 2], (diff[ROUNDS - 1] - diff[0] + 1) / 2);
    }

    private static byte[] time(long t) {
        return ByteBuffer.allocate(Long.BYTES).putLong(t).array();
    }
}
