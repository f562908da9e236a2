package org.jshmem.gemm;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.jshmem.DType;
import org.jshmem.Shmem;
import org.jshmem.ShmemStream;
import org.jshmem.SymmetricSegment;
import org.jshmem.device.DeviceModule;
import org.jshmem.device.Kernel;
import org.jshmem.device.KernelCache;
import org.jshmem.device.LaunchConfig;

/** jgemm_util.cu on this PE's GPU: test data, validation sums, the reference path's column unpacking. */
final class UtilKernels implements AutoCloseable {
    private static final int BLOCKS = 264;
    private static final int THREADS = 256;
    private static final MemorySegment ZEROS = MemorySegment.ofArray(new double[3]);

    private final Shmem shmem;
    private final DeviceModule module;
    private final Kernel fill;
    private final Kernel poison;
    private final Kernel compare;
    private final Kernel unpack;

    UtilKernels(Shmem shmem, DType type) {
        this.shmem = shmem;
        String source = KernelSources.expanded("jgemm_util.cu");
        byte[] image = KernelCache.atDefaultLocation().image(shmem, source, "jgemm_util.cu",
                "-DJGEMM_DTYPE=" + (type == DType.BF16 ? 1 : 0)).image();
        module = DeviceModule.load(shmem, image, "jgemm_util.cu");
        fill = module.kernel("jgemm_fill");
        poison = module.kernel("jgemm_poison");
        compare = module.kernel("jgemm_compare");
        unpack = module.kernel("jgemm_unpack_columns");
    }

    private static LaunchConfig grid(ShmemStream s) {
        return LaunchConfig.of(BLOCKS, THREADS, s);
    }

    /** x (rows x cols, ld) = the values of the global matrix's block at (row0, col0); seed names the matrix. */
    void fill(SymmetricSegment x, int rows, int cols, long ld, int row0, int col0, long globalCols, long seed,
              ShmemStream s) {
        fill.launch(grid(s), x, rows, cols, ld, row0, col0, globalCols, seed);
    }

    void poison(SymmetricSegment x, long elements, ShmemStream s) {
        poison.launch(grid(s), x, elements);
    }

    /**
     * ||x - ref|| / ||ref|| for x (w.rows x w.cols, dense) against window w of ref (refLd elements a
     * row), or NaN if x holds a non-finite element; waits for the stream.
     */
    double relativeError(SymmetricSegment x, SymmetricSegment ref, ShardLayout.Window w, long refLd,
                         SymmetricSegment sums, ShmemStream s) {
        s.synchronize();
        shmem.put(sums, 0, ZEROS, shmem.myPe());
        compare.launch(grid(s), x, ref, w.rows(), w.cols(), refLd, w.row0(), w.col0(), sums);
        s.synchronize();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_DOUBLE, 3);
            shmem.get(out, sums, 0, shmem.myPe());
            double d2 = out.getAtIndex(JAVA_DOUBLE, 0), r2 = out.getAtIndex(JAVA_DOUBLE, 1);
            double bad = out.getAtIndex(JAVA_DOUBLE, 2);
            return bad > 0 ? Double.NaN : Math.sqrt(d2 / r2);
        }
    }

    void unpackColumns(SymmetricSegment gathered, SymmetricSegment c, int m, int n, int nPes, ShmemStream s) {
        unpack.launch(grid(s), gathered, c, m, n, nPes);
    }

    @Override
    public void close() {
        module.close();
    }
}
