package org.jshmem.gemm;

import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.jshmem.DType;
import org.jshmem.HeapExhaustedException;
import org.jshmem.ReduceOp;
import org.jshmem.Shmem;
import org.jshmem.ShmemEvent;
import org.jshmem.ShmemStream;
import org.jshmem.SymmetricSegment;
import org.jshmem.device.DeviceInfo;

/**
 * Runs, validates and times fused GEMMs the way the {@code gemm} command does (collective: every
 * PE calls {@link #run} with the same shapes). Inputs are {@link TestMatrices}; validation compares
 * every PE's C with cuBLAS on the whole, unsharded GEMM (GPU heaps) or with the product in double
 * (host heaps), once, outside the timed calls. Times are medians of per-call times (device events
 * around {@code runOnStream} on GPUs, the wall clock around {@code run} on the CPU), the slowest PE's.
 */
public final class GemmBenchmark {
    /** What to do per case. */
    public record Settings(boolean validate, boolean reference, int iters, int warmup, int backToBack) {
    }

    /** One case's outcome; times in milliseconds, NaN where not measured. */
    public record Result(GemmCollective collective, GemmShape shape, DType type, int nPes, String what, double ms,
                         double refMs, double relErr, double refRelErr, double bound, boolean validated,
                         boolean passed, double createMs, String device) {
        /** TFLOP/s per PE: 2mnk / PEs / time; 2mnk / time for {@link GemmCollective#NONE}, where each PE does it all. */
        public double tflopsPerPe() {
            return flopsPerPe() / (ms * 1e9);
        }

        public double refTflopsPerPe() {
            return flopsPerPe() / (refMs * 1e9);
        }

        private double flopsPerPe() {
            return GemmBenchmark.flopsPerPe(collective, shape, nPes);
        }
    }

    /** One PE's share of a call's work: 2mnk / PEs; 2mnk for {@link GemmCollective#NONE}, where each PE does it all. */
    static double flopsPerPe(GemmCollective collective, GemmShape shape, int nPes) {
        return collective == GemmCollective.NONE ? shape.flops() : shape.flops() / nPes;
    }

    private final Shmem shmem;
    private final GemmCollective collective;
    private final DType type;
    private final BLayout bLayout;
    private final GemmOptions options;
    private final Settings settings;
    private final Optional<DeviceInfo> device;

    /** Runs GEMMs of {@code type} with B stored in {@code bLayout}, planned with {@code options}. */
    public GemmBenchmark(Shmem shmem, GemmCollective collective, DType type, BLayout bLayout, GemmOptions options,
                         Settings settings) {
        this.shmem = shmem;
        this.collective = collective;
        this.type = Elements.check(type, "GemmBenchmark");
        this.bLayout = java.util.Objects.requireNonNull(bLayout, "GemmBenchmark: B layout is null");
        this.options = options;
        this.settings = settings;
        this.device = DeviceInfo.find(shmem);
        if (settings.reference() && device.isEmpty()) {
            throw new IllegalArgumentException("--reference needs a GPU heap (cuBLAS + jshmem's collective); this PE's"
                    + " heap is in host memory");
        }
    }

    /** Plans, fills, validates (if asked) and times one shape. */
    public Result run(GemmShape shape) {
        long t0 = System.nanoTime();
        double ms, refMs = Double.NaN, err = Double.NaN, refErr = Double.NaN;
        String what;
        double createMs;
        try (FusedGemm gemm = FusedGemm.create(shmem, collective, shape, type, bLayout, options);
             Data data = new Data(gemm)) {
            createMs = (System.nanoTime() - t0) / 1e6;
            what = gemm.describe();
            data.fill(gemm);
            if (settings.validate()) {
                err = validate(gemm, data, "validated");
                if (settings.backToBack() > 0) {
                    for (int i = 0; i < settings.backToBack(); i++) {
                        gemm.run(data.a, data.b, data.c);
                    }
                    shmem.barrierAll();
                    err = Math.max(err, check(data, "validated-after-" + settings.backToBack() + "-calls"));
                }
            }
            ms = time(gemm, data);
        }
        if (settings.reference()) {
            try (FusedGemm ref = FusedGemm.create(shmem, collective, shape, type, bLayout,
                    options.withPath(GemmPath.REFERENCE));
                 Data data = new Data(ref)) {
                data.fill(ref);
                if (settings.validate()) {
                    refErr = validate(ref, data, "validated-reference");
                }
                refMs = time(ref, data);
            }
        }
        double bound = TestMatrices.errorBound(type);
        boolean passed = !settings.validate() || (err <= bound && (Double.isNaN(refMs) || refErr <= bound));
        return new Result(collective, shape, type, shmem.nPes(), what, ms, refMs, err, refErr, bound,
                settings.validate(), passed, createMs, device.map(DeviceInfo::name).orElse("CPU"));
    }

