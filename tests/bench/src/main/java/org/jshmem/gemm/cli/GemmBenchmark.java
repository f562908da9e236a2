package org.jshmem.gemm.cli;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.jshmem.DType;
import org.jshmem.Shmem;
import org.jshmem.ShmemEvent;
import org.jshmem.ShmemStream;
import org.jshmem.SymmetricSegment;
import org.jshmem.device.DeviceInfo;
import org.jshmem.gemm.BLayout;
import org.jshmem.gemm.FusedGemm;
import org.jshmem.gemm.GemmCollective;
import org.jshmem.gemm.GemmOptions;
import org.jshmem.gemm.GemmPath;
import org.jshmem.gemm.GemmShape;
import org.jshmem.gemm.GemmTestData;
import org.jshmem.gemm.TestMatrices;

/**
 * Runs, validates and times fused GEMMs the way the {@code gemm} command does (collective: every
 * PE calls {@link #run} with the same shapes). Inputs are {@link TestMatrices}; validation compares
 * every PE's C with cuBLAS on the whole, unsharded GEMM (GPU heaps) or with the product in double
 * (host heaps), once, outside the timed calls. Times are medians of per-call times (device events
 * around {@code runOnStream} on GPUs, the wall clock around {@code run} on the CPU), the slowest PE's.
 */
public final class GemmBenchmark {
    /** What to do per case. */
    public record Settings(boolean validate, boolean reference, int iters, int warmup, int backToBack, boolean perPe) {
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
        this.type = java.util.Objects.requireNonNull(type, "GemmBenchmark: type is null");
        this.bLayout = java.util.Objects.requireNonNull(bLayout, "GemmBenchmark: B layout is null");
        this.options = options;
        this.settings = settings;
        this.device = DeviceInfo.find(shmem);
    }

