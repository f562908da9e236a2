package org.jshmem.perf;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import org.jshmem.Cmp;
import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.Shmem;
import org.jshmem.ShmemStream;
import org.jshmem.SignalOp;
import org.jshmem.SymmetricSegment;
import org.jshmem.Team;

/**
 * Operations enqueued on a GPU stream ({@code --form on_stream}, GPU heaps only), timed with GPU
 * events as the NVSHMEM anchor times {@code nvshmemx_putmem_on_stream} and
 * {@code nvshmemx_barrier_all_on_stream}: PE 0 records an event, enqueues n operations (and a
 * {@code quietOnStream}), records a second event and waits for it; the figure is the time
 * between the events. The bandwidths and the collectives first enqueue a barrier on the stream
 * on every PE, as the anchor's loops do ({@link GpuClock#timeAfterBarrier}): the host's enqueueing
 * is then in the figure only where the GPU would otherwise wait for it between operations (small
 * ones), as in the anchor.
 *
 * <ul>
 *   <li>{@code put_bw}, {@code get_bw} (and {@code put_nbi_bw}, {@code get_nbi_bw}: on a stream
 *       every put and get is non-blocking for the host, so they are the same loop): PE 0 enqueues
 *       n {@code putOnStream} (its src to PE 1's dst) or {@code getOnStream} (PE 1's src into its
 *       dst), then {@code quietOnStream}. Anchor: 100 iterations below 1 MB, 10 from 1 MB, sizes
 *       4 KB to 256 MB by 4.</li>
 *   <li>{@code *_bibw}: PE 0 and PE 1 enqueue n each towards the other, then every PE enqueues
 *       {@code barrierAllOnStream}; bytes of both directions.</li>
 *   <li>{@code put_signal_latency}: ping-pong on the streams: PE 0 enqueues
 *       {@code putSignalOnStream} (signal i, SET) then {@code signalWaitUntilOnStream} (GE i);
 *       PE 1 the wait, then the answer; n rounds; one way = time / 2n. 8 B, 4 KB, 64 KB, 2000
 *       rounds (the anchor's device ping-pong, which has no on-stream counterpart).</li>
 *   <li>{@code barrier_latency}: every PE enqueues n {@code barrierAllOnStream} (op
 *       {@code barrier_all}) or {@code syncAllOnStream} ({@code sync_all}); 1000, as the anchor's
 *       {@code barrier_all_on_stream} loop.</li>
 *   <li>{@code reduce}, {@code fcollect}, {@code reduce_scatter}: every PE enqueues n
 *       {@code reduceOnStream}, {@code fcollectOnStream} or {@code reduceScatterOnStream} of the
 *       world team back to back, as the anchor's {@code float_sum_reduce_on_stream} and
 *       {@code float_fcollect_on_stream} loops (200 below 1 MB, 20 from 1 MB). The sources hold
 *       ones; one call's result is checked before the timed loop.</li>
 * </ul>
 *
 * <p>{@link org.jshmem.perf.gpu.GpuCollectivesBench} times the same collectives with their bus
 * bandwidth and the signalled gather beside them.
 */
public final class OnStreamForm implements Form {
    /** The NVSHMEM anchor's bandwidth sizes: 4 KB to 256 MB by 4. */
    static final Sizes BANDWIDTH_SIZES = Sizes.sweep(4096, 256L << 20, 4);
    /** The NVSHMEM anchor's put-with-signal sizes. */
    static final Sizes SIGNAL_SIZES = new Sizes(List.of(8L, 4096L, 65536L));

    private static final Set<String> BANDWIDTH = Set.of("put_bw", "get_bw", "put_nbi_bw", "get_nbi_bw",
            "put_bibw", "get_bibw", "put_nbi_bibw", "get_nbi_bibw");
    private static final Set<String> COLLECTIVES = Set.of("reduce", "fcollect", "reduce_scatter");

    private final boolean captured;
    private GpuClock clock;

    /** The on_stream form. */
    public OnStreamForm() {
        this(false);
    }

    /** {@code captured}: the graph form, the same loops recorded in a CUDA graph and timed as one launch. */
    public OnStreamForm(boolean captured) {
        this.captured = captured;
    }

    @Override
    public String name() {
        return captured ? "graph" : "on_stream";
    }

    @Override
    public String description() {
        return captured
                ? "the on_stream loops captured in a CUDA graph (ShmemStream.beginCapture / endCapture) and timed as"
                + " one launch of it, as NVSHMEM's perftests with --cudagraph: no host launch between the operations;"
                + " GPU heaps only"
                : "operations enqueued on a GPU stream (putOnStream, getOnStream, putSignalOnStream +"
                + " signalWaitUntilOnStream, barrierAllOnStream, syncAllOnStream, reduceOnStream, fcollectOnStream,"
                + " reduceScatterOnStream), timed with GPU events as NVSHMEM's"
                + " *_on_stream figures; NVSHMEM's sizes and iterations; GPU heaps only";
    }

