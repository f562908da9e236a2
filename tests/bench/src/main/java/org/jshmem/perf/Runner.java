package org.jshmem.perf;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalDouble;
import org.jshmem.Shmem;

/**
 * The measuring harness, the same for every benchmark and form. Collective: every PE runs the
 * same cases in the same order. Per case: zero the flags, build the form's loop, run untimed
 * warm-up repetitions (at least {@code warmup}, and until PE 0 has spent {@code warmupMillis}
 * in them, so that the JIT has compiled the loop: PE 0 decides and the others follow), then
 * {@code reps} timed ones, each after a barrier; PE 0 turns its times into figures and keeps
 * the median, minimum and maximum.
 */
public final class Runner {
    private final PerfContext ctx;
    private final Form form;
    private final RunOptions options;
    private final String library;

    public Runner(PerfContext ctx, Form form, RunOptions options, String library) {
        this.ctx = ctx;
        this.form = form;
        this.options = options;
        this.library = library;
    }

    /** Runs every case of {@code b}; returns the rows on PE 0, nothing on the others. */
    public List<Row> run(Benchmark b, Progress progress) {
        Shmem shmem = ctx.shmem();
        List<Case> cases = options.cases(b, form);
        List<Row> rows = new ArrayList<>();
        if (cases.isEmpty()) {
            return rows;
        }
        ctx.allocate(options.bufferBytes(b, ctx.nPes(), form));
        if (ctx.root()) {
            progress.begin(b.name(), cases.size());
        }
        try {
            boolean transfer = b.family().equals(BandwidthFamily.NAME);
            for (Case c : cases) {
                ctx.resetFlags();
                TimedLoop loop = form.loop(c, ctx);
                long iters = options.iterationsOf(c, form);
                OptionalDouble ceiling = transfer && ctx.root() ? form.bandwidthCeiling(ctx) : OptionalDouble.empty();
                if (transfer) {
                    ctx.clearDestination();
                }
                warmUp(loop, iters);
                long[] nanos = new long[options.reps()];
                for (int r = 0; r < nanos.length; r++) {
                    shmem.barrierAll();
                    nanos[r] = loop.run(iters);
                }
                if (transfer) {
                    verify(c, ceiling, nanos, iters);
                }
                if (ctx.root()) {
                    rows.add(row(c, iters, nanos));
                    progress.step();
                }
            }
        } finally {
            if (ctx.root()) {
                progress.close();
            }
        }
        ctx.release();
        return rows;
    }

    /**
     * After a transfer case, outside the timed loop: the receiving PEs check that the destination
     * holds the source's bytes (a case that moved nothing, or the wrong bytes, stops the run), and
     * PE 0 flags a median above the ceiling its form measured for these PEs (a figure faster than
     * the hardware moved data is a measurement fault, e.g. reads served from a cache).
     */
    private void verify(Case c, OptionalDouble ceiling, long[] nanos, long iters) {
        String name = c.benchmark().name();
        boolean bidir = name.endsWith("_bibw");
        boolean receives = bidir ? ctx.partner() >= 0                        // PE 0 and PE 1 both
                : name.matches("i?put.*") ? ctx.me() == (ctx.nPes() == 1 ? 0 : 1)  // PE 0's partner
                : ctx.root();                                                    // a get lands at PE 0
        String fault = ctx.checkDestination(c.size(), receives);
        if (fault != null) {
            throw new IllegalStateException(c + " (" + form.name() + " form): after the timed loop " + fault
                    + "; the figure is not reported");
        }
        if (ceiling.isPresent() && ctx.root()) {
            double limit = ceiling.getAsDouble() * Form.CEILING_MARGIN * (bidir ? 2 : 1);
            Row r = row(c, iters, nanos);
            if (r.median() > limit) {
                System.err.printf("perf: warning: %s (%s form) measured %.1f GB/s, above %.1f GB/s, %.2fx the copy engine's"
                        + " rate between these PEs in this run%s: check it (above the link's rate it is a measurement fault;"
                        + " PEs on one GPU may beat the copy engine with SM copies)%n", c, form.name(),
                        r.median(), limit, Form.CEILING_MARGIN, bidir ? " (both directions)" : "");
            }
        }
    }

    private void warmUp(TimedLoop loop, long iters) {
        Shmem shmem = ctx.shmem();
        long start = System.nanoTime();
        long minNanos = options.warmupMillis() * 1_000_000;
        for (int w = 0; ; w++) {
            // PE 0 decides and everyone reads its word after the barrier. Two words, used in turn:
            // PE 0 writes word w % 2 again only after the next barrier, which every PE reaches
            // after reading it, so no PE can see a later decision than PE 0 acted on.
            long word = PerfContext.CONTROL + (w & 1) * Long.BYTES;
            if (ctx.root()) {
                boolean more = w < options.warmup() || System.nanoTime() - start < minNanos;
                shmem.pLong(ctx.flags(), word, more ? 1 : 0, 0);
            }
            shmem.barrierAll();
            if (shmem.gLong(ctx.flags(), word, 0) == 0) {
                return;
            }
            loop.run(iters);
        }
    }

    private Row row(Case c, long iters, long[] nanos) {
        Benchmark b = c.benchmark();
        double work = b.work().of(c, ctx.nPes());
        double[] v = new double[nanos.length];
        for (int i = 0; i < nanos.length; i++) {
            v[i] = b.metric().value(work, iters, nanos[i]);
        }
        Arrays.sort(v);
        return new Row(library, b.name(), form.name(), c.op(), c.type(), ctx.nPes(), c.size(), iters, v.length,
                b.metric().unit(), median(v), v[0], v[v.length - 1]);
    }

    /** Median of sorted values (mean of the middle two for an even count). */
    static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
