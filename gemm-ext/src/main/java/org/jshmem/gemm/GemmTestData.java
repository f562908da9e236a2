package org.jshmem.gemm;

import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jshmem.DType;
import org.jshmem.HeapExhaustedException;
import org.jshmem.Shmem;
import org.jshmem.ShmemStream;
import org.jshmem.SymmetricSegment;
import org.jshmem.device.DeviceInfo;

/**
 * A fused GEMM's operands on the symmetric heap, filled with {@link TestMatrices}, and C's error
 * against an independent reference: cuBLAS on the whole, unsharded GEMM (GPU heaps) or the product
 * in double (host heaps). For benchmarks and tests; collective (every PE creates and closes it).
 */
public final class GemmTestData implements AutoCloseable {
    private final Shmem shmem;
    private final DType type;
    private final BLayout bLayout;
    private final Optional<DeviceInfo> device;
    private final GemmShape global;
    private final ShardLayout layout;
    private final SymmetricSegment a;
    private final SymmetricSegment b;
    private final SymmetricSegment c;
    private final List<SymmetricSegment> owned = new ArrayList<>();
    private UtilKernels util;
    private ShmemStream stream;
    private SymmetricSegment refC;
    private SymmetricSegment sums;

    /**
     * A, B and C for {@code gemm}'s shard on this PE; with {@code forValidation} on a GPU heap also room for
     * the whole GEMM's inputs and cuBLAS's C.
     *
     * @throws HeapExhaustedException when the heap cannot hold them (before anything is allocated)
     */
    public GemmTestData(Shmem shmem, FusedGemm gemm, boolean forValidation) {
        this.shmem = Objects.requireNonNull(shmem, "shmem");
        this.type = gemm.type();
        this.bLayout = gemm.bLayout();
        this.device = DeviceInfo.find(shmem);
        layout = gemm.layout();
        global = layout.global();
        long es = type.byteSize();
        long check = forValidation && device.isPresent()
                ? ((long) global.m() * global.k() + (long) global.k() * global.n() + (long) global.m() * global.n())
                * es + 4096 : 0;
        long need = gemm.aBytes() + gemm.bBytes() + gemm.cBytes() + check + 3 * 4096;
        if (need > shmem.heapFree()) {
            throw new HeapExhaustedException("gemm " + global + ": A, B and C" + (check > 0 ? " and the validation"
                    + " copies" : "") + " need " + need + " bytes of symmetric heap per PE beside the workspace;"
                    + " " + shmem.heapFree() + " are free. Raise JSHMEM_SYMMETRIC_SIZE (per PE) by at least "
                    + (need - shmem.heapFree()) + " bytes", need, shmem.heapFree());
        }
        a = alloc(gemm.aBytes());
        b = alloc(gemm.bBytes());
        c = alloc(gemm.cBytes());
        if (device.isPresent()) {
            util = new UtilKernels(shmem, type);
            stream = shmem.createStream();
        }
    }

    private SymmetricSegment alloc(long bytes) {
        SymmetricSegment s = shmem.malloc(bytes);
        owned.add(s);
        return s;
    }

    /** Fills this PE's A and B windows of the global test matrices. */
    public void fill() {
        int me = shmem.myPe();
        fillBlock(a, layout.aWindow(me), global.k(), TestMatrices.SEED_A);
        fillBlock(b, layout.bStored(me), bLayout.rowLength(global), TestMatrices.SEED_B);
        if (stream != null) {
            stream.synchronize();
        }
    }

    /** x = window w of the global test matrix (globalCols a row), dense. */
    private void fillBlock(SymmetricSegment x, ShardLayout.Window w, long globalCols, long seed) {
        if (util != null) {
            util.fill(x, w.rows(), w.cols(), w.cols(), w.row0(), w.col0(), globalCols, seed, stream);
        } else {
            TestMatrices.fill(x.local(), w.rows(), w.cols(), w.cols(), w.row0(), w.col0(), globalCols, seed, type);
        }
    }

    /** Fills C with a value no GEMM produces, so that an element left unwritten fails validation. */
    public void poisonC() {
        long n = c.byteSize() / 2;
        if (util != null) {
            util.poison(c, n, stream);
            stream.synchronize();
        } else {
            for (long i = 0; i < n; i++) {
                c.local().setAtIndex(JAVA_SHORT_UNALIGNED, i, (short) 0x7fff);
            }
        }
    }

    /** cuBLAS on the whole GEMM, its window w compared with C. */
    private double gpuError(ShardLayout.Window w) {
        int m = global.m(), n = global.n(), k = global.k();
        if (refC == null) {   // once per case: every PE computes the whole GEMM with cuBLAS
            long es = type.byteSize();
            SymmetricSegment fa = alloc((long) m * k * es), fb = alloc((long) k * n * es);
            refC = alloc((long) m * n * es);
            sums = alloc(3 * Double.BYTES);
            util.fill(fa, m, k, k, 0, 0, k, TestMatrices.SEED_A, stream);
            int ldb = bLayout.rowLength(global);   // the whole B as stored: k x n or n x k
            util.fill(fb, ldb == n ? k : n, ldb, ldb, 0, 0, ldb, TestMatrices.SEED_B, stream);
            try (VendorGemm blas = new VendorGemm()) {
                blas.gemm(stream.handle(), type, m, n, k, shmem.deviceAddress(fa, 0), k, shmem.deviceAddress(fb, 0),
                        bLayout, ldb, shmem.deviceAddress(refC, 0), n);
                stream.synchronize();
            }
        }
        return util.relativeError(c, refC, w, n, sums, stream);
    }

    /**
     * The relative error of this PE's C window against the reference (call after a barrier that follows
     * the GEMM, so that peers' writes have landed).
     */
    public double relativeError() {
        ShardLayout.Window w = layout.cWindow(shmem.myPe());
        return device.isPresent() ? gpuError(w) : TestMatrices.relativeError(c.local(), global, type, bLayout, w);
    }

    public SymmetricSegment a() {
        return a;
    }

    public SymmetricSegment b() {
        return b;
    }

    public SymmetricSegment c() {
        return c;
    }

    /** The unsharded GEMM's shape. */
    public GemmShape global() {
        return global;
    }

    @Override
    public void close() {
        if (stream != null) {
            stream.synchronize();
            stream.close();
            util.close();
        }
        shmem.barrierAll();
        for (int i = owned.size() - 1; i >= 0; i--) {
            shmem.free(owned.get(i));
        }
    }
}
