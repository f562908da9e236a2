package org.jshmem.it.gpu;

import static org.jshmem.it.PeProgram.report;

import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.Shmem;
import org.jshmem.ShmemStream;
import org.jshmem.SymmetricSegment;
import org.jshmem.Team;

/**
 * Runs on every PE of a GPU job: queues the world team's collectives on two streams of each PE,
 * alternating, without waiting in between: round r reduces on stream A, fcollects on stream B,
 * then barriers on A and reduces on B. They share the team's synchronisation cells, so jshmem must
 * run them in the order they were queued; out of order they would hang or pair wrongly. The rounds
 * write distinct destinations, checked once both streams are idle. {@code args[0]}: rounds.
 */
public final class TwoStreamsProgram {
    private static final int N = 4096;   // elements per PE and round

    public static void main(String[] args) {
        int rounds = Integer.parseInt(args[0]);
        try (Shmem shmem = Shmem.init(); ShmemStream a = shmem.createStream(); ShmemStream b = shmem.createStream()) {
            int me = shmem.myPe(), n = shmem.nPes();
            Team world = shmem.teamWorld();
            long per = (long) N * Long.BYTES;
            SymmetricSegment src = shmem.calloc((long) N * rounds, Long.BYTES);
            SymmetricSegment sumA = shmem.calloc((long) N * rounds, Long.BYTES);
            SymmetricSegment sumB = shmem.calloc((long) N * rounds, Long.BYTES);
            SymmetricSegment all = shmem.calloc((long) N * n * rounds, Long.BYTES);
            long[] in = new long[N * rounds];
            for (int i = 0; i < in.length; i++) {
                in[i] = value(me, i);
            }
            shmem.put(src, 0, in, 0, in.length, me);
            shmem.quiet();
            shmem.barrierAll();
            for (int r = 0; r < rounds; r++) {
                SymmetricSegment s = src.asSlice(r * per, per);
                world.reduceOnStream(ReduceOp.SUM, DType.LONG, sumA.asSlice(r * per, per), s, N, a);
                world.fcollectOnStream(all.asSlice(r * per * n, per * n), s, N, DType.LONG, b);
                shmem.barrierAllOnStream(a);
                world.reduceOnStream(ReduceOp.MAX, DType.LONG, sumB.asSlice(r * per, per), s, N, b);
            }
            a.synchronize();
            b.synchronize();
            shmem.barrierAll();
            long[] sa = HeapReads.longs(shmem, sumA), sb = HeapReads.longs(shmem, sumB), g = HeapReads.longs(shmem, all);
            long bad = 0;
            for (int r = 0; r < rounds; r++) {
                for (int j = 0; j < N; j++) {
                    int i = r * N + j;
                    long sum = 0, max = Long.MIN_VALUE;
                    for (int pe = 0; pe < n; pe++) {
                        sum += value(pe, i);
                        max = Math.max(max, value(pe, i));
                        bad += g[(r * n + pe) * N + j] != value(pe, i) ? 1 : 0;
                    }
                    bad += sa[i] != sum ? 1 : 0;
                    bad += sb[i] != max ? 1 : 0;
                }
            }
            report(me, "rounds", rounds);
            report(me, "mismatches", bad);
        }
    }

    private static long value(int pe, int i) {
        return (long) i * 31 + (pe * 7919L) % 1000;
    }
}
