package org.jshmem.gemm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.jshmem.Cmp;
import org.jshmem.DType;
import org.jshmem.Shmem;
import org.jshmem.ShmemEvent;
import org.jshmem.ShmemStream;
import org.jshmem.SignalOp;
import org.jshmem.SymmetricSegment;
import org.jshmem.Team;
import org.jshmem.device.DeviceModule;
import org.jshmem.device.Dim3;
import org.jshmem.device.Kernel;
import org.jshmem.device.KernelCache;
import org.jshmem.device.LaunchConfig;

/**
 * Runs a fused GEMM kernel (portable or Hopper) on this PE's GPU: compiles it once for the
 * variant and element type (through the on-disk kernel cache), fills the parameter block, and
 * launches one persistent work-group per SM of this PE's share per call. All-gather + GEMM: the
 * others' row blocks of A are pulled into the workspace on a second stream by the copy engines
 * ({@link org.jshmem.Team#collectOthersSignalOnStream}, a stamp per block) while the kernel,
 * started once the gather's opening barrier has passed, computes the tiles of its own rows from A
 * in place and waits for the others' blocks; the caller's stream then waits for the gather. Where a
 * tile row straddles two PEs' blocks, the kernel reads it all from the workspace: then each PE's
 * own rows are first copied there, and the gather runs in place
 * ({@link org.jshmem.Team#collectSignalOnStream}). All-scatter by the copy engines
 * ({@link ScatterTransport#COPY_ENGINE}): the kernel stores into this PE's C only and stamps each
 * finished chunk of tile rows; a second stream waits for each stamp but the last, copies the chunk
 * into the others' C ({@link Shmem#ibputOnStream}), then stamps {@code copied} here. The last
 * chunk's tiles all end in the kernel's last wave: the kernel's sender stores them into the others'
 * C as they end and stamps the chunk; a tail kernel on the caller's stream waits for that stamp and
 * for {@code copied} (the next call's kernel must not overwrite C under the copies), signals the
 * others and waits for their signals (jgemm_scatter_tail.h).
 * Calls launch plainly: chained back to back ({@code Kernel.launchChained}, the kernel waiting with
 * {@code griddepcontrol.wait} after its set-up), the GEMM alone measured level with plain launches
 * ({@code bin/jshmemrun -np 1 gemm -c none --shapes anchor}).
 */
final class GpuKernelExecutor implements GemmExecutor {
    /** The generation a call captured in a graph stamps; the other calls stamp 2, 3, ... (FusedGemm). */
    static final long GRAPH_GENERATION = 1;

    private final Shmem shmem;
    private final KernelVariant variant;
    private final StreamKSchedule schedule;
    private final Arena arena = Arena.ofShared();
    private final KernelParams params;
    private final DeviceModule module;
    private final Kernel kernel;
    private final ShmemStream own;
    private final TensorMaps maps;
    private final KernelCache.Entry compiled;
    private final DType type;
    private final SymmetricSegment arrive;
    private final GemmWorkspace workspace;
    private final Gather gather;
    private final Scatter scatter;
    private final Epilogue epilogue;
    private final long ldc;
    /** Where this PE's columns of C begin (the all-scatter's column offset), in bytes. */
    private final long columnOffsetBytes;

    /**
     * All-gather + GEMM's second stream, its events, every PE's element count of A, and whether
     * every PE's block starts on a tile row (then no tile row needs this PE's rows in the workspace).
     */
    private record Gather(ShmemStream stream, ShmemEvent start, ShmemEvent entered, ShmemEvent done, long[] counts,
                          SymmetricSegment into, SymmetricSegment ready, int rows, long ownOffset,
                          boolean blocksOnTileRows) {
        void close() {
            stream.synchronize();
            stream.close();
            start.close();
            entered.close();
            done.close();
        }
    }

