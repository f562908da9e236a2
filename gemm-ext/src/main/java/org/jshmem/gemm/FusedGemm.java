package org.jshmem.gemm;

import java.util.Objects;
import org.jshmem.DType;
import org.jshmem.Shmem;
import org.jshmem.ShmemStateException;
import org.jshmem.ShmemStream;
import org.jshmem.SymmetricSegment;

/**
 * A Stream-K GEMM fused with communication, planned once and run many times: C = A x B with the
 * weights B sharded over the PEs and C replicated ({@link GemmCollective}). All matrices are
 * row-major (cuBLAS's m, n, k; element (i, j) of an r x c matrix at i * c + j), fp16 or bf16, with
 * fp32 accumulation and the output in the input type. B is k x n, or stored transposed as n x k
 * ({@link BLayout#N_BY_K}: C = A x W^T for an {@code nn.Linear}-style weight W).
 *
 * <pre>{@code
 * GemmShape shape = new GemmShape(8192, 8192, 8192);
 * try (FusedGemm gemm = FusedGemm.create(shmem, GemmCollective.ALL_SCATTER, shape, DType.BF16)) {
 *     SymmetricSegment a = shmem.malloc(gemm.aBytes()), b = shmem.malloc(gemm.bBytes()), c = shmem.malloc(gemm.cBytes());
 *     // ... fill a (m x k) and this PE's shard of b (k x n_p, from column gemm.shardOffset()) ...
 *     gemm.run(a, b, c);            // every PE's c now holds the whole m x n product
 * }
 * }</pre>
 *
 * <p>Which part of A, B and C each PE holds is {@link #layout()}'s {@code aWindow}, {@code bWindow}
 * and {@code cWindow} for this PE (see {@link GemmCollective}); with {@link BLayout#N_BY_K} a PE's B
 * holds its {@code bWindow} transposed (all-scatter: rows {@code [off_p, off_p + n_p)} of W).
 *
 * <p>Creating, running and closing are collective: every PE calls them, in the same order, with the
 * same global shape. On a GPU heap the fused kernel (the Hopper kernel on sm_90, the portable one
 * elsewhere) or the reference path (cuBLAS + jshmem's collective) runs; on a host heap the CPU
 * executor runs the same schedule and flag protocol (or, asked for, the reference path of a CPU GEMM
 * and jshmem's blocking collective). Back-to-back calls need no barrier in between
 * (stamps are generations); but a PE's next call may write into the others' C (all-scatter,
 * all-reduce) as soon as it starts, so synchronise (e.g. {@code barrierAll}) before reading C
 * while peers may already run the next call.
 *
 * <p>{@link #runOnStream} can be captured in a graph ({@link ShmemStream#beginCapture()}) and replayed:
 * since a replay cannot stamp a new generation, a captured call resets its stamps between two
 * on-stream barriers before it runs and ends with a third, a few microseconds that calls outside
 * graphs do not pay.
 */
public final class FusedGemm implements AutoCloseable {
    private final Shmem shmem;
    private final GemmCollective collective;
    private final ShardLayout layout;
    private final GemmShape local;
    private final DType type;
    private final GemmPath path;
    private final StreamKSchedule schedule;
    private final GemmWorkspace workspace;
    private final GemmExecutor executor;
    private final String traceName;       // its calls' span in a trace, e.g. "gemm all_scatter fused"
    private final boolean hostHeap;       // the CPU paths: no streams
    private long generation = GpuKernelExecutor.GRAPH_GENERATION;   // calls stamp 2, 3, ...; a captured call 1
    private boolean closed;

