import static org.jshmem.bootstrap.OpenMpiAbi.*;

import java.lang.foreign.*;
import java.lang.invoke.MethodHandle;
import java.util.Arrays;
import org.jshmem.Shmem;
import org.jshmem.SymmetricSegment;
import org.jshmem.bootstrap.LibMpi;
import org.jshmem.bootstrap.OpenMpiAbi;

/**
 * Paired in one process: blocks of n jshmem blocking puts (then quiet) alternate with blocks of n raw
 * MPI_Put (FFM, own window) then one MPI_Win_flush (the anchors' put_bw), and blocks of n raw
 * MPI_Put + MPI_Win_flush each; prints the medians of the per-pair time ratios.
 * usage: PairedPut SIZE PAIRS N
 */
public class PairedPut {
    static final LibMpi MPI = LibMpi.load(System.getenv("JSHMEM_MPI_LIBRARY"));
    static final MethodHandle PUT = MPI.function("MPI_Put", new MemoryLayout[]{PTR, INT, HANDLE, INT, AINT, INT, HANDLE, HANDLE});
    static final MethodHandle FLUSH = MPI.function("MPI_Win_flush", new MemoryLayout[]{INT, HANDLE});
    static final MethodHandle WIN_CREATE = MPI.function("MPI_Win_create", new MemoryLayout[]{PTR, AINT, INT, HANDLE, HANDLE, PTR});
    static final MethodHandle LOCK_ALL = MPI.function("MPI_Win_lock_all", new MemoryLayout[]{INT, HANDLE});
    static final MemorySegment BYTE_T = MPI.symbol(OpenMpiAbi.BYTE);

    public static void main(String[] a) throws Throwable {
        int size = Integer.parseInt(a[0]), pairs = Integer.parseInt(a[1]);
        long n = Long.parseLong(a[2]);
        try (Shmem shmem = Shmem.init(); Arena arena = Arena.ofConfined()) {
            SymmetricSegment src = shmem.malloc(size), dst = shmem.malloc(size);
            MemorySegment win0 = arena.allocate(4 << 20, 2 << 20), raw = arena.allocate(size, 64).fill((byte) 3);
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            int rc = (int) WIN_CREATE.invokeExact(win0, win0.byteSize(), 1, MPI.symbol(OpenMpiAbi.INFO_NULL), MPI.commWorld(), out);
            MemorySegment w = out.get(ValueLayout.ADDRESS, 0);
            rc |= (int) LOCK_ALL.invokeExact(MODE_NOCHECK, w);
            if (rc != 0) throw new IllegalStateException("window " + rc);
            double[] rBw = new double[pairs], rLat = new double[pairs], tj = new double[pairs], ta = new double[pairs], tf = new double[pairs];
            shmem.barrierAll();
            if (shmem.myPe() == 0) {
                for (int p = -3; p < pairs; p++) {   // 3 warm-up pairs
                    long j = 0, b = 0, f = 0;
                    for (int k = 0; k < 3; k++) {
                        int which = (k + Math.max(p, 0)) % 3;
                        long t0 = System.nanoTime();
                        if (which == 0) {
                            for (long i = 0; i < n; i++) shmem.put(dst, 0, src, 0, size, 1);
                            shmem.quiet();
                            j = System.nanoTime() - t0;
                        } else if (which == 1) {
                            for (long i = 0; i < n; i++) rc |= (int) PUT.invokeExact(raw, size, BYTE_T, 1, 0L, size, BYTE_T, w);
                            rc |= (int) FLUSH.invokeExact(1, w);
                            b = System.nanoTime() - t0;
                        } else {
                            for (long i = 0; i < n; i++) {
                                rc |= (int) PUT.invokeExact(raw, size, BYTE_T, 1, 0L, size, BYTE_T, w);
                                rc |= (int) FLUSH.invokeExact(1, w);
                            }
                            f = System.nanoTime() - t0;
                        }
                    }
                    if (p >= 0) { rBw[p] = (double) j / b; rLat[p] = (double) j / f; tj[p] = j / (double) n; ta[p] = b / (double) n; tf[p] = f / (double) n; }
                }
                if (rc != 0) throw new IllegalStateException("rc " + rc);
                Arrays.sort(rBw); Arrays.sort(rLat); Arrays.sort(tj); Arrays.sort(ta); Arrays.sort(tf);
                int m = pairs / 2;
                System.out.printf("size %d: ns/put jshmem %.0f, raw put (one flush) %.0f, raw put+flush %.0f | jshmem/raw-put median %+.1f%% [q1 %+.1f%%, q3 %+.1f%%], jshmem/raw-put+flush %+.1f%% [%+.1f%%, %+.1f%%]%n",
                        size, tj[m], ta[m], tf[m], (rBw[m] - 1) * 100, (rBw[pairs / 4] - 1) * 100, (rBw[3 * pairs / 4] - 1) * 100,
                        (rLat[m] - 1) * 100, (rLat[pairs / 4] - 1) * 100, (rLat[3 * pairs / 4] - 1) * 100);
            }
            shmem.barrierAll();
        }
    }
}
