package org.jshmem.gemm;

import org.jshmem.DType;
import org.jshmem.Shmem;
import org.jshmem.ShmemStateException;

/** Host heaps: the CPU executor, and the reference path of a CPU GEMM and jshmem's blocking collective. */
final class HostPlatform implements GemmPlatform {
    /** Small tiles: CI's shapes then have many tiles, ragged edges and Stream-K splits. */
    static final TileShape DEFAULT_TILE = new TileShape(32, 32, 16);
    static final int DEFAULT_WORK_GROUPS = 4;

    HostPlatform(GemmOptions options) {
        if (options.kernel() != GemmKernel.AUTO && options.kernel() != GemmKernel.CPU) {
            throw new ShmemStateException("GEMM kernel " + options.kernel().name().toLowerCase(java.util.Locale.ROOT)
                    + " needs a GPU heap (JSHMEM_BACKEND=cuda or hip); this PE's heap is in host memory, where the CPU"
                    + " executor runs (kernel cpu or auto)");
        }
    }

    @Override
    public GemmPath choosePath(GemmOptions options, GemmCollective collective, GemmShape global, int nPes, DType type) {
        return options.path() == GemmPath.REFERENCE ? GemmPath.REFERENCE : GemmPath.FUSED;   // auto: the fused path
    }

    @Override
    public TileShape defaultTile(GemmShape local, DType type) {
        return DEFAULT_TILE;
    }

    @Override
    public void checkTile(TileShape tile) {
        // the CPU executor takes any tile
    }

    @Override
    public int workGroups(GemmOptions options, GemmCollective collective) {
        return options.workGroups() > 0 ? options.workGroups() : DEFAULT_WORK_GROUPS;
    }

    @Override
    public GemmExecutor fused(Shmem shmem, StreamKSchedule schedule, int cluster, Epilogue epilogue, GemmWorkspace ws,
                              DType type, ShardLayout layout) {
        return new CpuExecutor(shmem, schedule, epilogue, ws, type, layout);
    }

    @Override
    public GemmExecutor reference(Shmem shmem, ShardLayout layout, DType type) {
        return new HostReferenceExecutor(shmem, layout, type);
    }
}
