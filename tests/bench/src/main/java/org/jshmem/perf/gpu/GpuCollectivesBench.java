package org.jshmem.perf.gpu;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.Shmem;
import org.jshmem.ShmemConfig;
import org.jshmem.ShmemStream;
import org.jshmem.SymmetricSegment;
import org.jshmem.Team;
import org.jshmem.gpu.GpuBackend;
import org.jshmem.GpuCollectiveTuning;
import org.jshmem.perf.GpuClock;
import org.jshmem.perf.Ones;

/**
 * GPU collectives against the NVSHMEM anchor ({@code ../shared/anchors/nvshmem_anchor.cu}), timed
 * the same way: float sum all-reduce and fcollect on a stream, 1 KiB .. 64 MiB (x4 steps; bytes
 * per PE for fcollect), each size 5 times (a barrier on the stream, an event, {@code iters} calls
 * back to back on the stream, an event; 200 calls below 1 MiB, 20 from 1 MiB), the median of the
 * per-call times; barrier on a stream (1000 back to back, median of 5); and the blocking
 * (host-called) reduce and fcollect at a few sizes (host clock, median of 5). Bus bandwidth as the
 * anchor's: all-reduce {@code 2(n-1)/n x bytes / t}, fcollect {@code (n-1)/n x n x bytes / t}.
 * PE 0 prints a table and writes CSV ({@code collective,form,bytes,iters,us_per_call,busbw_GBps,algorithm}).
 * After each timed size it checks the result (every element must be {@code n}, the sum of the PEs'
 * 1.0s / the fcollect of 1.0s) and says so if not.
 *
 * <pre>JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=512M bin/jshmemrun -np 2 org.jshmem.perf.gpu.GpuCollectivesBench out.csv [maxBytes] [reps]</pre>
 *
 * The thresholds come from the environment ({@code JSHMEM_GPU_*}, see {@link ShmemConfig}), so
 * runs with e.g. {@code JSHMEM_GPU_REDUCE_ONESHOT_MAX=0} (always two-shot) and {@code =1G} (one-shot)
 * show where each algorithm wins. Targets on 2 x H200 (ANCHORS.md): all-reduce 1 KiB <= 4 us,
 * 64 MiB >= 340 GB/s; fcollect 64 MiB per PE >= 340 GB/s; barrier on a stream <= 4 us.
 */
public final class GpuCollectivesBench {
    private record Row(String collective, String form, long bytes, int iters, double us, double busBw, String algorithm) {
    }

    /** Host-called reduces and fcollects made before timing (see {@link #warmUp}). */
    private static final int BLOCKING_WARMUP_CALLS = 10_000;

    private final Shmem shmem;
    private final GpuClock clock;
    private final ShmemStream stream;
    private final int reps;
    private final int n;
    private final Team world;
    private final GpuCollectiveTuning tuning;
    private final int sms;
    private final List<Row> rows = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();

    private GpuCollectivesBench(Shmem shmem, GpuClock clock, int reps) {
        this.shmem = shmem;
        this.clock = clock;
        this.stream = clock.stream();
        this.reps = reps;
        this.n = shmem.nPes();
        this.world = shmem.teamWorld();
        this.tuning = shmem.config().gpuCollectiveTuning();
        this.sms = shmem.unwrap(GpuBackend.class).multiprocessorsPerPe();
    }

    public static void main(String[] args) {
        Path csv = args.length > 0 ? Path.of(args[0]) : null;
        long maxBytes = args.length > 1 ? ShmemConfig.parseSize(args[1]) : 64L << 20;
        int reps = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        try (Shmem shmem = Shmem.init(); GpuClock clock = new GpuClock(shmem)) {
            new GpuCollectivesBench(shmem, clock, reps).run(csv, maxBytes);
        }
    }

