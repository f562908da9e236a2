import static org.jshmem.bootstrap.OpenMpiAbi.*;

import java.lang.foreign.*;
import java.lang.invoke.MethodHandle;
import java.util.Arrays;
import org.jshmem.Shmem;
import org.jshmem.SymmetricSegment;
import org.jshmem.bootstrap.LibMpi;
import org.jshmem.bootstrap.OpenMpiAbi;

/**
 * Paired in one process (PE 0 of 2, JSHMEM_TRANSPORT=remote), for each of put, get, put_nbi and get_nbi: blocks of n
 * jshmem operations alternate with blocks of n raw MPI calls through FFM on a window of their own that complete the
 * same way (the anchors' cases): MPI_Put/MPI_Get + MPI_Win_flush_local each for the blocking ones, n calls then one
 * MPI_Win_flush for the non-blocking ones (jshmem's: then a quiet). Which goes first alternates. Prints, per case, the
 * ns per operation of both and the median and quartiles of the per-pair ratio jshmem / raw.
 * usage: PairedRma SIZE PAIRS N
 */
public class PairedRma {
    static final LibMpi MPI = LibMpi.load(System.getenv("JSHMEM_MPI_LIBRARY"));
    static final MethodHandle PUT = MPI.function("MPI_Put", new MemoryLayout[]{PTR, INT, HANDLE, INT, AINT, INT, HANDLE, HANDLE});
    static final MethodHandle GET = MPI.function("MPI_Get", new MemoryLayout[]{PTR, INT, HANDLE, INT, AINT, INT, HANDLE, HANDLE});
    static final MethodHandle FLUSH = MPI.function("MPI_Win_flush", new MemoryLayout[]{INT, HANDLE});
    static final MethodHandle FLUSH_LOCAL = MPI.function("MPI_Win_flush_local", new MemoryLayout[]{INT, HANDLE});
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
            shmem.barrierAll();
            if (shmem.myPe() == 0) {
                for (String op : new String[]{"put", "get", "put_nbi", "get_nbi"}) {
                    boolean put = op.startsWith("put"), nbi = op.endsWith("nbi");
                    double[] ratio = new double[pairs], tj = new double[pairs], tr = new double[pairs];
                    for (int p = -3; p < pairs; p++) {   // 3 warm-up pairs
                        long j = 0, r = 0;
                        for (int k = 0; k < 2; k++) {
                            long t0 = System.nanoTime();
                            if ((k + Math.max(p, 0)) % 2 == 0) {
                                for (long i = 0; i < n; i++) {
                                    if (put && nbi) shmem.putNbi(dst, 0, src, 0, size, 1);
                                    else if (put) shmem.put(dst, 0, src, 0, size, 1);
                                    else if (nbi) shmem.getNbi(dst, 0, src, 0, size, 1);
                                    else shmem.get(dst, 0, src, 0, size, 1);
                                }
                                if (put || nbi) shmem.quiet();
                                j = System.nanoTime() - t0;
                            } else {
                                for (long i = 0; i < n; i++) {
                                    rc |= put ? (int) PUT.invokeExact(raw, size, BYTE_T, 1, 0L, size, BYTE_T, w)
                                            : (int) GET.invokeExact(raw, size, BYTE_T, 1, 0L, size, BYTE_T, w);
                                    if (!nbi) rc |= (int) FLUSH_LOCAL.invokeExact(1, w);
                                }
                                if (nbi) rc |= (int) FLUSH.invokeExact(1, w);
                                r = System.nanoTime() - t0;
                            }
                        }
                        if (p >= 0) { ratio[p] = (double) j / r; tj[p] = j / (double) n; tr[p] = r / (double) n; }
                    }
                    if (rc != 0) throw new IllegalStateException("rc " + rc);
                    Arrays.sort(ratio); Arrays.sort(tj); Arrays.sort(tr);
                    int m = pairs / 2;
                    System.out.printf("size %d %-7s: ns/op jshmem %.0f, raw %.0f | jshmem/raw median %+.1f%% [q1 %+.1f%%, q3 %+.1f%%]%n",
                            size, op, tj[m], tr[m], (ratio[m] - 1) * 100, (ratio[pairs / 4] - 1) * 100, (ratio[3 * pairs / 4] - 1) * 100);
                }
            }
            shmem.barrierAll();
        }
    }
}
