package org.jshmem.perf;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import org.jshmem.Shmem;
import org.jshmem.SymmetricSegment;
import org.jshmem.device.DeviceModule;
import org.jshmem.device.Kernel;
import org.jshmem.device.LaunchConfig;

/**
 * Device-initiated operations ({@code --form device}, GPU heaps only): the kernels of
 * {@code kernels/perf_kernels.cu} (compiled once per PE at run time from the class path), each
 * launched once per repetition with the repetition's n as its iteration count, timed with GPU
 * events around the launch exactly as the NVSHMEM anchor ({@code shared/anchors/nvshmem_anchor.cu})
 * times its kernels (the bandwidth kernels after a barrier on the stream, as the anchor's
 * {@code put_bw} loop: see {@link GpuClock#timeAfterBarrier}):
 *
 * <ul>
 *   <li>{@code put_bw}: PE 0 launches {@code perf_put_bw}, G blocks of 1024 threads (G = 32 from
 *       1 MB, else 4); each block puts its chunk of the size to PE 1 n times with
 *       {@code jshmem_putmem_nbi_block}, then quiet. n = 100 below 1 MB, 10 from 1 MB; sizes 4 KB
 *       to 256 MB by 4 (the anchor's putmem_nbi_block loop).</li>
 *   <li>{@code get_bw}: the same with {@code jshmem_getmem_nbi_block} from PE 1's src.</li>
 *   <li>{@code put_bibw}, {@code get_bibw}: PE 0 and PE 1 launch the kernel towards each other,
 *       then every PE enqueues {@code barrierAllOnStream} (inside the events); bytes of both
 *       directions.</li>
 *   <li>{@code p_latency}: op {@code p}: {@code perf_pingpong_p} (int) / {@code perf_pingpong_p64}
 *       (long), 1 thread on PE 0 and PE 1: p i into the other's flag, wait_until the own flag is
 *       i; n = 10000; one way = time / 2n. Op {@code raw}: {@code perf_pingpong_raw(64)}, the same
 *       ping-pong with plain volatile stores through {@code jshmem_ptr} and a system fence, the
 *       hardware floor ({@code p2p.cu}'s flag ping-pong) beside {@code p}.</li>
 *   <li>{@code put_signal_latency}: {@code perf_pingpong_signal}, 1 block of 128 threads on PE 0
 *       and PE 1: {@code jshmem_putmem_signal_nbi_block} (signal i, SET), thread 0
 *       signal_wait_until i; n = 2000; 8 B, 4 KB, 64 KB; one way = time / 2n.</li>
 *   <li>{@code atomic_latency}: op {@code fetch_add}, type long: {@code perf_amo_latency}, one
 *       thread on PE 0, n = 10000 remote {@code jshmem_uint64_atomic_fetch_add}; time / n.</li>
 *   <li>{@code barrier_latency}: {@code perf_barrier} ({@code barrier_all}) or {@code perf_sync}
 *       ({@code sync_all}) on every PE, 1 block of 64 threads, n = 1000 block-scope barriers of
 *       the world team; time on PE 0 / n.</li>
 * </ul>
 *
 * <p>Each launch of a ping-pong counts from 1, so before it every PE zeroes its own flag and a
 * host barrier follows (outside the events, so not timed). The anchor launches the ping-pongs
 * on PE 0 and PE 1 after a host barrier as well: the launch skew between the PEs is in the
 * figure in both.
 */
public final class DeviceForm implements Form {
    /** The kernels' source, a resource of this jar. */
    static final String SOURCE = "/kernels/perf_kernels.cu";
    /** Extra compiler options for the kernels, from {@code -Djshmem.perf.kernelOptions} (space-separated), e.g. {@code -DJSHMEM_NO_PROXY}. */
    private static final String[] KERNEL_OPTIONS = kernelOptions(System.getProperty("jshmem.perf.kernelOptions", ""));

    private static final Set<String> BANDWIDTH = Set.of("put_bw", "get_bw", "put_bibw", "get_bibw");
    private static final Set<String> OTHERS = Set.of("p_latency", "put_signal_latency", "atomic_latency",
            "barrier_latency");
    /** The world team's slot in the device state. */
    private static final int WORLD_SLOT = 0;

    private GpuClock clock;
    private DeviceModule module;
    private final Map<String, Kernel> kernels = new HashMap<>();

    @Override
    public String name() {
        return "device";
    }

    @Override
    public String description() {
        return "kernels of perf_kernels.cu (block-scope putmem_nbi/getmem_nbi bandwidth, p and raw-flag ping-pongs,"
                + " put_signal ping-pong, fetch_add, block barrier), timed with GPU events exactly as the NVSHMEM anchor;"
                + " NVSHMEM's grids, sizes and iterations; GPU heaps only";
    }

    @Override
    public Optional<String> unavailableReason(Shmem shmem) {
        return GpuClock.unavailableReason(shmem);
    }

