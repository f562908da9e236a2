package org.jshmem.gemm;

import java.util.Locale;
import org.jshmem.DType;
import org.jshmem.Shmem;
import org.jshmem.ShmemStateException;
import org.jshmem.device.DeviceInfo;

/**
 * GPU heaps: the fused kernels (Hopper on sm_90, portable elsewhere) and the reference path.
 *
 * <p>Path heuristic ({@link GemmPath#AUTO}, {@link #autoPath}): the fused path where it beat the reference
 * path (cuBLAS + jshmem's collective) run beside it, measured by {@code bin/jshmemrun -np 2 gemm -c
 * <collective> --reference} (docs/performance.md):
 * <ul>
 * <li><b>One PE per GPU</b>: with the Hopper kernel every fused form wins from
 *     {@link #OWN_GPU_FUSED_MIN_FLOPS_PER_PE} per PE and loses below it; the fused all-scatter wins at every size.</li>
 * <li><b>PEs sharing a GPU</b> (MPS): only the all-scatter is fused; the other collectives' traffic shares the
 *     GEMM's SMs and memory there, and the reference wins.</li>
 * <li>The all-scatter's tiles reach the peer by the copy engines where two PEs each have a GPU of their own
 *     and the GEMM is large ({@link #autoScatter}), by the kernel's stores otherwise.</li>
 * <li>The portable kernel's GEMM runs at about half of cuBLAS's rate: it always takes the reference.</li>
 * </ul>
 * A GEMM without a collective runs the fused kernel unless the reference is asked for; where no vendor
 * GEMM is bound (HIP) the fused kernel is the only GPU path. With PEs on other nodes a GEMM with a
 * collective takes the reference path (the fused kernels reach peers only on this node).
 */
final class GpuPlatform implements GemmPlatform {
    /** Auto path, one PE per GPU: the fused collectives from this much work per PE (the all-scatter at any size). */
    static final double OWN_GPU_FUSED_MIN_FLOPS_PER_PE = 24e9;
    /**
     * Auto all-scatter, one PE per GPU: the copy engines carry the tiles from this much work per PE. Below
     * it their chunks' waits and the tail kernel cost more than the kernel's own stores to the peers
     * (measured by {@code bin/jshmemrun -np 2 gemm -c all_scatter --scatter copy_engine}, against
     * {@code --scatter stores}; docs/performance.md).
     */
    static final double COPY_ENGINE_SCATTER_MIN_FLOPS = 45e9;
    /**
     * Auto all-scatter: the copy engines carry the tiles only up to this many PEs; with more peers to copy
     * each chunk to, the kernel's stores won at every size (same benchmark, {@code -np 4}).
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
     * Automatic: single CTAs. Pairs measured level with single CTAs on the anchor shapes and slower on
     * GEMMs of one tile row, which leave half of every pair idle: B's trips from L2 are not what limits this
     * kernel (measured by {@code bin/jshmemrun -np 1 gemm -c none --shapes anchor --cluster 2}; docs/performance.md).
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
