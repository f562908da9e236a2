package org.jshmem.gemm;

import java.util.Locale;
import org.jshmem.DType;
import org.jshmem.Shmem;
import org.jshmem.ShmemStateException;
import org.jshmem.device.DeviceInfo;

/**
 * GPU heaps: the fused kernels (Hopper on sm_90, portable elsewhere) and the reference path.
 *
 * <p>Path heuristic ({@link GemmPath#AUTO}, {@link #autoPath}), from the measurements in
 * docs/benchmarks/gemm, fused beside the reference path (cuBLAS + jshmem's collective) in the same run:
 * <ul>
 * <li><b>One PE per GPU</b> (2 x H200 over NVLink, 2026-11-28): with the Hopper kernel every fused form
 *     won from {@link #OWN_GPU_FUSED_MIN_FLOPS_PER_PE} per PE: at 29 GFLOP per PE all-reduce 1.10x,
 *     GEMM + reduce-scatter 1.08x, all-gather + GEMM 1.00-1.02x; up to 1.24x above. At 17 GFLOP per PE
 *     and below they lost (0.65x-0.99x). The fused all-scatter won at every size, 512^3 (1.5-2.0x) to
 *     8192^3 (1.6x).</li>
 * <li><b>PEs sharing a GPU</b> (one H200, 2 PEs under MPS, 2026-11-28): the fused all-scatter won at every
 *     size, 1024^3 (1.4-1.6x) to 8192^3 (1.3-1.4x); the fused all-reduce (0.75x-0.80x), GEMM +
 *     reduce-scatter (0.82x-0.84x) and all-gather + GEMM (0.93x-1.02x) did not win at 4096^3 and the
 *     seed shapes: their traffic shares the GEMM's SMs and memory there. So only the all-scatter is fused.</li>
 * <li>The all-scatter's tiles reach the peer by the copy engines where two PEs each have a GPU of their own
 *     and the GEMM is large ({@link #autoScatter}), by the kernel's stores otherwise (on 4 x H200 the stores won).</li>
 * <li>The portable kernel lost everywhere (its GEMM runs at half of cuBLAS's rate): the reference.</li>
 * </ul>
 * A GEMM without a collective runs the fused kernel unless the reference is asked for; where no vendor
 * GEMM is bound (HIP) the fused kernel is the only GPU path. With PEs on other nodes a GEMM with a
 * collective takes the reference path (the fused kernels reach peers only on this node).
 */
final class GpuPlatform implements GemmPlatform {
    /** Auto path, one PE per GPU: the fused collectives from this much work per PE (the all-scatter at any size). */
    static final double OWN_GPU_FUSED_MIN_FLOPS_PER_PE = 24e9;
    /**
     * Auto all-scatter, one PE per GPU: the copy engines carry the tiles from this much work per PE.
     * On 2 x H200 (2026-11-28, fp16, interleaved) they won from 275 GFLOP per PE (4096x8192x8192:
     * 0.471-0.475 against 0.486-0.487 ms; 8192^3 2-3%, bf16 8%; 16384x8192x8192 3%) and lost at 69
     * and below (4096^3: 0.152-0.157 against 0.142-0.143; 2048^3 0.063 against 0.037): their chunks'
     * waits and the last chunk's copy after the kernel cost 10-26 us a call. Since the kernel's sender stores
     * the last chunk into the peers as its tiles end (2026-11-30g, fp16, alternated): 4096x8192x8192 0.400
     * against 0.424 ms (one round), 4096^3 (69 GFLOP) 0.130-0.131 against 0.134-0.135 (three rounds, two
     * calls), 3072^3 (29 GFLOP) 0.085 against 0.083-0.084 and 2048^3 0.043 against 0.033-0.034 (two rounds).
     */
    static final double COPY_ENGINE_SCATTER_MIN_FLOPS = 45e9;
    /**
     * Auto all-scatter: the copy engines carry the tiles only up to this many PEs. On 4 x H200 (2026-11-28,
     * one PE per GPU, fp16, interleaved, each PE's chunks copied to three peers) the kernel's stores won at
     * every size: 4096x8192x8192 0.318-0.332 against 0.385-0.394 ms, 8192^3 0.595-0.621 against 0.631-0.641
     * (bf16 0.599 against 0.628), 16384x8192x8192 1.123-1.136 against 1.152-1.162.
     */
    static final int COPY_ENGINE_SCATTER_MAX_PES = 2;