    @Override
    public boolean supports(Benchmark b) {
        return BANDWIDTH.contains(b.name()) || OTHERS.contains(b.name());
    }

    @Override
    public List<String> ops(Benchmark b) {
        return switch (b.name()) {
            case "p_latency" -> List.of("p", "raw");
            case "atomic_latency" -> List.of("fetch_add");
            case "barrier_latency" -> List.of("barrier_all", "sync_all");
            default -> b.ops();
        };
    }

    @Override
    public List<String> types(Benchmark b) {
        return b.name().equals("atomic_latency") ? List.of("long") : b.types();
    }

    @Override
    public Sizes sizes(Benchmark b) {
        if (BANDWIDTH.contains(b.name())) {
            return OnStreamForm.BANDWIDTH_SIZES;
        }
        return b.name().equals("put_signal_latency") ? OnStreamForm.SIGNAL_SIZES : b.sizes();
    }

    @Override
    public long iterations(Case c) {
        String name = c.benchmark().name();
        if (BANDWIDTH.contains(name)) {
            return OnStreamForm.anchorTransfers(c.size());
        }
        return switch (name) {
            case "p_latency", "atomic_latency" -> 10_000;
            case "put_signal_latency" -> 2000;
            case "barrier_latency" -> 1000;
            default -> Form.super.iterations(c);
        };
    }

    @Override
    public String method(Benchmark b) {
        return switch (b.name()) {
            case "put_bw", "get_bw" -> "PE 0 launches perf_" + b.name() + ": G blocks x 1024 threads (G = 32 from 1 MB,"
                    + " else 4), each block " + (b.name().startsWith("put") ? "puts its chunk to PE 1 with"
                    + " jshmem_putmem_nbi_block" : "gets its chunk from PE 1 with jshmem_getmem_nbi_block")
                    + " n times, then quiet; every PE barrierAllOnStream first, then GPU events around the launch on"
                    + " PE 0 (the NVSHMEM anchor's loop)";
            case "put_bibw", "get_bibw" -> "every PE barrierAllOnStream first; then, between GPU events on PE 0, PE 0"
                    + " and PE 1 launch perf_" + b.name().replace("bibw", "bw") + " towards each other and every PE"
                    + " barrierAllOnStream; bytes of both directions";
            case "p_latency" -> "p: perf_pingpong_p(64), 1 thread on PE 0 and PE 1: p i into the other's flag, wait_until"
                    + " the own flag is i; raw: perf_pingpong_raw(64), volatile store through jshmem_ptr + system fence,"
                    + " volatile spin (the hardware floor); n rounds, GPU events on PE 0 / (2 n)";
            case "put_signal_latency" -> "perf_pingpong_signal, 1 block x 128 threads on PE 0 and PE 1:"
                    + " jshmem_putmem_signal_nbi_block (signal i, SET), thread 0 signal_wait_until i; n rounds, GPU"
                    + " events on PE 0 / (2 n) (the NVSHMEM anchor's loop)";
            case "atomic_latency" -> "perf_amo_latency, 1 thread on PE 0: n jshmem_uint64_atomic_fetch_add on PE 1;"
                    + " GPU events / n";
            case "barrier_latency" -> "perf_barrier (barrier_all) or perf_sync (sync_all), 1 block x 64 threads on"
                    + " every PE: n block-scope barriers of the world team; GPU events on PE 0 / n";
            default -> b.method();
        };
    }

    @Override
    public TimedLoop loop(Case c, PerfContext ctx) {
        if (clock == null) {
            clock = new GpuClock(ctx.shmem());
        }
        if (module == null) {
            module = DeviceModule.compile(ctx.shmem(), source(), "perf_kernels.cu", KERNEL_OPTIONS);
        }
        String name = c.benchmark().name();
        return switch (name) {
            case "put_bw", "get_bw", "put_bibw", "get_bibw" -> bandwidth(name, c.size(), ctx);
            case "p_latency" -> pingPong(c, ctx);
            case "put_signal_latency" -> putSignalPingPong(c.size(), ctx);
            case "atomic_latency" -> fetchAdd(ctx);
            case "barrier_latency" -> barrier(c.op(), ctx);
            default -> throw new IllegalArgumentException("the device form does not implement " + name);
        };
    }

    /** The options of a space-separated list (none for a blank one). */
    private static String[] kernelOptions(String spaced) {
        return spaced.isBlank() ? new String[0] : spaced.trim().split("\\s+");
    }

