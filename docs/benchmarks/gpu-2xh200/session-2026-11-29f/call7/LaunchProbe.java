// LaunchProbe.java - where a kernel launch from Java spends its host time (issue 19: device put 1 MB, where the same
// kernel launched from C++ is 2-3 us ahead from the start event). One PE on the GPU heap; run from .devpack as
//   JSHMEM_BACKEND=cuda mpirun -np 1 java --enable-native-access=ALL-UNNAMED -cp "lib/*:mpi.jar:lp" LaunchProbe
// (The packed runtime has no compiler: compile it with javac -cp "build/lib/*" -d .devpack/lp and run LaunchProbe.)
// Prints, after 3 s of warm-up of each loop: host ns per call of Kernel.launch (symmetric-segment and raw-address
// arguments), of ShmemStream.record, and the event-timed gap of one empty launch (record, launch, record), as
// launch_probe.cu prints them for the CUDA runtime.
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

import org.jshmem.Shmem;
import org.jshmem.ShmemEvent;
import org.jshmem.ShmemStream;
import org.jshmem.SymmetricSegment;
import org.jshmem.device.DeviceModule;
import org.jshmem.device.Kernel;
import org.jshmem.device.LaunchConfig;

public class LaunchProbe {
    static final String SOURCE = """
            #include <jshmem/jshmem.h>
            extern "C" __global__ void probe_empty(char *dst, const char *src, size_t bytes, int peer, int iters) {}
            """;

    interface Body { void run(); }

    /** Host ns per call of body, in batches of 200 then a stream sync (outside the time), after warmMs of the same. */
    static double hostNs(String name, ShmemStream s, Body body, long warmMs) {
        long until = System.nanoTime() + warmMs * 1_000_000;
        while (System.nanoTime() < until) {
            for (int i = 0; i < 200; i++) body.run();
            s.synchronize();
        }
        double[] per = new double[25];
        for (int r = 0; r < per.length; r++) {
            long t = 0;
            for (int b = 0; b < 20; b++) {
                long t0 = System.nanoTime();
                for (int i = 0; i < 200; i++) body.run();
                t += System.nanoTime() - t0;
                s.synchronize();
            }
            per[r] = t / 4000.0;
        }
        Arrays.sort(per);
        System.out.printf("%-44s host %8.0f ns/call (median of 25 x 4000; min %.0f, max %.0f)%n", name, per[12], per[0],
                per[24]);
        return per[12];
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            SymmetricSegment a = shmem.malloc(1 << 20), b = shmem.malloc(1 << 20);
            ShmemStream s = shmem.createStream();
            ShmemEvent e0 = shmem.createEvent(), e1 = shmem.createEvent();
            DeviceModule m = DeviceModule.compile(shmem, SOURCE, "probe.cu");
            Kernel k = m.kernel("probe_empty");
            LaunchConfig cfg = LaunchConfig.of(32, 1024, s);
            MemorySegment ra = shmem.deviceAddress(a, 0), rb = shmem.deviceAddress(b, 0);
            long bytes = 1 << 20;
            System.out.println("# " + shmem.describe());
            hostNs("Kernel.launch, symmetric segments", s, () -> k.launch(cfg, a, b, bytes, 0, 10), 3000);
            hostNs("Kernel.launch, raw addresses", s, () -> k.launch(cfg, ra, rb, bytes, 0, 10), 3000);
            hostNs("ShmemStream.record", s, () -> s.record(e0), 1000);
            hostNs("record, launch, record", s, () -> { s.record(e0); k.launch(cfg, a, b, bytes, 0, 10); s.record(e1); },
                    3000);
            // the event-timed gap of one launch on an idle stream, as perf and the anchors time it
            double[] us = new double[2000];
            for (int rep = -1000; rep < us.length; rep++) {
                s.record(e0);
                k.launch(cfg, a, b, bytes, 0, 10);
                s.record(e1);
                e1.synchronize();
                if (rep >= 0) us[rep] = e1.elapsedMillisSince(e0) * 1e3;
            }
            Arrays.sort(us);
            System.out.printf("%-44s events %.2f us (median of 2000; p10 %.2f, p90 %.2f)%n", "one empty launch, idle stream",
                    us[1000], us[200], us[1800]);
            e0.close();
            e1.close();
            s.close();
            m.close();
        }
    }
}