    private final DeviceInfo device;
    private final GemmKernel kernel;
    private final String tmaRowsNeeded;   // the rows TMA loads and their lengths, for the kernel's messages
    private final int onOtherNodes;    // PEs whose heaps no kernel here reaches

    GpuPlatform(DeviceInfo device, GemmOptions options, GemmShape local, BLayout bLayout, int onOtherNodes) {
        this.device = device;
        this.onOtherNodes = onOtherNodes;
        // TMA needs 16-byte row pitches: rows of A (k) and B (n, or k stored n x k) a multiple of 8 elements
        int bRow = bLayout.rowLength(local);
        boolean tmaRows = local.k() % 8 == 0 && bRow % 8 == 0;
        this.tmaRowsNeeded = "rows of A (k = " + local.k() + ") and B (" + (bLayout == BLayout.K_BY_N ? "n" : "k")
                + " = " + bRow + ")";
        this.kernel = switch (options.kernel()) {
            case AUTO -> device.isHopper() && tmaRows && GpuKernels.built(GemmKernel.HOPPER) ? GemmKernel.HOPPER
                    : GemmKernel.PORTABLE;
            case CPU -> throw new ShmemStateException("GEMM kernel cpu runs on host heaps only; this PE's heap is on "
                    + device.name() + " (use kernel auto, hopper or portable, or JSHMEM_BACKEND=host)");
            case HOPPER -> {
                if (!GpuKernels.built(GemmKernel.HOPPER)) {
                    throw new ShmemStateException("this build of gemm-ext has no Hopper kernel; use portable");
                }
                if (!device.isHopper()) {
                    throw new ShmemStateException("GEMM kernel hopper needs an sm_90 GPU (H100, H200); this PE runs on "
                            + device.name() + " (cc " + device.ccMajor() + "." + device.ccMinor() + "): use portable");
                }
                if (!tmaRows) {
                    throw new IllegalArgumentException("GEMM kernel hopper loads with TMA, which needs "
                            + tmaRowsNeeded + " to be multiples of 8 elements; use portable"
                            + " (or auto, which picks it for such shapes)");
                }
                yield GemmKernel.HOPPER;
            }
            case PORTABLE -> GemmKernel.PORTABLE;
        };
    }

    @Override
    public GemmPath choosePath(GemmOptions options, GemmCollective collective, GemmShape global, int nPes, DType type) {
        if (collective != GemmCollective.NONE && onOtherNodes > 0) {
            return acrossNodes(options, collective);
        }
        if (options.path() != GemmPath.AUTO) {
            return options.path();
        }
        if (collective == GemmCollective.NONE) {
            return GemmPath.FUSED;
        }
        if (!("cuda".equals(device.platform()) && VendorGemm.isAvailable())) {
            return GemmPath.FUSED;   // no vendor GEMM bound (HIP): the fused kernel is the only GPU path
        }
        return autoPath(collective, kernel, global.flops() / nPes, device.nodeSharesDevices());
    }

    /**
     * The measured winner (class comment) for a GEMM with a collective where cuBLAS is bound: the
     * fused path or the reference. The same on every PE: its inputs are.
     *
     * @param flopsPerPe  2mnk over the PEs
     * @param sharedGpus  whether PEs of this node share a device ({@link DeviceInfo#nodeSharesDevices()})
     */
    static GemmPath autoPath(GemmCollective collective, GemmKernel kernel, double flopsPerPe, boolean sharedGpus) {
        boolean fused = kernel == GemmKernel.HOPPER && (collective == GemmCollective.ALL_SCATTER
                || !sharedGpus && flopsPerPe >= OWN_GPU_FUSED_MIN_FLOPS_PER_PE);
        return fused ? GemmPath.FUSED : GemmPath.REFERENCE;
    }

