import java.util.Arrays;
import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.Shmem;
import org.jshmem.ShmemStream;
import org.jshmem.SymmetricSegment;
import org.jshmem.Team;

/** Experiment (not kept): where a host-called 1 KB all-reduce's time goes. Per-call host times, percentiles. */
public final class BlockingProbe {
    interface Call { void run(); }

    public static void main(String[] args) {
        int iters = 2000;
        try (Shmem shmem = Shmem.init(); ShmemStream stream = shmem.createStream()) {
            Team world = shmem.teamWorld();
            SymmetricSegment src = shmem.malloc(1 << 20), dst = shmem.malloc(1 << 20);
            int count = 256;
            Call[] calls = {
                () -> world.reduce(ReduceOp.SUM, DType.FLOAT, dst, src, count),
                () -> { world.reduceOnStream(ReduceOp.SUM, DType.FLOAT, dst, src, count, stream); stream.synchronize(); },
                () -> { world.barrierOnStream(stream); stream.synchronize(); },
                () -> stream.synchronize(),
                () -> world.barrier(),
                () -> world.fcollect(dst, src, count, DType.FLOAT),
            };
            String[] names = {"reduce 1KB blocking", "reduceOnStream 1KB + synchronize", "barrierOnStream + synchronize",
                "synchronize (empty stream)", "team barrier (host)", "fcollect 1KB blocking"};
            for (int c = 0; c < calls.length; c++) { try {
                for (boolean barrierFirst : new boolean[] {false, true}) {
                    for (int i = 0; i < 3000; i++) calls[c].run();
                    long[] t = new long[iters];
                    shmem.barrierAll();
                    for (int i = 0; i < iters; i++) {
                        if (barrierFirst) shmem.barrierAll();
                        long t0 = System.nanoTime();
                        calls[c].run();
                        t[i] = System.nanoTime() - t0;
                    }
                    Arrays.sort(t);
                    if (shmem.myPe() == 0 || args.length > 0) {
                        System.out.printf("PE %d %-36s %-14s p10 %7.2f p50 %7.2f p90 %7.2f p99 %7.2f us%n", shmem.myPe(), names[c],
                                barrierFirst ? "barrier first" : "back to back", t[iters / 10] / 1e3, t[iters / 2] / 1e3,
                                t[iters * 9 / 10] / 1e3, t[iters * 99 / 100] / 1e3);
                    }
                }
              } catch (RuntimeException e) { System.out.println("PE " + shmem.myPe() + " " + names[c] + ": " + e); }
            }
            shmem.barrierAll();
            shmem.free(dst);
            shmem.free(src);
        }
    }
}