    @Override
    public Optional<String> unavailableReason(Shmem shmem) {
        return GpuClock.unavailableReason(shmem);
    }

    @Override
    public boolean supports(Benchmark b) {
        return BANDWIDTH.contains(b.name()) || COLLECTIVES.contains(b.name()) || b.name().equals("put_signal_latency")
                || b.name().equals("barrier_latency");
    }

    @Override
    public List<String> ops(Benchmark b) {
        return b.name().equals("barrier_latency") ? List.of("barrier_all", "sync_all") : b.ops();
    }

    @Override
    public Sizes sizes(Benchmark b) {
        if (BANDWIDTH.contains(b.name())) {
            return BANDWIDTH_SIZES;
        }
        return b.name().equals("put_signal_latency") ? SIGNAL_SIZES : b.sizes();
    }

    @Override
    public long iterations(Case c) {
        String name = c.benchmark().name();
        if (BANDWIDTH.contains(name)) {
            return anchorTransfers(c.size());
        }
        if (COLLECTIVES.contains(name)) {
            return c.size() < (1 << 20) ? 200 : 20;
        }
        return switch (name) {
            case "put_signal_latency" -> 2000;
            case "barrier_latency" -> 1000;
            default -> Form.super.iterations(c);
        };
    }

    /** The NVSHMEM anchor's bandwidth iterations: 100 below 1 MB, 10 from 1 MB. */
    static long anchorTransfers(long size) {
        return size < (1 << 20) ? 100 : 10;
    }

    @Override
    public String method(Benchmark b) {
        String name = b.name();
        if (BANDWIDTH.contains(name)) {
            String call = name.startsWith("put") ? "putOnStream (src to PE 1's dst)" : "getOnStream (PE 1's src into dst)";
            return name.endsWith("_bibw")
                    ? "PE 0 and PE 1 each enqueue n " + call.replace("PE 1's", "the other's")
                    + " towards the other, then every PE barrierAllOnStream; GPU events around it on PE 0, after a"
                    + " barrierAllOnStream on every PE; bytes of both directions"
                    : "PE 0 enqueues n " + call + ", then quietOnStream; GPU events around it on PE 0, after a"
                    + " barrierAllOnStream on every PE (NVSHMEM's putmem_on_stream loop)";
        }
        return switch (name) {
            case "put_signal_latency" -> "PE 0 enqueues putSignalOnStream to PE 1 (signal i, SET), then"
                    + " signalWaitUntilOnStream (GE i); PE 1 the wait, then the answer; n rounds on the streams;"
                    + " GPU events on PE 0 / (2 n)";
            case "barrier_latency" -> "every PE enqueues n barrierAllOnStream (barrier_all) or syncAllOnStream"
                    + " (sync_all); GPU events on PE 0 / n (NVSHMEM's barrier_all_on_stream loop)";
            case "reduce" -> "every PE enqueues n team_world.reduceOnStream(op, type, dest, src, size / element size)"
                    + " back to back, after a barrierAllOnStream; GPU events on PE 0 / n (NVSHMEM's"
                    + " float_sum_reduce_on_stream loop)";
            case "fcollect" -> "every PE enqueues n team_world.fcollectOnStream(dest, src, size / element size):"
                    + " n PEs x size into dest, after a barrierAllOnStream; GPU events on PE 0 / n (NVSHMEM's"
                    + " float_fcollect_on_stream loop)";
            case "reduce_scatter" -> "every PE enqueues n team_world.reduceScatterOnStream(sum, type, dest, src,"
                    + " size / element size per PE): src holds n blocks of size, after a barrierAllOnStream; GPU events"
                    + " on PE 0 / n";
            default -> b.method();
        };
    }

    @Override
    public TimedLoop loop(Case c, PerfContext ctx) {
        if (clock == null) {
            clock = new GpuClock(ctx.shmem(), captured);
        }
        String name = c.benchmark().name();
        if (BANDWIDTH.contains(name)) {
            return bandwidth(name.startsWith("put"), name.endsWith("_bibw"), c.size(), ctx, clock);
        }
        return switch (name) {
            case "put_signal_latency" -> putSignalPingPong(c.size(), ctx, clock);
            case "barrier_latency" -> barrier(c.op(), ctx, clock);
            case "reduce", "fcollect", "reduce_scatter" -> collective(c, ctx, clock);
            default -> throw new IllegalArgumentException("the on_stream form does not implement " + name);
        };
    }

