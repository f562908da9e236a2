package org.jshmem.perf;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.jshmem.Shmem;
import org.jshmem.SymmetricSegment;

/**
 * Put and get bandwidth, blocking and non-blocking, in one direction and in both.
 *
 * <p>One direction (as the anchors): after a barrier, PE 0 issues {@code iterations} transfers
 * of the message size between the symmetric buffers (put: its source to PE 1's destination;
 * get: PE 1's source into its destination), then a quiet; PE 0's time. Both directions: PE 0
 * and PE 1 do this towards each other at once, then a quiet and a sync of all PEs; the figure
 * counts the bytes of both.
 *
 * <p>Each operation has its own loop (not one loop calling an interface), so that the JIT sees
 * a single call target, as a C loop would.
 */
public final class BandwidthFamily implements BenchmarkFamily {
    static final String NAME = "bandwidth";
    static final Sizes SIZES = Sizes.sweep(8, 16L << 20, 2);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<Benchmark> benchmarks() {
        List<Benchmark> l = new ArrayList<>();
        for (String op : List.of("put", "get", "put_nbi", "get_nbi")) {
            for (boolean bidir : new boolean[] {false, true}) {
                String what = switch (op) {
                    case "put" -> "blocking put";
                    case "get" -> "blocking get";
                    case "put_nbi" -> "non-blocking put";
                    default -> "non-blocking get";
                };
                l.add(Benchmark.named(op + (bidir ? "_bibw" : "_bw"))
                        .family(name())
                        .summary(what + " bandwidth, " + (bidir ? "both directions at once" : "one direction"))
                        .method(bidir
                                ? "PE 0 and PE 1 each issue n " + op + "s of the size towards the other, then"
                                + (op.equals("get") ? "" : " quiet and") + " sync_all; time on PE 0; bytes of both"
                                + " directions"
                                : "PE 0 issues n " + op + "s of the size " + (op.startsWith("put") ? "to" : "from")
                                + " PE 1" + (op.equals("get") ? " (complete on return)" : ", then quiet")
                                + "; time on PE 0")
                        .metric(Metric.BANDWIDTH)
                        .sizes(SIZES)
                        .ops(op)
                        .types("byte")
                        .iterations(Iterations::transfer)
                        .work(bidir ? (c, n) -> c.size() * Math.min(n, 2) : (c, n) -> c.size())
                        .host((c, ctx) -> loop(op, bidir, c.size(), ctx))
                        .build());
            }
        }
        l.add(Benchmark.named("iput_bw")
                .family(name())
                .summary("strided put bandwidth (8-byte elements) beside a contiguous put of the same bytes, from host memory")
                .method("PE 0 issues n iputs of the size: every other 8-byte element of a local (host) buffer to"
                        + " consecutive elements of PE 1's destination (op iput), or n contiguous puts of the size from"
                        + " the same buffer (op put), then quiet; time on PE 0; bytes are the elements'")
                .metric(Metric.BANDWIDTH)
                .sizes(SIZES)
                .ops("iput", "put")
                .types("long")
                .iterations(Iterations::transfer)
                .work((c, n) -> c.size())
                .host((c, ctx) -> stridedLoop(c.size(), c.op().equals("iput"), ctx))
                .build());
        return l;
    }

    /**
     * iput_bw: {@code size / 8} elements every other one from a local buffer filled as the sources are
     * ({@code strided}), or the first {@code size} bytes of it in one put.
     */
    private static TimedLoop stridedLoop(long size, boolean strided, PerfContext ctx) {
        Shmem shmem = ctx.shmem();
        SymmetricSegment dst = ctx.dst();
        int peer = ctx.partner();
        long nelems = size / Long.BYTES;
        MemorySegment local = Arena.ofAuto().allocate(2 * size, 64).fill(PerfContext.FILL);
        MemorySegment contiguous = local.asSlice(0, size);
        boolean active = ctx.root();
        return n -> {
            long t0 = System.nanoTime();
            if (active) {
                for (long i = 0; i < n; i++) {
                    if (strided) {
                        shmem.iput(dst, 0, 1, local, 2, ValueLayout.JAVA_LONG, nelems, peer);
                    } else {
                        shmem.put(dst, 0, contiguous, peer);
                    }
                }
                shmem.quiet();
            }
            return System.nanoTime() - t0;
        };
    }

    private static TimedLoop loop(String op, boolean bidir, long size, PerfContext ctx) {
        Shmem shmem = ctx.shmem();
        SymmetricSegment src = ctx.src();
        SymmetricSegment dst = ctx.dst();
        int peer = ctx.partner();
        boolean active = bidir ? peer >= 0 : ctx.root();
        TimedLoop issue = switch (op) {
            case "put" -> n -> {
                long t0 = System.nanoTime();
                if (active) {
                    for (long i = 0; i < n; i++) {
                        shmem.put(dst, 0, src, 0, size, peer);
                    }
                }
                return System.nanoTime() - t0;
            };
            case "get" -> n -> {
                long t0 = System.nanoTime();
                if (active) {
                    for (long i = 0; i < n; i++) {
                        shmem.get(dst, 0, src, 0, size, peer);
                    }
                }
                return System.nanoTime() - t0;
            };
            case "put_nbi" -> n -> {
                long t0 = System.nanoTime();
                if (active) {
                    for (long i = 0; i < n; i++) {
                        shmem.putNbi(dst, 0, src, 0, size, peer);
                    }
                }
                return System.nanoTime() - t0;
            };
            case "get_nbi" -> n -> {
                long t0 = System.nanoTime();
                if (active) {
                    for (long i = 0; i < n; i++) {
                        shmem.getNbi(dst, 0, src, 0, size, peer);
                    }
                }
                return System.nanoTime() - t0;
            };
            default -> throw new IllegalArgumentException(op);
        };
        boolean completeWithQuiet = !op.equals("get");     // a blocking get is complete when it returns
        return n -> {
            long t0 = System.nanoTime();
            issue.run(n);
            if (active && completeWithQuiet) {
                shmem.quiet();
            }
            if (bidir) {
                shmem.syncAll();
            }
            return System.nanoTime() - t0;
        };
    }
}
