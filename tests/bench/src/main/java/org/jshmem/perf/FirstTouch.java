package org.jshmem.perf;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.jshmem.Shmem;
import org.jshmem.SymmetricSegment;

/**
 * Start-up cost against first-touch cost of a fresh host heap: times
 * {@code Shmem.init()}, then PE 0 puts {@code bytes} (default: most of the heap) into PE 1's
 * fresh heap twice, and prints both bandwidths. Compare {@code JSHMEM_PREFAULT=1} (default) and 0:
 *
 * <pre>JSHMEM_SYMMETRIC_SIZE=1G JSHMEM_PREFAULT=0 bin/jshmemrun -np 2 org.jshmem.perf.FirstTouch</pre>
 */
public final class FirstTouch {
    /** This process's minor page faults so far (/proc/self/stat), or -1. */
    static long minorFaults() {
        try {
            String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/self/stat"));
            return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[7]);
        } catch (java.io.IOException | RuntimeException e) {
            return -1;
        }
    }

    public static void main(String[] args) {
        long t0 = System.nanoTime();
        try (Shmem s = Shmem.init()) {
            double initMs = (System.nanoTime() - t0) / 1e6;
            long bytes = args.length > 0 ? Long.parseLong(args[0]) : s.heapSize() - (2L << 20);
            SymmetricSegment dest = s.malloc(bytes);
            try (Arena a = Arena.ofConfined()) {
                MemorySegment src = a.allocate(bytes, 64);
                src.fill((byte) 1);
                s.barrierAll();
                if (s.myPe() == 0 && s.nPes() > 1) {
                    double[] gbs = new double[2];
                    long[] faults = new long[2];
                    for (int i = 0; i < 2; i++) {
                        long f = minorFaults();
                        long t = System.nanoTime();
                        s.put(dest, 0, src, 1);
                        s.quiet();
                        gbs[i] = bytes / (double) (System.nanoTime() - t);
                        faults[i] = minorFaults() - f;
                    }
                    System.out.printf("FirstTouch: JSHMEM_PREFAULT=%s heap %d MiB/PE, put %d MiB: init %.0f ms,"
                                    + " first put %.2f GB/s (%d page faults), second put %.2f GB/s (%d)%n",
                            System.getenv().getOrDefault("JSHMEM_PREFAULT", "1"), s.heapSize() >> 20, bytes >> 20,
                            initMs, gbs[0], faults[0], gbs[1], faults[1]);
                }
                s.barrierAll();
            }
        }
    }
}