    /**
     * The all-scatter's copy-engine stream; the kernel that ends each call (its signals and waits); the
     * chunks' first rows (one more: m), and this PE's columns of C: byte offset in a row, bytes, and the
     * row pitch.
     */
    private record Scatter(ShmemStream stream, ShmemEvent fork, ShmemEvent join, Kernel tail, int[] chunkRows,
                           long column, long width, long pitch) {
        int chunks() {
            return chunkRows.length - 1;
        }

        String describe() {
            int lastRows = chunkRows[chunks()] - chunkRows[chunks() - 1];
            return chunks() == 1 ? ", the peers' tiles by the kernel's stores"
                    : ", the peers' tiles by the copy engines in " + (chunks() - 1) + " chunks of " + chunkRows[1]
                    + " rows, the last " + lastRows + " rows by the kernel's stores";
        }

        void close() {
            stream.synchronize();
            stream.close();
            fork.close();
            join.close();
        }
    }

    GpuKernelExecutor(Shmem shmem, KernelVariant variant, StreamKSchedule schedule, Epilogue epilogue, GemmWorkspace ws,
                      DType type, ShardLayout layout) {
        this.shmem = shmem;
        this.variant = variant;
        this.schedule = schedule;
        List<String> options = new ArrayList<>(variant.options(type));
        if (layout.bLayout() == BLayout.N_BY_K) {
            options.add("-DJGEMM_B_NK=1");
        }
        String extra = System.getenv("JSHMEM_GEMM_COMPILE_OPTIONS");   // extra NVRTC / hiprtc options, e.g. -lineinfo
        if (extra != null && !extra.isBlank()) {
            options.addAll(List.of(extra.trim().split("\\s+")));
        }
        String source = KernelSources.expanded(variant.source());
        this.compiled = KernelCache.atDefaultLocation().image(shmem, source, variant.source(),
                options.toArray(String[]::new));
        this.module = DeviceModule.load(shmem, compiled.image(), variant.source());
        this.kernel = module.kernel(variant.entry());
        kernel.setMaxDynamicSharedBytes(variant.sharedBytes());
        if (variant.cluster() > 1) {   // the clusters wait for each other's Stream-K partials: all resident at once
            int fit = kernel.maxCoResidentClusters(variant.cluster(), variant.threads(), variant.sharedBytes());
            if (schedule.grid() > fit) {
                module.close();
                arena.close();
                throw new IllegalStateException(schedule.grid() + " clusters of " + variant.cluster() + " CTAs of the "
                        + variant + " kernel asked for, but this PE's share of the GPU holds only " + fit + " at once;"
                        + " use fewer work-groups (at most " + fit * variant.cluster() + ") or cluster 1");
            }
        }
        int me = shmem.myPe();
        GemmShape local = schedule.shape();
        this.params = new KernelParams(arena).schedule(schedule, epilogue, local.k(), layout.ldb(me), layout.ldc(me))
                .set("workspace", address(ws.partials())).set("sk_flags", address(ws.skFlags()))
                .set("staging", address(ws.staging())).set("arrive", address(ws.arrive()))
                .set("row_order", address(ws.rowOrder()))
                .set("col_offset", layout.cColumnOffset(me)).set("home_slots", ws.homeSlots())
                .set("arrive_base", ws.arriveBase())
                .set("arrive_count", epilogue == Epilogue.ALL_SCATTER ? ws.arriveCount() : schedule.tiles())
                .set("n_pes", shmem.nPes()).set("my_pe", me).set("scatter_rows", ws.scatterRows());
        this.maps = variant.kernel() == GemmKernel.HOPPER ? new TensorMaps(arena, variant, type, local, layout.bLayout())
                : null;
        this.epilogue = epilogue;
        this.ldc = layout.ldc(me);
        this.columnOffsetBytes = (long) layout.cColumnOffset(me) * type.byteSize();
        this.own = shmem.createStream();
        this.type = type;
        this.arrive = ws.arrive();
        this.workspace = ws;
        if (layout.collective() == GemmCollective.ALL_GATHER_GEMM) {
            long[] counts = new long[shmem.nPes()];
            boolean onTileRows = true;
            for (int pe = 0; pe < counts.length; pe++) {
                counts[pe] = (long) layout.rows(pe) * local.k();
                onTileRows &= layout.rowOffset(pe) % variant.tile().m() == 0;
            }
            params.set("a_ready", address(ws.aReady()));
            this.gather = new Gather(shmem.createStream(), shmem.createEvent(), shmem.createEvent(),
                    shmem.createEvent(), counts, ws.gathered(), ws.aReady(), layout.rows(me),
                    (long) layout.rowOffset(me) * local.k() * type.byteSize(), onTileRows);
        } else {
            this.gather = null;
        }
        if (ws.scatterRows() > 0) {
            int rowsPerChunk = ws.scatterRows() * variant.tile().m();
            int[] starts = new int[GemmWorkspace.chunks(schedule, ws.scatterRows()) + 1];
            for (int c = 0; c < starts.length; c++) {
                starts[c] = Math.min(local.m(), c * rowsPerChunk);
            }
            long es = type.byteSize();
            this.scatter = new Scatter(shmem.createStream(), shmem.createEvent(), shmem.createEvent(),
                    module.kernel("jgemm_scatter_tail"), starts,
                    layout.cColumnOffset(me) * es, local.n() * es, layout.ldc(me) * es);
        } else {
            this.scatter = null;
        }
    }