    /** The kernels' source from the class path. */
    static String source() {
        try (InputStream in = DeviceForm.class.getResourceAsStream(SOURCE)) {
            if (in == null) {
                throw new IllegalStateException(SOURCE + " is not on the class path (it ships in the jshmem-tests jar)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + SOURCE + ": " + e.getMessage(), e);
        }
    }

    private Kernel kernel(String kernelName) {
        return kernels.computeIfAbsent(kernelName, module::kernel);
    }

    /** A kernel's {@code int iters} argument. */
    private static int iters(long n) {
        return Math.toIntExact(n);
    }

    private TimedLoop bandwidth(String name, long size, PerfContext ctx) {
        Shmem shmem = ctx.shmem();
        boolean bidir = name.endsWith("_bibw");
        Kernel k = kernel(name.startsWith("put") ? "perf_put_bw" : "perf_get_bw");
        LaunchConfig launch = LaunchConfig.of(size >= (1 << 20) ? 32 : 4, 1024, clock.stream());
        SymmetricSegment src = ctx.src();
        SymmetricSegment dst = ctx.dst();
        int peer = ctx.partner();
        boolean active = bidir ? peer >= 0 : ctx.root();
        return n -> clock.timeAfterBarrier(shmem, () -> {     // every PE: the barrier before the start event
            if (active) {
                k.launch(launch, dst, src, size, peer, iters(n));
            }
            if (bidir) {
                shmem.barrierAllOnStream(clock.stream());   // every PE: the other direction is complete too
            }
        });
    }

    private TimedLoop pingPong(Case c, PerfContext ctx) {
        Shmem shmem = ctx.shmem();
        boolean raw = c.op().equals("raw");
        if (raw && ctx.partner() >= 0 && shmem.teamWorld().translatePe(ctx.partner(), shmem.teamShared()) < 0) {
            // the raw kernel stores through jshmem_ptr, NULL for a PE of another node: it would wait forever
            throw new IllegalArgumentException("p_latency raw: PE " + ctx.partner() + " is on another node, where"
                    + " jshmem_ptr is NULL and only the p form reaches it (through the device proxy): run with --ops p");
        }
        boolean wide = c.type().equals("long");
        Kernel k = kernel((raw ? "perf_pingpong_raw" : "perf_pingpong_p") + (wide ? "64" : ""));
        LaunchConfig launch = LaunchConfig.of(1, raw ? 32 : 1, clock.stream());
        return flagPingPong(ctx, PerfContext.PING, (n, peer, role) -> k.launch(launch,
                Kernel.pointer(ctx.flags(), PerfContext.PING), iters(n), peer, role));
    }

    private TimedLoop putSignalPingPong(long size, PerfContext ctx) {
        Kernel k = kernel("perf_pingpong_signal");
        LaunchConfig launch = LaunchConfig.of(1, 128, clock.stream());
        SymmetricSegment buf = ctx.dst();      // the anchor puts buf to buf
        return flagPingPong(ctx, PerfContext.SIGNAL, (n, peer, role) -> k.launch(launch, buf,
                Kernel.pointer(ctx.flags(), PerfContext.SIGNAL), size, iters(n), peer, role));
    }

    /** Launches a ping-pong kernel on PE 0 (role 0: it starts) and PE 1 (role 1: it answers). */
    @FunctionalInterface
    private interface PingPongLaunch {
        void launch(long n, int peer, int role);
    }

    /**
     * A ping-pong between PE 0 and PE 1 on the 8-byte flag at {@code flagOffset}: each repetition
     * zeroes every PE's own flag, holds a host barrier (every PE, also those outside the pair),
     * then times the launch on PE 0 with events; PE 1 waits for its own launch to end.
     */
    private TimedLoop flagPingPong(PerfContext ctx, long flagOffset, PingPongLaunch kernel) {
        Shmem shmem = ctx.shmem();
        SymmetricSegment flags = ctx.flags();
        int me = ctx.me();
        int peer = ctx.partner();
        int role = me == 0 ? 0 : 1;
        return n -> {
            shmem.pLong(flags, flagOffset, 0L, me);     // blocking: done before the barrier
            shmem.barrierAll();
            if (peer < 0) {
                return 0;
            }
            return clock.time(() -> kernel.launch(n, peer, role));
        };
    }

    private TimedLoop fetchAdd(PerfContext ctx) {
        Kernel k = kernel("perf_amo_latency");
        LaunchConfig launch = LaunchConfig.of(1, 1, clock.stream());
        int peer = ctx.partner();
        if (!ctx.root()) {
            return n -> 0;
        }
        SymmetricSegment flags = ctx.flags();
        return n -> clock.time(() -> k.launch(launch, Kernel.pointer(flags, PerfContext.COUNTER), iters(n), peer,
                Kernel.pointer(flags, PerfContext.SCRATCH)));
    }

    private TimedLoop barrier(String op, PerfContext ctx) {
        Kernel k = kernel(switch (op) {
            case "barrier_all" -> "perf_barrier";
            case "sync_all" -> "perf_sync";
            default -> throw new IllegalArgumentException("the device form has no barrier op " + op);
        });
        LaunchConfig launch = LaunchConfig.of(1, 64, clock.stream());
        return n -> clock.time(() -> k.launch(launch, iters(n), WORLD_SLOT));
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
        if (module != null) {
            module.close();
            module = null;
        }
        kernels.clear();
    }
}
