package org.jshmem.perf;

import java.util.List;
import org.jshmem.Cmp;
import org.jshmem.Shmem;
import org.jshmem.SignalOp;
import org.jshmem.SymmetricSegment;

/**
 * Latency of single operations: p and wait_until ping-pong, g, put + quiet, get, and
 * put-with-signal ping-pong. Ping-pongs report one way (half the round trip), as the anchors.
 */
public final class LatencyFamily implements BenchmarkFamily {
    static final Sizes SIZES = Sizes.sweep(8, 1L << 20, 2);

    /** Keeps fetched values alive, so that the JIT cannot drop the loads. */
    static volatile long sink;

    @Override
    public String name() {
        return "latency";
    }

    @Override
    public List<Benchmark> benchmarks() {
        return List.of(
                Benchmark.named("p_latency").family(name())
                        .summary("p + wait_until ping-pong, one-way latency")
                        .method("PE 0 p's i into PE 1's flag and waits until its own flag is i; PE 1 waits, then p's"
                                + " i back; time on PE 0 / (2 n)")
                        .metric(Metric.LATENCY).ops("p").types("int", "long")
                        .iterations(Iterations::scalar).work((c, n) -> 2)
                        .host(LatencyFamily::pPingPong).build(),
                Benchmark.named("g_latency").family(name())
                        .summary("g (scalar get) latency")
                        .method("PE 0 issues n g's of PE 1's word; time on PE 0 / n")
                        .metric(Metric.LATENCY).ops("g").types("byte", "short", "int", "long", "float", "double")
                        .iterations(Iterations::scalar).work((c, n) -> 1)
                        .host(LatencyFamily::g).build(),
                Benchmark.named("put_latency").family(name())
                        .summary("put + quiet latency")
                        .method("PE 0 issues n (put of the size to PE 1, then quiet); time on PE 0 / n")
                        .metric(Metric.LATENCY).sizes(SIZES).ops("put").types("byte")
                        .iterations(Iterations::transfer).work((c, n) -> 1)
                        .host(LatencyFamily::putQuiet).build(),
                Benchmark.named("get_latency").family(name())
                        .summary("blocking get latency")
                        .method("PE 0 issues n blocking gets of the size from PE 1; time on PE 0 / n")
                        .metric(Metric.LATENCY).sizes(SIZES).ops("get").types("byte")
                        .iterations(Iterations::transfer).work((c, n) -> 1)
                        .host(LatencyFamily::get).build(),
                Benchmark.named("put_signal_latency").family(name())
                        .summary("put with signal + signal_wait_until ping-pong, one-way latency")
                        .method("PE 0 puts the size to PE 1 with signal i (SET) and waits for its own signal to be i;"
                                + " PE 1 waits, then answers the same way; time on PE 0 / (2 n)")
                        .metric(Metric.LATENCY).sizes(SIZES).ops("put_signal").types("byte")
                        .iterations(Iterations::transfer).work((c, n) -> 2)
                        .host(LatencyFamily::putSignalPingPong).build());
    }

    private static TimedLoop pPingPong(Case c, PerfContext ctx) {
        Shmem shmem = ctx.shmem();
        SymmetricSegment flag = ctx.flags();
        long at = PerfContext.PING;
        int peer = ctx.partner();
        boolean first = ctx.me() == 0;
        if (c.type().equals("int")) {
            int[] seq = {0};
            return n -> {
                long t0 = System.nanoTime();
                if (peer >= 0) {
                    int s = seq[0];
                    for (long i = 0; i < n; i++) {
                        s++;
                        if (first) {
                            shmem.pInt(flag, at, s, peer);
                            shmem.waitUntilInt(flag, at, Cmp.EQ, s);
                        } else {
                            shmem.waitUntilInt(flag, at, Cmp.EQ, s);
                            shmem.pInt(flag, at, s, peer);
                        }
                    }
                    seq[0] = s;
                }
                return System.nanoTime() - t0;
            };
        }
        long[] seq = {0};
        return n -> {
            long t0 = System.nanoTime();
            if (peer >= 0) {
                long s = seq[0];
                for (long i = 0; i < n; i++) {
                    s++;
                    if (first) {
                        shmem.pLong(flag, at, s, peer);
                        shmem.waitUntilLong(flag, at, Cmp.EQ, s);
                    } else {
                        shmem.waitUntilLong(flag, at, Cmp.EQ, s);
                        shmem.pLong(flag, at, s, peer);
                    }
                }
                seq[0] = s;
            }
            return System.nanoTime() - t0;
        };
    }