    private FusedGemm(Shmem shmem, GemmCollective collective, GemmShape global, DType type, BLayout bLayout,
                      GemmOptions options) {
        this.shmem = shmem;
        this.collective = collective;
        this.type = type;
        this.layout = new ShardLayout(collective, global, shmem.nPes(), bLayout);
        this.local = layout.local(shmem.myPe());
        GemmPlatform platform = GemmPlatform.of(shmem, options, layout);
        this.hostHeap = platform instanceof HostPlatform;
        this.path = platform.choosePath(options, collective, global, shmem.nPes(), type);
        this.traceName = "gemm " + collective.name().toLowerCase(java.util.Locale.ROOT) + " "
                + path.name().toLowerCase(java.util.Locale.ROOT);
        Epilogue epilogue = Epilogue.of(collective, allReduce(options, global, type));
        if (path == GemmPath.REFERENCE) {
            this.schedule = null;
            this.workspace = null;
            this.executor = platform.reference(shmem, layout, type);
            return;
        }
        TileShape tile = options.tile().orElse(platform.defaultTile(local, type));
        platform.checkTile(tile);
        // one schedule on every PE (all-reduce owners wait for each other): iterations over PE 0's k, the largest
        int ctas = platform.workGroups(options, collective);
        // a cluster of c CTAs is one work-group of the schedule, on tiles c times as tall
        int cluster = platform.cluster(options, epilogue, ctas);
        TileShape planned = new TileShape(tile.m() * cluster, tile.n(), tile.k());
        int grid = ctas / cluster;
        StreamKSchedule.Split split = options.split() == StreamKSchedule.Split.AUTO
                ? platform.autoSplit(local, planned, grid) : options.split();
        StreamKSchedule plan = StreamKSchedule.plan(local, planned, grid, options.groupMOrDefault(), split,
                layout.local(0).k());
        this.schedule = plan.withRowOrder(TileRowOrder.of(epilogue, layout, shmem.myPe(), plan));
        int scatterRows = shmem.nPes() > 1 ? platform.scatterRows(options, epilogue, schedule, shmem.nPes()) : 0;
        int totalTiles = 0, base = 0;
        for (int pe = 0; pe < shmem.nPes(); pe++) {
            GemmShape l = layout.local(pe);
            int tiles = ceilDiv(l.m(), tile.m()) * ceilDiv(l.n(), tile.n());
            base += pe < shmem.myPe() ? tiles : 0;
            totalTiles += tiles;
        }
        this.workspace = GemmWorkspace.allocate(shmem, schedule, epilogue, layout,
                new GemmWorkspace.GemmSizing(totalTiles, base, cluster, scatterRows));
        GemmExecutor fused;
        try {
            fused = platform.fused(shmem, schedule, cluster, epilogue, workspace, type, layout);
        } catch (RuntimeException e) {   // e.g. a cluster grid that cannot be resident: the same on every PE
            workspace.close();
            throw e;
        }
        this.executor = fused;
    }

    /** Plans a fused GEMM with the options of the environment ({@link GemmOptions#fromEnvironment()}). Collective. */
    public static FusedGemm create(Shmem shmem, GemmCollective collective, GemmShape global, DType type) {
        return create(shmem, collective, global, type, GemmOptions.fromEnvironment());
    }

    /**
     * Plans a fused GEMM: checks the arguments, chooses path, kernel, tile and schedule, compiles
     * (or loads from the kernel cache) what runs, and allocates the workspace. Collective.
     *
     * @param global the whole GEMM: C[m x n] = A[m x k] * B[k x n] before sharding
     * @param type   {@link DType#FP16} or {@link DType#BF16}
     * @throws IllegalArgumentException for an unsupported type, or a shape that cannot be sharded
     *         over the PEs, before any memory is touched
     */
    public static FusedGemm create(Shmem shmem, GemmCollective collective, GemmShape global, DType type,
                                   GemmOptions options) {
        return create(shmem, collective, global, type, BLayout.K_BY_N, options);
    }

    /**
     * Plans a fused GEMM whose B is stored in {@code bLayout} ({@link BLayout#N_BY_K}: n x k, the
     * transposed weight of {@code nn.Linear}); otherwise as {@link #create(Shmem, GemmCollective,
     * GemmShape, DType, GemmOptions)}. Collective.
     */
    public static FusedGemm create(Shmem shmem, GemmCollective collective, GemmShape global, DType type,
                                   BLayout bLayout, GemmOptions options) {
        Objects.requireNonNull(shmem, "FusedGemm.create: shmem is null");
        Objects.requireNonNull(bLayout, "FusedGemm.create: B layout is null");
        Objects.requireNonNull(collective, "FusedGemm.create: collective is null");
        Objects.requireNonNull(global, "FusedGemm.create: shape is null");
        Objects.requireNonNull(options, "FusedGemm.create: options is null");
        Elements.check(Objects.requireNonNull(type, "FusedGemm.create: type is null"), "FusedGemm.create");
        return new FusedGemm(shmem, collective, global, type, bLayout, options);
    }

    private static AllReduceAlgorithm allReduce(GemmOptions o, GemmShape global, DType type) {
        if (o.allReduce() != AllReduceAlgorithm.AUTO) {
            return o.allReduce();
        }
        long cBytes = (long) global.m() * global.n() * type.byteSize();
        return cBytes <= o.oneShotMaxBytes() ? AllReduceAlgorithm.ONE_SHOT : AllReduceAlgorithm.TWO_SHOT;
    }