    private void run(Path csv, long maxBytes) {
        int me = shmem.myPe();
        SymmetricSegment src = shmem.malloc(maxBytes);
        SymmetricSegment dest = shmem.malloc(maxBytes * n);
        SymmetricSegment signals = shmem.calloc(n, Long.BYTES);
        long[] signal = {0};   // a new value per signalled gather: no reset between calls
        Ones.fill(shmem, src, DType.FLOAT);
        shmem.barrierAll();
        if (me == 0) {
            System.out.println("# jshmem GpuCollectivesBench: " + shmem.describe() + ", " + n + " PEs");
            System.out.println("# " + shmem.describeCollectives());
            System.out.println("# median of " + reps + " runs; on-stream: calls back to back on one stream between"
                    + " events (200 below 1 MiB, 20 above), as nvshmem_anchor.cu; busbw: all-reduce 2(n-1)/n x bytes/t,"
                    + " fcollect (n-1)/n x n x bytes/t, reduce-scatter (n-1)/n x bytes/t (bytes: the whole source)");
        }
        warmUp(src, dest, signals, signal);
        if (me == 0) {
            System.out.println("# warmed up");
            System.out.flush();
        }
        for (long bytes = 1024; bytes <= maxBytes; bytes *= 4) {
            long count = bytes / Float.BYTES;
            int iters = bytes < (1 << 20) ? 200 : 20;
            SymmetricSegment s = src.asSlice(0, bytes);
            SymmetricSegment d = dest.asSlice(0, bytes);
            double us = onStream(iters, () -> world.reduceOnStream(ReduceOp.SUM, DType.FLOAT, d, s, count, stream));
            check("reduce on stream", d, count, n);
            add(new Row("reduce_sum_float", "stream", bytes, iters, us, 2.0 * (n - 1) / n * bytes / (us * 1e3),
                    reduceAlgorithm(bytes)));
            SymmetricSegment dn = dest.asSlice(0, bytes * n);
            us = onStream(iters, () -> world.fcollectOnStream(dn, s, count, DType.FLOAT, stream));
            check("fcollect on stream", dn, count * n, 1);
            add(new Row("fcollect_float", "stream", bytes, iters, us, (n - 1.0) / n * n * bytes / (us * 1e3),
                    pullAlgorithm(bytes, bytes * n)));
            us = onStream(iters, () -> world.fcollectSignalOnStream(dn, s, count, DType.FLOAT, signals, ++signal[0],
                    stream, null));
            check("fcollect with signals on stream", dn, count * n, 1);
            add(new Row("fcollect_signal_float", "stream", bytes, iters, us, (n - 1.0) / n * n * bytes / (us * 1e3),
                    "copy engines, a signal per block, barriers on both ends"));
            long perPe = count / n;    // reduce-scatter of `bytes` in all: each PE gets bytes / n
            if (perPe > 0) {
                SymmetricSegment rd = dest.asSlice(0, perPe * Float.BYTES);
                SymmetricSegment rs = src.asSlice(0, perPe * n * Float.BYTES);
                us = onStream(iters, () -> world.reduceScatterOnStream(ReduceOp.SUM, DType.FLOAT, rd, rs, perPe, stream));
                check("reduce-scatter on stream", rd, perPe, n);
                add(new Row("reducescatter_sum_float", "stream", perPe * n * Float.BYTES, iters, us,
                        (n - 1.0) / n * perPe * n * Float.BYTES / (us * 1e3),
                        reduceScatterAlgorithm(perPe * Float.BYTES)));
            }
        }
        double us = onStream(1000, () -> world.barrierOnStream(stream));
        add(new Row("barrier", "stream", 0, 1000, us, 0, "one block"));
        for (long bytes : new long[] {1024, 1 << 20, 64L << 20}) {
            if (bytes > maxBytes) {
                continue;
            }
            long count = bytes / Float.BYTES;
            int iters = bytes < (1 << 20) ? 200 : bytes < (16 << 20) ? 50 : 10;
            SymmetricSegment s = src.asSlice(0, bytes);
            SymmetricSegment d = dest.asSlice(0, bytes);
            SymmetricSegment dn = dest.asSlice(0, bytes * n);
            us = blocking(iters, () -> world.reduce(ReduceOp.SUM, DType.FLOAT, d, s, count));
            check("blocking reduce", d, count, n);
            add(new Row("reduce_sum_float", "blocking", bytes, iters, us, 2.0 * (n - 1) / n * bytes / (us * 1e3),
                    reduceAlgorithm(bytes)));
            us = blocking(iters, () -> world.fcollect(dn, s, count, DType.FLOAT));
            check("blocking fcollect", dn, count * n, 1);
            add(new Row("fcollect_float", "blocking", bytes, iters, us, (n - 1.0) / n * n * bytes / (us * 1e3),
                    pullAlgorithm(bytes, bytes * n)));
        }
        us = blocking(1000, world::barrier);
        add(new Row("barrier", "blocking", 0, 1000, us, 0, "host"));
        if (me == 0) {
            print();
            if (csv != null) {
                writeCsv(csv);
            }
            System.out.println(problems.isEmpty() ? "# results checked: ok" : "# RESULTS WRONG: " + problems);
        }
        shmem.barrierAll();
        shmem.free(signals);
        shmem.free(dest);
        shmem.free(src);
    }