    private long address(SymmetricSegment s) {
        return shmem.deviceAddress(s, 0).address();
    }

    @Override
    public void run(SymmetricSegment a, SymmetricSegment b, SymmetricSegment c, ShmemStream stream, long generation) {
        ShmemStream on = stream != null ? stream : own;
        boolean captured = stream != null && stream.isCapturing();
        if (captured) {
            generation = GRAPH_GENERATION;
            startCapturedCall(on);
        }
        SymmetricSegment aIn = a;
        if (gather != null) {
            gatherOnItsStream(a, on, generation);
            aIn = gather.into();
        }
        long addressA = address(aIn), addressB = address(b), addressC = address(c);
        long addressLocalA = gather != null ? address(a) : 0;
        params.set("a", addressA).set("b", addressB).set("c", addressC).set("generation", generation)
                .set("a_local", addressLocalA);
        LaunchConfig config = new LaunchConfig(Dim3.of(schedule.grid() * variant.cluster()), Dim3.of(variant.threads()),
                variant.sharedBytes(), on);
        if (maps == null) {
            kernel.launch(config, Kernel.byValue(params.segment()));
        } else {
            MemorySegment mapA = maps.forA(addressA);
            long columnC = addressC + columnOffsetBytes;
            kernel.launch(config, Kernel.byValue(params.segment()), Kernel.byValue(mapA),
                    Kernel.byValue(maps.forB(addressB)),
                    Kernel.byValue(gather != null ? maps.forLocalA(addressLocalA, gather.rows()) : mapA),
                    Kernel.byValue(TensorMaps.storesByTma(epilogue, columnC, ldc) ? maps.forC(columnC, ldc) : mapA));
        }
        if (gather != null) {
            on.waitFor(gather.done());
        }
        if (scatter != null) {
            queueScatter(c, on, generation);
            if (captured) {   // the copy stream joins back: a capture must end with every stream it took in
                scatter.stream().record(scatter.join());
                on.waitFor(scatter.join());
            }
        }
        if (captured) {
            shmem.barrierAllOnStream(on);   // no PE's next call stamps into a PE that still reads this one's
        }
        if (stream == null) {
            own.synchronize();
        }
    }

    /**
     * A call captured in a graph stamps {@link #GRAPH_GENERATION} at every replay, so each replay starts
     * from reset stamps: a barrier (every PE's earlier call is over and its stamps have landed), the
     * reset, a barrier (no PE stamps this call into one that has not reset yet). The all-scatter's copy
     * stream joins the capture here, before the kernel, so that it does not wait for the kernel.
     */
    private void startCapturedCall(ShmemStream on) {
        shmem.barrierAllOnStream(on);
        workspace.resetOnStream(on);
        shmem.barrierAllOnStream(on);
        if (scatter != null) {
            on.record(scatter.fork());
            scatter.stream().waitFor(scatter.fork());
        }
    }