    private static TimedLoop g(Case c, PerfContext ctx) {
        Shmem shmem = ctx.shmem();
        SymmetricSegment w = ctx.flags();
        long at = PerfContext.SCRATCH;
        int peer = ctx.partner();
        boolean active = ctx.root();
        return switch (c.type()) {
            case "byte" -> n -> {
                long t0 = System.nanoTime();
                long acc = 0;
                if (active) {
                    for (long i = 0; i < n; i++) {
                        acc += shmem.gByte(w, at, peer);
                    }
                }
                long t = System.nanoTime() - t0;
                sink = acc;
                return t;
            };
            case "short" -> n -> {
                long t0 = System.nanoTime();
                long acc = 0;
                if (active) {
                    for (long i = 0; i < n; i++) {
                        acc += shmem.gShort(w, at, peer);
                    }
                }
                long t = System.nanoTime() - t0;
                sink = acc;
                return t;
            };
            case "int" -> n -> {
                long t0 = System.nanoTime();
                long acc = 0;
                if (active) {
                    for (long i = 0; i < n; i++) {
                        acc += shmem.gInt(w, at, peer);
                    }
                }
                long t = System.nanoTime() - t0;
                sink = acc;
                return t;
            };
            case "long" -> n -> {
                long t0 = System.nanoTime();
                long acc = 0;
                if (active) {
                    for (long i = 0; i < n; i++) {
                        acc += shmem.gLong(w, at, peer);
                    }
                }
                long t = System.nanoTime() - t0;
                sink = acc;
                return t;
            };
            case "float" -> n -> {
                long t0 = System.nanoTime();
                double acc = 0;
                if (active) {
                    for (long i = 0; i < n; i++) {
                        acc += shmem.gFloat(w, at, peer);
                    }
                }
                long t = System.nanoTime() - t0;
                sink = (long) acc;
                return t;
            };
            case "double" -> n -> {
                long t0 = System.nanoTime();
                double acc = 0;
                if (active) {
                    for (long i = 0; i < n; i++) {
                        acc += shmem.gDouble(w, at, peer);
                    }
                }
                long t = System.nanoTime() - t0;
                sink = (long) acc;
                return t;
            };
            default -> throw new IllegalArgumentException(c.type());
        };
    }

    /**
     * n (blocking put of the size from the symmetric src to PE 1's dst, then quiet). The source is
     * symmetric, so on a GPU heap each put is one device-to-device copy (copy engine) and its
     * wait: what NVSHMEM's host {@code nvshmem_putmem(dst, src, 8, peer); nvshmem_quiet()} loop
     * measures (the anchor's "host putmem 8 B + quiet", 1000 iterations: {@code --sizes 8 --iters 1000}).
     */
    private static TimedLoop putQuiet(Case c, PerfContext ctx) {
        Shmem shmem = ctx.shmem();
        SymmetricSegment src = ctx.src();
        SymmetricSegment dst = ctx.dst();
        long size = c.size();
        int peer = ctx.partner();
        boolean active = ctx.root();
        return n -> {
            long t0 = System.nanoTime();
            if (active) {
                for (long i = 0; i < n; i++) {
                    shmem.put(dst, 0, src, 0, size, peer);
                    shmem.quiet();
                }
            }
            return System.nanoTime() - t0;
        };
    }

    private static TimedLoop get(Case c, PerfContext ctx) {
        Shmem shmem = ctx.shmem();
        SymmetricSegment src = ctx.src();
        SymmetricSegment dst = ctx.dst();
        long size = c.size();
        int peer = ctx.partner();
        boolean active = ctx.root();
        return n -> {
            long t0 = System.nanoTime();
            if (active) {
                for (long i = 0; i < n; i++) {
                    shmem.get(dst, 0, src, 0, size, peer);
                }
            }
            return System.nanoTime() - t0;
        };
    }

    private static TimedLoop putSignalPingPong(Case c, PerfContext ctx) {
        Shmem shmem = ctx.shmem();
        SymmetricSegment src = ctx.src();
        SymmetricSegment dst = ctx.dst();
        SymmetricSegment sig = ctx.flags();
        long at = PerfContext.SIGNAL;
        long size = c.size();
        int peer = ctx.partner();
        boolean first = ctx.me() == 0;
        long[] seq = {0};
        return n -> {
            long t0 = System.nanoTime();
            if (peer >= 0) {
                long s = seq[0];
                for (long i = 0; i < n; i++) {
                    s++;
                    if (first) {
                        shmem.putSignal(dst, 0, src, 0, size, sig, at, s, SignalOp.SET, peer);
                        shmem.signalWaitUntil(sig, at, Cmp.EQ, s);
                    } else {
                        shmem.signalWaitUntil(sig, at, Cmp.EQ, s);
                        shmem.putSignal(dst, 0, src, 0, size, sig, at, s, SignalOp.SET, peer);
                    }
                }
                seq[0] = s;
            }
            return System.nanoTime() - t0;
        };
    }
}