    /**
     * The JIT and the first-use paths (copy-engine side streams) warmed before anything is timed:
     * every timed on-stream call once per round, 3000 rounds at 1 KiB, so that the first timed size
     * does not pay for the JIT compiling a call's Java path (it showed as a 1 KiB reduce-scatter
     * slower than the 4 KiB one).
     */
    private void warmUp(SymmetricSegment src, SymmetricSegment dest, SymmetricSegment signals, long[] signal) {
        long count = 256;
        long perPe = count / n;
        for (int i = 0; i < 3000; i++) {
            world.reduceOnStream(ReduceOp.SUM, DType.FLOAT, dest.asSlice(0, count * 4), src.asSlice(0, count * 4), count,
                    stream);
            world.fcollectOnStream(dest.asSlice(0, count * 4 * n), src.asSlice(0, count * 4), count, DType.FLOAT, stream);
            world.fcollectSignalOnStream(dest.asSlice(0, count * 4 * n), src.asSlice(0, count * 4), count, DType.FLOAT,
                    signals, ++signal[0], stream, null);
            world.reduceScatterOnStream(ReduceOp.SUM, DType.FLOAT, dest.asSlice(0, perPe * 4),
                    src.asSlice(0, perPe * 4 * n), perPe, stream);
            world.barrierOnStream(stream);
            if (i % 100 == 99) {
                stream.synchronize();
            }
        }
        stream.synchronize();
        // The host-called calls too, until the JIT has settled on their path: a 1 KiB blocking reduce times two to
        // ten times slower while the JIT recompiles it, about 5000 calls in, and steady from about 7000 calls on.
        for (int i = 0; i < BLOCKING_WARMUP_CALLS; i++) {
            world.reduce(ReduceOp.SUM, DType.FLOAT, dest.asSlice(0, count * 4), src.asSlice(0, count * 4), count);
            world.fcollect(dest.asSlice(0, count * 4 * n), src.asSlice(0, count * 4), count, DType.FLOAT);
        }
        // The timing loop as well (onStream, its events and call site), as the first timed size will run it:
        // with only the calls warmed, that size's first reduce measured several times slower in some runs.
        for (int i = 0; i < 10; i++) {
            onStream(200, () -> world.reduceOnStream(ReduceOp.SUM, DType.FLOAT, dest.asSlice(0, count * 4),
                    src.asSlice(0, count * 4), count, stream));
            onStream(200, () -> world.reduceScatterOnStream(ReduceOp.SUM, DType.FLOAT, dest.asSlice(0, perPe * 4),
                    src.asSlice(0, perPe * 4 * n), perPe, stream));
        }
        shmem.barrierAll();
    }

    /** Median over the reps of the microseconds per call, {@code iters} calls back to back on the stream. */
    private double onStream(int iters, Runnable call) {
        for (int i = 0; i < Math.min(iters, 20); i++) {
            call.run();
        }
        double[] us = new double[reps];
        for (int r = 0; r < reps; r++) {
            long nanos = clock.timeAfterBarrier(shmem, () -> {
                for (int i = 0; i < iters; i++) {
                    call.run();
                }
            });
            us[r] = nanos / 1e3 / iters;
        }
        return median(us);
    }