    /**
     * Runs one GEMM and its collective and returns when this PE's C is complete (every PE's tiles
     * have arrived). Collective.
     *
     * @param a this PE's A: m x k (all-reduce, GEMM + reduce-scatter: m x k_p, its columns of the
     *          global A; all-gather + GEMM: m_p x k, its rows), row-major
     * @param b this PE's shard of B: k x n_p (all-scatter, all-gather + GEMM) or k_p x n
     *          (all-reduce, GEMM + reduce-scatter), row-major; its transpose (n_p x k, n x k_p) with
     *          {@link BLayout#N_BY_K}
     * @param c the whole C, m x n (no collective: this PE's m x n; all-gather + GEMM: m x n_p, its
     *          columns; GEMM + reduce-scatter: m_p x n, its rows), row-major
     */
    public void run(SymmetricSegment a, SymmetricSegment b, SymmetricSegment c) {
        check("run", a, b, c);
        long t = shmem.trace().begin(traceName);
        executor.run(a, b, c, null, ++generation);
        shmem.trace().end(traceName, "gemm", t);
    }

    /**
     * Queues one GEMM and its collective on {@code stream}: the stream's later work sees this PE's
     * complete C. GPU heaps only. Collective (every PE queues the same calls in the same order).
     */
    public void runOnStream(SymmetricSegment a, SymmetricSegment b, SymmetricSegment c, ShmemStream stream) {
        check("runOnStream", a, b, c);
        Objects.requireNonNull(stream, "FusedGemm.runOnStream: stream is null");
        if (hostHeap) {
            throw new ShmemStateException("FusedGemm.runOnStream needs a GPU heap (JSHMEM_BACKEND=cuda or hip); on a"
                    + " host heap call run()");
        }
        long t = shmem.trace().begin(traceName);
        executor.run(a, b, c, stream, ++generation);
        shmem.trace().end(traceName, "gemm", t);   // the queuing: the GPU's work is not in the host's timeline
    }

    private void check(String call, SymmetricSegment a, SymmetricSegment b, SymmetricSegment c) {
        if (closed) {
            throw new ShmemStateException("FusedGemm." + call + ": this GEMM was closed");
        }
        int me = shmem.myPe();
        need(call, "a", a, layout.aWindow(me));
        need(call, "b", b, layout.bStored(me));
        need(call, "c", c, layout.cWindow(me));
    }

    private void need(String call, String name, SymmetricSegment s, ShardLayout.Window w) {
        need(call, name, s, w.elements() * type.byteSize(), w.rows() + " x " + w.cols());
    }

    private void need(String call, String name, SymmetricSegment s, long bytes, String dims) {
        Objects.requireNonNull(s, "FusedGemm." + call + ": " + name + " is null");
        if (s.isFreed()) {
            throw new ShmemStateException("FusedGemm." + call + ": " + name + " (" + s + ") was freed");
        }
        if (s.byteSize() < bytes) {
            throw new IllegalArgumentException("FusedGemm." + call + ": " + name + " has " + s.byteSize() + " bytes; this PE's "
                    + name.toUpperCase(java.util.Locale.ROOT) + " is " + dims + " " + type + " = " + bytes
                    + " bytes: allocate it with " + name + "Bytes()");
        }
    }

    /**
     * Bytes to allocate for A: the largest PE's A ({@code layout().aWindow}), the same on every PE,
     * since symmetric allocations must be (PE 0's shard is the largest when sizes split unevenly).
     */
    public long aBytes() {
        return layout.aWindow(0).elements() * type.byteSize();
    }

    /** Bytes to allocate for B's shard: the largest PE's, as {@link #aBytes()}. */
    public long bBytes() {
        return layout.bWindow(0).elements() * type.byteSize();
    }

    /** Bytes to allocate for C: the largest PE's part, as {@link #aBytes()}. */
    public long cBytes() {
        return layout.cWindow(0).elements() * type.byteSize();
    }

    /** This PE's GEMM after sharding. */
    public GemmShape localShape() {
        return local;
    }

    /** The element type of A, B and C. */
    public DType type() {
        return type;
    }

    /** How B is stored. */
    public BLayout bLayout() {
        return layout.bLayout();
    }

    /** How the global GEMM is split over the PEs. */
    public ShardLayout layout() {
        return layout;
    }

    /** Where this PE's shard starts: its first column of B and C (all-scatter, all-gather + GEMM) or first k (the reductions). */
    public int shardOffset() {
        return layout.offset(shmem.myPe());
    }

    /** The path chosen (never AUTO). */
    public GemmPath path() {
        return path;
    }

    /** The Stream-K schedule of this PE (null on the reference path). */
    public StreamKSchedule schedule() {
        return schedule;
    }

    /** What runs: path, kernel, tile and schedule. */
    public String describe() {
        return collective.cliName() + " " + layout.global() + " " + type
                + (layout.bLayout() == BLayout.N_BY_K ? " (B stored n x k)" : "") + " on " + shmem.nPes() + " PEs: "
                + executor.describe() + (schedule == null ? "" : "; " + schedule);
    }

    /** Releases the kernels and the workspace. Collective. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            executor.close();
        } finally {
            if (workspace != null) {
                shmem.barrierAll();   // no peer may still write into this PE's stamps or staging
                workspace.close();
            }
        }
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }
}