    /**
     * With PEs on other nodes the fused kernels cannot reach their heaps (only host-staged calls
     * do): the reference path (vendor GEMM + jshmem's collective, staged across nodes), or an error.
     */
    private GemmPath acrossNodes(GemmOptions options, GemmCollective collective) {
        String why = "the fused " + collective.name().toLowerCase(Locale.ROOT) + " writes into the peers' GPU heaps from"
                + " the kernel, and " + onOtherNodes + " PE(s) of this job are on other nodes, whose heaps no kernel here"
                + " reaches";
        if (options.path() == GemmPath.FUSED) {
            throw new ShmemStateException("GEMM path fused: " + why + ". Use path auto or reference (the vendor GEMM and"
                    + " jshmem's collective), or run the job on one node.");
        }
        if (!("cuda".equals(device.platform()) && VendorGemm.isAvailable())) {
            throw new ShmemStateException("FusedGemm: " + why + ", and the reference path needs cuBLAS, which is not"
                    + " bound on " + device.platform() + ". Run the job on one node.");
        }
        return GemmPath.REFERENCE;
    }

    @Override
    public TileShape defaultTile(GemmShape local, DType type) {
        return kernel == GemmKernel.HOPPER ? GpuKernels.hopperTile(local, device.multiprocessorsPerPe())
                : variant(null).tile();
    }

    @Override
    public StreamKSchedule.Split autoSplit(GemmShape local, TileShape tile, int workGroups) {
        return kernel == GemmKernel.HOPPER ? GpuKernels.hopperSplit(local, tile, workGroups)
                : StreamKSchedule.Split.AUTO;
    }

    @Override
    public void checkTile(TileShape tile) {
        for (KernelVariant v : GpuKernels.variants(kernel)) {
            if (v.tile().equals(tile)) {
                return;
            }
        }
        boolean hopperTile = GpuKernels.variants(GemmKernel.HOPPER).stream().anyMatch(v -> v.tile().equals(tile));
        String why = kernel == GemmKernel.PORTABLE && hopperTile
                ? " (it is a Hopper tile, but this GEMM runs on the portable kernel: the Hopper kernel needs an sm_90"
                  + " GPU and " + tmaRowsNeeded + " that are multiples of 8)"
                : "";
        throw new IllegalArgumentException("tile " + tile + " is not one the " + kernel.name().toLowerCase(Locale.ROOT)
                + " kernel is built for" + why + "; choose one of " + GpuKernels.variants(kernel).stream()
                .map(v -> v.tile().toString()).toList());
    }

    private KernelVariant variant(TileShape tile) {
        for (KernelVariant v : GpuKernels.variants(kernel)) {
            if (tile == null || v.tile().equals(tile)) {
                return v;
            }
        }
        throw new IllegalStateException("no " + kernel + " variant for tile " + tile);
    }

    /**
     * One per SM of this PE's share; all-gather + GEMM leaves one SM free: its kernel waits for
     * blocks that the gather's stream brings, and a copy between PEs on the same GPU (MPS) may run
     * on the SMs, as do the gather's barriers: with every SM held by waiting work-groups they
     * would never start (measured: a hang at 8192x11008x4096 on one H100, 2 PEs).
     */
    @Override
    public int workGroups(GemmOptions options, GemmCollective collective) {
        int share = device.multiprocessorsPerPe();
        if (options.workGroups() <= 0 && collective == GemmCollective.ALL_GATHER_GEMM && share > 1) {
            return share - 1;
        }
        if (options.workGroups() > share) {
            throw new IllegalArgumentException(options.workGroups() + " work-groups asked for, but this PE's share of "
                    + device.name() + " is " + share + " SMs; persistent work-groups wait for each other, so at most"
                    + " one per SM: use at most " + share + " (or 0 for automatic)");
        }
        return options.workGroups() > 0 ? options.workGroups() : share;
    }