    private static TimedLoop bandwidth(boolean put, boolean bidir, long size, PerfContext ctx, GpuClock clock) {
        Shmem shmem = ctx.shmem();
        ShmemStream st = clock.stream();
        SymmetricSegment src = ctx.src();
        SymmetricSegment dst = ctx.dst();
        int peer = ctx.partner();
        boolean active = bidir ? peer >= 0 : ctx.root();
        return n -> clock.timeAfterBarrier(shmem, () -> {     // every PE: the barrier before the start event
            if (active) {
                if (put) {
                    for (long i = 0; i < n; i++) {
                        shmem.putOnStream(dst, 0, src, 0, size, peer, st);
                    }
                } else {
                    for (long i = 0; i < n; i++) {
                        shmem.getOnStream(dst, 0, src, 0, size, peer, st);
                    }
                }
                shmem.quietOnStream(st);
            }
            if (bidir) {
                shmem.barrierAllOnStream(st);    // every PE: the other direction is complete too
            }
        });
    }

    private static TimedLoop putSignalPingPong(long size, PerfContext ctx, GpuClock clock) {
        Shmem shmem = ctx.shmem();
        ShmemStream st = clock.stream();
        SymmetricSegment src = ctx.src();
        SymmetricSegment dst = ctx.dst();
        SymmetricSegment sig = ctx.flags();
        long at = PerfContext.SIGNAL;
        int peer = ctx.partner();
        if (peer < 0) {
            return n -> 0;
        }
        boolean first = ctx.me() == 0;
        long[] seq = {0};     // signals keep counting up over the repetitions (the flags are zeroed per case)
        return n -> clock.time(() -> {
            long s = seq[0];
            for (long i = 0; i < n; i++) {
                s++;
                if (first) {
                    shmem.putSignalOnStream(dst, 0, src, 0, size, sig, at, s, SignalOp.SET, peer, st);
                    shmem.signalWaitUntilOnStream(sig, at, Cmp.GE, s, st);
                } else {
                    shmem.signalWaitUntilOnStream(sig, at, Cmp.GE, s, st);
                    shmem.putSignalOnStream(dst, 0, src, 0, size, sig, at, s, SignalOp.SET, peer, st);
                }
            }
            seq[0] = s;
        });
    }

    private static TimedLoop barrier(String op, PerfContext ctx, GpuClock clock) {
        Shmem shmem = ctx.shmem();
        ShmemStream st = clock.stream();
        return switch (op) {
            case "barrier_all" -> n -> clock.time(() -> {
                for (long i = 0; i < n; i++) {
                    shmem.barrierAllOnStream(st);
                }
            });
            case "sync_all" -> n -> clock.time(() -> {
                for (long i = 0; i < n; i++) {
                    shmem.syncAllOnStream(st);
                }
            });
            default -> throw new IllegalArgumentException("the on_stream form has no barrier op " + op);
        };
    }

    /** One collective on the stream, enqueued by every PE; checked once (result of ones), then timed. */
    private static TimedLoop collective(Case c, PerfContext ctx, GpuClock clock) {
        Shmem shmem = ctx.shmem();
        Team world = shmem.teamWorld();
        ShmemStream st = clock.stream();
        int n = ctx.nPes();
        String name = c.benchmark().name();
        DType type = DType.valueOf(c.type().toUpperCase(Locale.ROOT));
        ReduceOp op = name.equals("fcollect") ? null : ReduceOp.valueOf(c.op().toUpperCase(Locale.ROOT));
        long count = c.size() / type.byteSize();
        long srcBytes = name.equals("reduce_scatter") ? c.size() * n : c.size();
        long dstBytes = name.equals("fcollect") ? c.size() * n : c.size();
        SymmetricSegment src = ctx.src().asSlice(0, srcBytes);
        SymmetricSegment dst = ctx.dst().asSlice(0, dstBytes);
        Runnable call = switch (name) {
            case "reduce" -> () -> world.reduceOnStream(op, type, dst, src, count, st);
            case "fcollect" -> () -> world.fcollectOnStream(dst, src, count, type, st);
            default -> () -> world.reduceScatterOnStream(op, type, dst, src, count, st);
        };
        Ones.fill(shmem, src, type);
        shmem.barrierAll();
        call.run();
        st.synchronize();
        double want = op == null ? 1 : Ones.reduced(op, n);
        for (long k : new long[] {0, dstBytes / type.byteSize() / 2, dstBytes / type.byteSize() - 1}) {
            double got = Ones.read(shmem, dst, k, type);
            if (got != want) {
                throw new IllegalStateException(name + " on stream of " + c.size() + " bytes of " + c.type() + ": element "
                        + k + " on PE " + ctx.me() + " is " + got + ", expected " + want);
            }
        }
        shmem.barrierAll();
        return iters -> clock.timeAfterBarrier(shmem, () -> {
            for (long i = 0; i < iters; i++) {
                call.run();
            }
        });
    }

    @Override
    public OptionalDouble bandwidthCeiling(PerfContext ctx) {
        return clock == null ? OptionalDouble.empty() : clock.copyEngineRate(ctx);
    }

    @Override
    public void close() {
        if (clock != null) {
            clock.close();
            clock = null;
        }
    }
}