    /**
     * Queues the gather of A's row blocks on its own stream, after {@code on}'s earlier work, and
     * makes {@code on} wait for the gather's opening barrier: the kernel takes every SM, and that
     * barrier's kernel needs one.
     */
    private void gatherOnItsStream(SymmetricSegment a, ShmemStream on, long generation) {
        Team world = shmem.teamWorld();
        boolean inPlace = !gather.blocksOnTileRows();
        long ownAt = gather.ownOffset(), ownBytes = gather.counts()[shmem.myPe()] * type.byteSize();
        if (inPlace) {
            // a tile row over two blocks reads this PE's rows in the workspace: they go there first, with every SM
            // free (a same-GPU copy may run on the SMs: queued behind the GEMM it took twice the GEMM's time);
            // then the gather runs in place
            shmem.putOnStream(gather.into(), ownAt, a, 0, ownBytes, shmem.myPe(), on);
        }
        on.record(gather.start());
        gather.stream().waitFor(gather.start());
        if (inPlace) {
            world.collectSignalOnStream(gather.into(), gather.into().asSlice(ownAt, ownBytes), gather.counts(), type,
                    gather.ready(), generation, gather.stream(), gather.entered());
        } else {   // the others' rows only, from their A: the kernel reads its own in place
            world.collectOthersSignalOnStream(gather.into(), a, gather.counts(), type, gather.ready(), generation,
                    gather.stream(), gather.entered());
        }
        gather.stream().record(gather.done());
        on.waitFor(gather.entered());
    }

    /**
     * Queues the copy-engine all-scatter of this call: on its stream, each chunk but the last into the
     * others' C once the kernel has stamped it (rotated: the PEs do not all copy into one peer at once),
     * then the {@code copied} stamp; on {@code on}, the tail kernel (the signals and the waits).
     */
    private void queueScatter(SymmetricSegment c, ShmemStream on, long generation) {
        int me = shmem.myPe(), n = shmem.nPes(), chunks = scatter.chunks();
        ShmemStream st = scatter.stream();
        int[] rows = scatter.chunkRows();
        long copied = GemmWorkspace.copiedOffset(n, chunks);
        for (int k = 0; k + 1 < chunks; k++) {
            shmem.signalWaitUntilOnStream(arrive, GemmWorkspace.chunkDoneOffset(n, k), Cmp.GE, generation, st);
            long at = rows[k] * scatter.pitch() + scatter.column();
            for (int i = 1; i < n; i++) {
                shmem.ibputOnStream(c, at, scatter.pitch(), c, at, scatter.pitch(), scatter.width(),
                        rows[k + 1] - rows[k], (me + i) % n, st);
            }
        }
        if (chunks > 1) {
            shmem.signalOpOnStream(arrive, copied, generation, SignalOp.SET, me, st);
        }

        scatter.tail().launch(new LaunchConfig(Dim3.of(1), Dim3.of(1), 0, on),
                Kernel.pointer(arrive, GemmWorkspace.arrivedOffset(0)),
                Kernel.pointer(arrive, GemmWorkspace.chunkDoneOffset(n, chunks - 1)),
                chunks > 1 ? Kernel.pointer(arrive, copied) : MemorySegment.NULL, generation, me, n);
    }

    /** Whether the kernel image came from the cache, and how long getting it took. */
    KernelCache.Entry compiled() {
        return compiled;
    }

    @Override
    public String describe() {
        String groups = variant.cluster() > 1 ? " clusters of " + variant.cluster() + " CTAs, " : " work-groups, ";
        return variant + " kernel, " + schedule.grid() + groups + variant.sharedBytes() / 1024 + " KiB shared memory"
                + (scatter == null ? "" : scatter.describe()) + " (image "
                + (compiled.hit() ? "from the kernel cache" : "compiled") + " in " + compiled.nanos() / 1_000_000 + " ms)";
    }

    @Override
    public void close() {
        own.synchronize();
        own.close();
        if (gather != null) {
            gather.close();
        }
        if (scatter != null) {
            scatter.close();
        }
        module.close();
        arena.close();
    }
}
