package org.jshmem.perf;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.Shmem;
import org.jshmem.SymmetricSegment;
import org.jshmem.Team;

/**
 * Host collectives against OpenSHMEM's anchor ({@code ../shared/anchors/oshmem_anchor.c}): long
 * sum reduction and fcollect, each timed with a barrier per iteration as the anchor times
 * {@code sum_to_all + barrier_all} and {@code fcollect + barrier_all}. Sizes are bytes per PE.
 * After a warm-up (the JIT's: 30000 small calls, then per size as many calls as are timed), each
 * size is timed {@code reps} times and the best and median reported. Thresholds come from the environment ({@code JSHMEM_COLL_STAGED_MAX},
 * {@code JSHMEM_REDUCE_ONESHOT_MAX}), so one algorithm can be forced to find the switch points.
 *
 * <p>With {@code fresh} as third argument every iteration first rewrites this PE's source (as a
 * producer would; the anchor reuses an unchanged source, which peers can keep in their caches), so
 * that the staging threshold can be judged on data that moves between caches every call.
 *
 * <pre>bin/jshmemrun -np 2 org.jshmem.perf.CollectivesBench [sizes,comma,separated] [reps] [fresh]</pre>
 */
public final class CollectivesBench {
    private CollectivesBench() {
    }

    public static void main(String[] args) {
        long[] sizes = args.length > 0 ? Arrays.stream(args[0].split(",")).mapToLong(Long::parseLong).toArray()
                : new long[] {8, 128, 2048, 32768, 524288, 8388608};
        int reps = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        boolean fresh = args.length > 2 && args[2].equals("fresh");
        try (Shmem shmem = Shmem.init()) {
            Team world = shmem.teamWorld();
            int n = shmem.nPes();
            long max = Arrays.stream(sizes).max().orElse(8);
            SymmetricSegment src = shmem.malloc(max);
            SymmetricSegment dest = shmem.malloc(max * n);
            src.local().fill((byte) 1);
            dest.local().fill((byte) 0);
            if (shmem.myPe() == 0) {
                System.out.println("# jshmem " + shmem.describe() + ", " + n + " PEs, " + shmem.describeCollectives()
                        + "; best and median of " + reps
                        + " runs, each the mean of an iteration count like the anchor's (5000 below 64 KiB, else 50)"
                        + (fresh ? "; the source rewritten before every call" : ""));
                System.out.printf("%10s %12s %12s %12s %12s%n", "bytes", "sumred_us", "(median)", "fcollect_us", "(median)");
            }
            // JIT warm-up of the small-message path before anything is timed: with 2 PEs on 2 cores the
            // compiler threads otherwise share the cores with the first sizes' measurements
            SymmetricSegment w8 = src.asSlice(0, 8);
            SymmetricSegment d8 = dest.asSlice(0, 8L * n);
            for (int i = 0; i < 30_000; i++) {
                world.reduce(ReduceOp.SUM, DType.LONG, d8.asSlice(0, 8), w8, 1);
                world.fcollect(d8, w8, 1, DType.LONG);
                shmem.barrierAll();
            }
            for (long bytes : sizes) {
                long count = Math.max(bytes / 8, 1);
                int iters = bytes < 65536 ? 5000 : 50;
                SymmetricSegment s = src.asSlice(0, count * 8);
                SymmetricSegment d = dest.asSlice(0, count * 8);
                SymmetricSegment dn = dest.asSlice(0, count * 8 * n);
                long[] stamp = {0};
                Runnable reduce = () -> {
                    if (fresh) {
                        s.local().fill((byte) ++stamp[0]);
                    }
                    world.reduce(ReduceOp.SUM, DType.LONG, d, s, count);
                    shmem.barrierAll();
                };
                Runnable fcollect = () -> {
                    if (fresh) {
                        s.local().fill((byte) ++stamp[0]);
                    }
                    world.fcollect(dn, s, count, DType.LONG);
                    shmem.barrierAll();
                };
                double[] r = time(shmem, reduce, iters, reps);
                double[] f = time(shmem, fcollect, iters, reps);
                if (shmem.myPe() == 0) {
                    System.out.printf("%10d %12.2f %12.2f %12.2f %12.2f%n", bytes, r[0], r[1], f[0], f[1]);
                }
            }
        }
    }

    /** Best and median over {@code reps} of the mean microseconds per iteration; warms up first. */
    private static double[] time(Shmem shmem, Runnable op, int iters, int reps) {
        for (int i = 0; i < Math.max(iters, 200); i++) {
            op.run();
        }
        List<Double> means = new ArrayList<>();
        for (int r = 0; r < reps; r++) {
            shmem.barrierAll();
            long t0 = System.nanoTime();
            for (int i = 0; i < iters; i++) {
                op.run();
            }
            means.add((System.nanoTime() - t0) / 1e3 / iters);
        }
        means.sort(null);
        return new double[] {means.get(0), means.get(means.size() / 2)};
    }
}