    /**
     * Clusters of 2 CTAs (the Hopper kernel's pairs of tile rows sharing B by multicast) where asked
     * for, on GEMMs without a collective only (the fused epilogues address tiles one CTA at a time).
     * Automatic: single CTAs. On one H200 (2026-11-28, every anchor shape, bf16 and fp16, interleaved)
     * pairs ran within -4% to +4% of single CTAs on all shapes but two (8192x8192x4096 bf16 +7.5%, not
     * seen in fp16) and 20% slower on 128x8192x8192, whose one tile row leaves half of every pair idle;
     * the rings coupled without multicast ran as fast as with it: B's trips from L2 are not what limits
     * this kernel.
     */
    @Override
    public int cluster(GemmOptions options, Epilogue epilogue, int workGroups) {
        if (options.cluster() <= 1) {
            return 1;
        }
        String asked = "clusters of " + options.cluster() + " CTAs";
        if (kernel != GemmKernel.HOPPER) {
            throw new IllegalArgumentException(asked + " need the Hopper kernel; this GEMM runs on the portable kernel"
                    + " (" + device.name() + "): use cluster 0 (automatic) or 1");
        }
        if (epilogue != Epilogue.LOCAL) {
            throw new IllegalArgumentException(asked + " are built for GEMMs without a collective; this one's epilogue is "
                    + epilogue.name().toLowerCase(Locale.ROOT) + ": use cluster 0 (automatic) or 1");
        }
        if (workGroups < options.cluster()) {
            throw new IllegalArgumentException(asked + " need at least " + options.cluster() + " work-groups, not "
                    + workGroups);
        }
        return options.cluster();
    }

    /**
     * The all-scatter by the copy engines, a group of tile rows ({@code groupM}) per chunk, where
     * {@link #autoScatter} takes them; else the kernel stores the tiles itself.
     */
    @Override
    public int scatterRows(GemmOptions options, Epilogue epilogue, StreamKSchedule schedule, int nPes) {
        if (epilogue != Epilogue.ALL_SCATTER) {
            return 0;
        }
        boolean copyEngines = switch (options.scatter()) {
            case STORES -> false;
            case COPY_ENGINE -> true;
            case AUTO -> autoScatter(device.nodeSharesDevices(), schedule.shape().flops(), nPes,
                    GemmWorkspace.chunks(schedule, schedule.groupM())) == ScatterTransport.COPY_ENGINE;
        };
        return copyEngines ? schedule.groupM() : 0;
    }

    /**
     * The all-scatter's measured transport: the copy engines where every PE has a GPU of its own, there are
     * at most {@link #COPY_ENGINE_SCATTER_MAX_PES} PEs, at least {@link #COPY_ENGINE_SCATTER_MIN_FLOPS} of
     * work per PE and more than one chunk of tile rows; the kernel's stores otherwise. Between PEs on one GPU
     * a copy may run on the SMs, which the GEMM holds until it ends; the last chunk is the kernel's to send,
     * so a GEMM of one chunk would leave the copy engines nothing and only add the tail kernel.
     */
    static ScatterTransport autoScatter(boolean sharedGpus, double flopsPerPe, int nPes, int chunks) {
        return !sharedGpus && nPes <= COPY_ENGINE_SCATTER_MAX_PES && flopsPerPe >= COPY_ENGINE_SCATTER_MIN_FLOPS
                && chunks > 1 ? ScatterTransport.COPY_ENGINE : ScatterTransport.STORES;
    }

    @Override
    public GemmExecutor fused(Shmem shmem, StreamKSchedule schedule, int cluster, Epilogue epilogue, GemmWorkspace ws,
                              DType type, ShardLayout layout) {
        TileShape t = schedule.tile();
        KernelVariant v = variant(new TileShape(t.m() / cluster, t.n(), t.k())).withCluster(cluster);
        return new GpuKernelExecutor(shmem, v, schedule, epilogue, ws, type, layout);
    }

    @Override
    public GemmExecutor reference(Shmem shmem, ShardLayout layout, DType type) {
        return new ReferenceExecutor(shmem, layout, type);
    }
}