    /** Plans, fills, validates (if asked) and times one shape. */
    public Result run(GemmShape shape) {
        long t0 = System.nanoTime();
        double ms, refMs = Double.NaN, err = Double.NaN, refErr = Double.NaN;
        String what;
        double createMs;
        try (FusedGemm gemm = FusedGemm.create(shmem, collective, shape, type, bLayout, options);
             GemmTestData data = new GemmTestData(shmem, gemm, settings.validate())) {
            createMs = (System.nanoTime() - t0) / 1e6;
            what = gemm.describe();
            data.fill();
            if (settings.validate()) {
                err = validate(gemm, data, "validated");
                if (settings.backToBack() > 0) {
                    for (int i = 0; i < settings.backToBack(); i++) {
                        gemm.run(data.a(), data.b(), data.c());
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
                 GemmTestData data = new GemmTestData(shmem, ref, settings.validate())) {
                data.fill();
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

    private double validate(FusedGemm gemm, GemmTestData data, String label) {
        data.poisonC();
        shmem.barrierAll();   // no peer writes into this C before it is poisoned
        gemm.run(data.a(), data.b(), data.c());
        shmem.barrierAll();
        return check(data, label);
    }

    /**
     * This PE's error against the reference; PE 0 prints one line for all PEs (the largest error, and the
     * PEs past the bound), each PE its own with {@link Settings#perPe}. Returns the largest error of all PEs.
     */
    private double check(GemmTestData data, String label) {
        GemmShape g = data.global();
        double err = data.relativeError();
        double bound = TestMatrices.errorBound(type);
        String what = label + " " + collective.cliName() + " " + g + " " + type + " on " + shmem.nPes() + " PEs";
        if (settings.perPe()) {   // one write per line, so that lines of several PEs do not break into each other
            System.out.print(String.format(Locale.ROOT, "PE %d %s: rel_err %.3e bound %.3e %s%n", shmem.myPe(), what,
                    err, bound, err <= bound ? "PASS" : "FAIL"));
        }
        double[] all = everyPe(err);
        int worst = 0;
        List<Integer> failed = new ArrayList<>();
        for (int pe = 0; pe < all.length; pe++) {
            worst = all[pe] > all[worst] ? pe : worst;
            if (!(all[pe] <= bound)) {
                failed.add(pe);
            }
        }
        if (shmem.myPe() == 0) {
            System.out.print(String.format(Locale.ROOT, "%s: largest rel_err %.3e (PE %d), bound %.3e: %s%n", what,
                    all[worst], worst, bound, failed.isEmpty() ? "PASS on every PE" : "FAIL on PEs " + failed));
        }
        return all[worst];
    }

    /** Every PE's {@code value}, on every PE. */
    private double[] everyPe(double value) {
        int n = shmem.nPes();
        SymmetricSegment slots = shmem.malloc((long) n * Double.BYTES);
        try {
            for (int pe = 0; pe < n; pe++) {
                shmem.put(slots, (long) shmem.myPe() * Double.BYTES, new double[] {value}, 0, 1, pe);
            }
            shmem.barrierAll();
            double[] all = new double[n];
            shmem.get(all, 0, n, slots, 0, shmem.myPe());
            shmem.barrierAll();   // no PE frees the slots while another still writes
            return all;
        } finally {
            shmem.free(slots);
        }
    }

    /**
     * Work (2mnk per PE, summed) that the warm-up does at least on a GPU: about 100 ms at 700
     * TFLOP/s, so that the clocks have risen after the idle of planning and compiling: with 5 warm-up
     * calls only, the first case of a run measured up to a half slower than the same case run later.
     */
    static final double GPU_WARMUP_FLOPS = 7e13;

    /**
     * Wall time that the warm-up spends at most on the calls added for the clocks: a path whose calls
     * wait on the host (the reference path across nodes, tens of ms a call) would otherwise spend minutes
     * on thousands of calls that the work rule asks for small shapes.
     */
    static final double GPU_WARMUP_MAX_MS = 1000;

    /**
     * Untimed calls before the timed ones: {@code asked}, and on a GPU at least enough for
     * {@link #GPU_WARMUP_FLOPS} of each PE's work (at most 10 000, and at most
     * {@link #GPU_WARMUP_MAX_MS} of calls of {@code callMs}). It follows from the collective, the shape
     * and the slowest PE's call time, so every PE of a fused collective makes the same number of calls.
     */
    static int warmupCalls(int asked, GemmCollective collective, GemmShape shape, int nPes, boolean gpu,
                           double callMs) {
        if (!gpu) {
            return asked;
        }
        double perCall = flopsPerPe(collective, shape, nPes);
        double forTheClocks = Math.min(Math.min(10_000, Math.ceil(GPU_WARMUP_FLOPS / perCall)),
                Math.ceil(GPU_WARMUP_MAX_MS / callMs));
        return (int) Math.max(asked, forTheClocks);
    }

    private double time(FusedGemm gemm, GemmTestData data) {
        // the asked warm-up calls, each timed: on a GPU the fastest (the slowest PE's) bounds the added calls
        boolean gpu = device.isPresent();
        double fastest = Double.MAX_VALUE;
        int done = gpu ? Math.max(1, settings.warmup()) : settings.warmup();
        for (int i = 0; i < done; i++) {
            long t = System.nanoTime();
            gemm.run(data.a(), data.b(), data.c());
            fastest = Math.min(fastest, (System.nanoTime() - t) / 1e6);
        }
        double callMs = gpu ? Arrays.stream(everyPe(fastest)).max().orElse(fastest) : fastest;
        int warmup = warmupCalls(settings.warmup(), collective, data.global(), shmem.nPes(), gpu, callMs);
        for (int i = done; i < warmup; i++) {
            gemm.run(data.a(), data.b(), data.c());
        }
        shmem.barrierAll();
        double[] ms = new double[settings.iters()];
        if (gpu) {
            try (ShmemStream s = shmem.createStream()) {
                List<ShmemEvent> events = new ArrayList<>();
                for (int i = 0; i < 2 * ms.length; i++) {
                    events.add(shmem.createEvent());
                }
                for (int i = 0; i < ms.length; i++) {
                    s.record(events.get(2 * i));
                    gemm.runOnStream(data.a(), data.b(), data.c(), s);
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
                gemm.run(data.a(), data.b(), data.c());
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
        return Arrays.stream(everyPe(median)).max().orElse(median);
    }

}