    /** Median over the reps of the host-clock microseconds per blocking call. */
    private double blocking(int iters, Runnable call) {
        for (int i = 0; i < Math.min(iters, 20); i++) {
            call.run();
        }
        double[] us = new double[reps];
        for (int r = 0; r < reps; r++) {
            shmem.barrierAll();
            long t0 = System.nanoTime();
            for (int i = 0; i < iters; i++) {
                call.run();
            }
            us[r] = (System.nanoTime() - t0) / 1e3 / iters;
        }
        return median(us);
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    private String reduceAlgorithm(long bytes) {
        if (tuning.reduceLowLatency(n, bytes)) {
            return "low-latency one block";
        }
        boolean two = tuning.reduceTwoShot(n, bytes, false);
        if (two && tuning.reduceCopyEngineLanes(n, bytes) > 0) {
            return "two-shot, copy engines";
        }
        int blocks = tuning.blocks(bytes, sms);
        return (two ? "two-shot" : "one-shot") + (blocks == 0 ? " one block" : " " + blocks + " blocks"
                + (two && tuning.reduceRotated(n, bytes) ? ", one member at a time" : ""));
    }

    private String reduceScatterAlgorithm(long block) {
        if (tuning.reduceScatterCopyEngineLanes(block) > 0) {
            return "copy engines";
        }
        int blocks = tuning.blocks(block * n, sms);
        return blocks == 0 ? "one block" : blocks + " blocks"
                + (tuning.reduceRotated(n, block * n) ? ", one member at a time" : "");
    }

    private String pullAlgorithm(long piece, long received) {
        if (tuning.copyEngine(piece)) {
            return "copy engines";
        }
        int blocks = tuning.blocks(received, sms);
        return blocks == 0 ? "one block" : blocks + " blocks";
    }

    // ---------------------------------------------------------------- data

    /** The first and last elements of {@code count} floats of seg must be {@code want}. */
    private void check(String what, SymmetricSegment seg, long count, float want) {
        stream.synchronize();
        float[] v = new float[1];
        for (long k : new long[] {0, count / 2, count - 1}) {
            shmem.get(v, 0, 1, seg, k * Float.BYTES, shmem.myPe());
            if (v[0] != want) {
                problems.add(what + " of " + count + " floats: element " + k + " is " + v[0] + ", expected " + want);
                return;
            }
        }
    }

    // ---------------------------------------------------------------- output

    /** Keeps a row and, on PE 0, prints it at once (a run cut short still shows what it measured). */
    private void add(Row r) {
        rows.add(r);
        if (shmem.myPe() == 0) {
            System.out.printf(Locale.ROOT, "# measured: %s %s %d bytes: %.2f us/call, %.1f GB/s bus (%s)%n", r.collective(),
                    r.form(), r.bytes(), r.us(), r.busBw(), r.algorithm());
            System.out.flush();
        }
    }

    private void print() {
        System.out.printf("%-18s %-9s %12s %7s %12s %12s  %s%n", "collective", "form", "bytes", "iters", "us/call",
                "busbw_GB/s", "algorithm");
        for (Row r : rows) {
            System.out.printf(Locale.ROOT, "%-18s %-9s %12d %7d %12.2f %12.1f  %s%n", r.collective(), r.form(), r.bytes(),
                    r.iters(), r.us(), r.busBw(), r.algorithm());
        }
    }

    private void writeCsv(Path csv) {
        try {
            if (csv.getParent() != null) {
                Files.createDirectories(csv.getParent());
            }
            try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(csv))) {
                w.println("collective,form,bytes,iters,us_per_call,busbw_GBps,algorithm,pes");
                for (Row r : rows) {
                    // the algorithm's description holds commas: quoted (RFC 4180), so the row keeps its 8 fields
                    w.printf(Locale.ROOT, "%s,%s,%d,%d,%.3f,%.2f,\"%s\",%d%n", r.collective(), r.form(), r.bytes(),
                            r.iters(), r.us(), r.busBw(), r.algorithm().replace("\"", "\"\""), n);
                }
            }
            System.out.println("# CSV written to " + csv.toAbsolutePath());
        } catch (IOException e) {
            throw new UncheckedIOException("writing " + csv, e);
        }
    }
}
