import java.lang.foreign.*;
import java.util.Arrays;
import org.jshmem.*;
import org.jshmem.device.*;
import org.jshmem.gpu.shim.Shim;

/** Where a launch's time goes: event gaps around nothing, a Kernel.launch, a raw Shim.launch; host ns per call. */
public class LaunchProbe {
    static final String SRC = "extern \"C\" __global__ void empty(void *d, const void *s, long long n, int pe, long long it) {"
            + " if (it < 0 && threadIdx.x == 0) *(long long *)d = n + pe; }\n";
    interface Body { void run(); }

    static double gapUs(ShmemStream st, ShmemEvent a, ShmemEvent b, Body body, int n) {
        double[] t = new double[n];
        for (int i = 0; i < n; i++) {
            st.record(a); body.run(); st.record(b); b.synchronize();
            t[i] = b.elapsedMillisSince(a) * 1000.0;
        }
        Arrays.sort(t);
        return t[n / 2];
    }

    static double hostNs(ShmemStream st, Body body, int n) {
        double best = Double.MAX_VALUE;
        for (int r = 0; r < 5; r++) {
            st.synchronize();
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) body.run();
            long t1 = System.nanoTime();
            st.synchronize();
            best = Math.min(best, (t1 - t0) / (double) n);
        }
        return best;
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            SymmetricSegment d = shmem.malloc(1 << 20), s = shmem.malloc(1 << 20);
            ShmemStream st = shmem.createStream();
            ShmemEvent a = shmem.createEvent(), b = shmem.createEvent();
            DeviceModule m = DeviceModule.compile(shmem, SRC, "empty.cu");
            Kernel k = m.kernel("empty");
            LaunchConfig big = LaunchConfig.of(32, 1024, st), one = LaunchConfig.of(1, 1, st);
            MemorySegment fn = fnOf(k);
            Arena arena = Arena.ofAuto();
            MemorySegment params = arena.allocate(5 * 8 + 5 * 8, 64);
            MemorySegment vals = params.asSlice(40);
            vals.set(ValueLayout.ADDRESS, 0, shmem.deviceAddress(d, 0));
            vals.set(ValueLayout.ADDRESS, 8, shmem.deviceAddress(s, 0));
            vals.set(ValueLayout.JAVA_LONG, 16, 1 << 20);
            vals.set(ValueLayout.JAVA_INT, 24, 1);
            vals.set(ValueLayout.JAVA_LONG, 32, 10);
            for (int i = 0; i < 5; i++) params.set(ValueLayout.ADDRESS, 8L * i, vals.asSlice(8L * i));
            MemorySegment sh = st.handle();
            Body nothing = () -> { };
            Body kl = () -> k.launch(big, d, s, 1L << 20, 1, 10L);
            Body kl1 = () -> k.launch(one, d, s, 1L << 20, 1, 10L);
            Body raw = () -> Shim.launch(fn, 32, 1, 1, 1024, 1, 1, 0, sh, params, "empty", false);
            Body rec = () -> st.record(a);
            long end = System.nanoTime() + 3_000_000_000L;
            while (System.nanoTime() < end) {
                gapUs(st, a, b, kl, 50); gapUs(st, a, b, raw, 50); gapUs(st, a, b, nothing, 50); gapUs(st, a, b, kl1, 50);
                hostNs(st, kl, 200); hostNs(st, raw, 200); hostNs(st, rec, 200);
            }
            for (int round = 0; round < 3; round++) {
                System.out.printf("round %d: event gap (us, median of 2000): nothing %.2f | Kernel.launch 32x1024 %.2f | 1x1 %.2f | Shim.launch raw %.2f%n",
                        round, gapUs(st, a, b, nothing, 2000), gapUs(st, a, b, kl, 2000), gapUs(st, a, b, kl1, 2000), gapUs(st, a, b, raw, 2000));
                System.out.printf("round %d: host ns per call (best of 5 x 2000): Kernel.launch %.0f | Shim.launch raw %.0f | stream.record %.0f%n",
                        round, hostNs(st, kl, 2000), hostNs(st, raw, 2000), hostNs(st, rec, 2000));
            }
        }
    }

    static MemorySegment fnOf(Kernel k) {
        try {
            var f = Kernel.class.getDeclaredField("function");
            f.setAccessible(true);
            return (MemorySegment) f.get(k);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
