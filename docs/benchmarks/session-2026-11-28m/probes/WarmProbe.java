import java.util.Arrays;
import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.Shmem;
import org.jshmem.SymmetricSegment;
import org.jshmem.Team;

/** Experiment (not kept): GpuCollectivesBench's blocking 1 KB reduce timing, round after round: does it settle? */
public final class WarmProbe {
    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            Team world = shmem.teamWorld();
            SymmetricSegment src = shmem.malloc(1 << 20), dst = shmem.malloc(1 << 20);
            int count = 256;
            Runnable call = () -> world.reduce(ReduceOp.SUM, DType.FLOAT, dst, src, count);
            for (int round = 0; round < 40; round++) {
                double[] us = new double[5];
                for (int i = 0; i < 20; i++) call.run();
                for (int r = 0; r < 5; r++) {
                    shmem.barrierAll();
                    long t0 = System.nanoTime();
                    for (int i = 0; i < 200; i++) call.run();
                    us[r] = (System.nanoTime() - t0) / 1e3 / 200;
                }
                Arrays.sort(us);
                if (shmem.myPe() == 0) System.out.printf("round %2d (after %5d calls): mean per call, median of 5 reps %7.2f us (min %7.2f max %7.2f)%n",
                        round, round * 1020, us[2], us[0], us[4]);
            }
            shmem.barrierAll();
            shmem.free(dst);
            shmem.free(src);
        }
    }
}