    private double validate(FusedGemm gemm, Data data, String label) {
        data.poisonC();
        shmem.barrierAll();   // no peer writes into this C before it is poisoned
        gemm.run(data.a, data.b, data.c);
        shmem.barrierAll();
        return check(data, label);
    }

    private double check(Data data, String label) {
        GemmShape g = data.global;
        ShardLayout.Window w = data.layout.cWindow(shmem.myPe());
        double err = device.isPresent() ? data.gpuError(w)
                : TestMatrices.relativeError(data.c.local(), g, type, bLayout, w);
        double bound = TestMatrices.errorBound(type);
        System.out.printf("PE %d %s %s %s %s on %d PEs: rel_err %.3e bound %.3e %s%n", shmem.myPe(), label,
                collective.cliName(), g, type, shmem.nPes(), err, bound, err <= bound ? "PASS" : "FAIL");
        return err;
    }

    /**
     * Work (2mnk per PE, summed) that the warm-up does at least on a GPU: about 100 ms at 700
     * TFLOP/s, so that the clocks have risen after the idle of planning and compiling: with 5 warm-up
     * calls only, the first case of a run measured up to a half slower than the same case run later.
     */
    static final double GPU_WARMUP_FLOPS = 7e13;

    /**
     * Untimed calls before the timed ones: {@code asked}, and on a GPU at least enough for
     * {@link #GPU_WARMUP_FLOPS} of each PE's work (at most 10 000). It follows from the collective and
     * the shape alone, so every PE of a fused collective makes the same number of calls.
     */
    static int warmupCalls(int asked, GemmCollective collective, GemmShape shape, int nPes, boolean gpu) {
        if (!gpu) {
            return asked;
        }
        double perCall = flopsPerPe(collective, shape, nPes);
        return (int) Math.max(asked, Math.min(10_000, Math.ceil(GPU_WARMUP_FLOPS / perCall)));
    }

    private double time(FusedGemm gemm, Data data) {
        int warmup = warmupCalls(settings.warmup(), collective, data.global, shmem.nPes(), device.isPresent());
        for (int i = 0; i < warmup; i++) {
            gemm.run(data.a, data.b, data.c);
        }
        shmem.barrierAll();
        double[] ms = new double[settings.iters()];
        if (device.isPresent()) {
            try (ShmemStream s = shmem.createStream()) {
                List<ShmemEvent> events = new ArrayList<>();
                for (int i = 0; i < 2 * ms.length; i++) {
                    events.add(shmem.createEvent());
                }
                for (int i = 0; i < ms.length; i++) {
                    s.record(events.get(2 * i));
                    gemm.runOnStream(data.a, data.b, data.c, s);
                    s.record(events.get(2 * i + 1));
                }
                s.synchronize();
                for (int i = 0; i < ms.length; i++) {
                    ms[i] = events.get(2 * i + 1).elapsedMillisSince(events.get(2 * i));
                }
                events.forEach(ShmemEvent::close);
            }
        } else {
            for (int i = 0; i < ms.length; i++) {
                long t = System.nanoTime();
                gemm.run(data.a, data.b, data.c);
                ms[i] = (System.nanoTime() - t) / 1e6;
            }
        }
        shmem.barrierAll();
        Arrays.sort(ms);
        return slowest(ms[ms.length / 2]);
    }

    /**
     * The largest of the PEs' medians: a collective call takes as long as its slowest PE, and PE 0's
     * figure alone would hide a slower GPU (two GPUs of one machine can differ by tens of us per call).
     */
    private double slowest(double median) {
        SymmetricSegment both = shmem.malloc(2 * Double.BYTES);
        try {
            int me = shmem.myPe();
            shmem.put(both, 0, new double[] {median}, 0, 1, me);
            shmem.teamWorld().reduce(ReduceOp.MAX, DType.DOUBLE, both.asSlice(Double.BYTES, Double.BYTES),
                    both.asSlice(0, Double.BYTES), 1);
            double[] max = new double[1];
            shmem.get(max, 0, 1, both, Double.BYTES, me);
            return max[0];
        } finally {
            shmem.free(both);
        }
    }

    /** A case's matrices on the heap, and on GPUs the whole GEMM's inputs and cuBLAS's C for validation. */
    private final class Data implements AutoCloseable {
        final GemmShape global;
        final ShardLayout layout;
        final SymmetricSegment a;
        final SymmetricSegment b;
        final SymmetricSegment c;
        private final List<SymmetricSegment> owned = new ArrayList<>();
        private UtilKernels util;
        private ShmemStream stream;
        private SymmetricSegment refC;
        private SymmetricSegment sums;

        Data(FusedGemm gemm) {
            layout = gemm.layout();
            global = layout.global();
            long es = type.byteSize();
            long check = settings.validate() && device.isPresent()
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

        void fill(FusedGemm gemm) {
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

        void poisonC() {
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
        double gpuError(ShardLayout.Window w) {
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
}
