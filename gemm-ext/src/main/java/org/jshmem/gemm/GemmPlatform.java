package org.jshmem.gemm;

import org.jshmem.DType;
import org.jshmem.Shmem;
import org.jshmem.ShmemStateException;
import org.jshmem.device.DeviceInfo;

/** What a heap offers a GEMM: the paths, kernels, tiles and work-group counts that fit it. */
interface GemmPlatform {

    /** The host platform for a host heap, the GPU platform for a GPU heap, for this PE's part of {@code layout}. */
    static GemmPlatform of(Shmem shmem, GemmOptions options, ShardLayout layout) {
        int onOtherNodes = shmem.nPes() - shmem.teamShared().nPes();
        GemmShape local = layout.local(shmem.myPe());
        return DeviceInfo.find(shmem)
                .<GemmPlatform>map(d -> new GpuPlatform(d, options, local, layout.bLayout(), onOtherNodes))
                .orElseGet(() -> new HostPlatform(options));
    }

    /** The path a call takes (never AUTO); throws if the one asked for is not available here. */
    GemmPath choosePath(GemmOptions options, GemmCollective collective, GemmShape global, int nPes, DType type);

    /** The tile the chosen kernel uses for this PE's shape when none is given. */
    TileShape defaultTile(GemmShape local, DType type);

    /** The Stream-K split when the options leave it to the library ({@link StreamKSchedule.Split#AUTO}). */
    default StreamKSchedule.Split autoSplit(GemmShape local, TileShape tile, int workGroups) {
        return StreamKSchedule.Split.AUTO;
    }

    /** Throws a clear error when the chosen kernel cannot run {@code tile}. */
    void checkTile(TileShape tile);

    /** Persistent work-groups (CTAs) for the fused path of {@code collective}. */
    int workGroups(GemmOptions options, GemmCollective collective);

    /**
     * CTAs per thread block cluster for this GEMM ({@link GemmOptions#cluster()}); the schedule is then
     * planned over tiles {@code cluster} times as tall, one per cluster. Throws a clear error where
     * clusters were asked for and this platform cannot run them.
     */
    default int cluster(GemmOptions options, Epilogue epilogue, int workGroups) {
        if (options.cluster() > 1) {
            throw new IllegalArgumentException("clusters of " + options.cluster() + " CTAs are a feature of the Hopper"
                    + " kernel on a GPU heap; this GEMM runs on the CPU: use cluster 0 (automatic) or 1");
        }
        return 1;
    }

    /**
     * All-scatter over {@code nPes} PEs: how many tile rows make a chunk that the copy engines take to the
     * peers ({@link ScatterTransport#COPY_ENGINE}), or 0: the kernel stores the tiles into the peers' C.
     * Throws a clear error where the copy engines were asked for and this platform has none.
     */
    default int scatterRows(GemmOptions options, Epilogue epilogue, StreamKSchedule schedule, int nPes) {
        if (epilogue == Epilogue.ALL_SCATTER && options.scatter() == ScatterTransport.COPY_ENGINE) {
            throw new ShmemStateException("the all-scatter by the copy engines (scatter copy_engine) needs a"
                    + " GPU heap (JSHMEM_BACKEND=cuda or hip); on a host heap use scatter stores or auto");
        }
        return 0;
    }

    /** The fused executor of {@code schedule}, each of whose work-groups is a cluster of {@code cluster} CTAs. */
    GemmExecutor fused(Shmem shmem, StreamKSchedule schedule, int cluster, Epilogue epilogue, GemmWorkspace ws,
                       DType type, ShardLayout layout);

    GemmExecutor reference(Shmem shmem, ShardLayout layout, DType type);
}
