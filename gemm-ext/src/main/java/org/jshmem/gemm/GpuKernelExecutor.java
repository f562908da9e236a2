package org.jshmem.gemm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.jshmem.DType;
import org.jshmem.Shmem;
import org.jshmem.ShmemStream;
import org.jshmem.SymmetricSegment;
import org.jshmem.device.DeviceModule;
import org.jshmem.device.Dim3;
import org.jshmem.device.Kernel;
import org.jshmem.device.KernelCache;
import org.jshmem.device.LaunchConfig;

/**
 * Runs a fused GEMM kernel (portable or Hopper) on this PE's GPU: compiles it once for the
 * variant and element type (through the on-disk kernel cache), fills the parameter block, and
 * launches one persistent work-group per SM of this PE's share per call.
 */
final class GpuKernelExecutor implements GemmExecutor {
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

    GpuKernelExecutor(Shmem shmem, KernelVariant variant, StreamKSchedule schedule, Epilogue epilogue, GemmWorkspace ws,
                      DType type, ShardLayout layout) {
        this.shmem = shmem;
        this.variant = variant;
        this.schedule = schedule;
        List<String> options = new ArrayList<>(variant.options(type));
        String extra = System.getenv("JSHMEM_GEMM_COMPILE_OPTIONS");   // experiments: e.g. -DJGEMM_SM90_B_LBO=1024
        if (extra != null && !extra.isBlank()) {
            options.addAll(List.of(extra.trim().split("\\s+")));
        }
        String source = KernelSources.expanded(variant.source());
        this.compiled = KernelCache.atDefaultLocation().image(shmem, source, variant.source(),
                options.toArray(String[]::new));
        this.module = DeviceModule.load(shmem, compiled.image(), variant.source());
        this.kernel = module.kernel(variant.entry());
        kernel.setMaxDynamicSharedBytes(variant.sharedBytes());
        int me = shmem.myPe();
        GemmShape local = schedule.shape();
        long ldc = layout.collective() == GemmCollective.NONE ? local.n() : layout.global().n();
        this.params = new KernelParams(arena).schedule(schedule, epilogue, local.k(), local.n(), ldc)
                .set("workspace", address(ws.partials())).set("sk_flags", address(ws.skFlags()))
                .set("staging", address(ws.staging())).set("arrive", address(ws.arrive()))
                .set("col_offset", layout.collective() == GemmCollective.ALL_SCATTER ? layout.offset(me) : 0)
                .set("arrive_base", ws.arriveBase())
                .set("arrive_count", epilogue == Epilogue.ALL_SCATTER ? ws.arriveCount() : schedule.tiles())
                .set("n_pes", shmem.nPes()).set("my_pe", me);
        this.maps = variant.kernel() == GemmKernel.HOPPER ? new TensorMaps(arena, variant, type, local) : null;
        this.own = shmem.createStream();
    }

    private long address(SymmetricSegment s) {
        return shmem.deviceAddress(s, 0).address();
    }

    @Override
    public void run(SymmetricSegment a, SymmetricSegment b, SymmetricSegment c, ShmemStream stream, long generation) {
        ShmemStream on = stream != null ? stream : own;
        params.set("a", address(a)).set("b", address(b)).set("c", address(c)).set("generation", generation);
        LaunchConfig config = new LaunchConfig(Dim3.of(schedule.grid()), Dim3.of(variant.threads()),
                variant.sharedBytes(), on);
        if (maps == null) {
            kernel.launch(config, Kernel.byValue(params.segment()));
        } else {
            kernel.launch(config, Kernel.byValue(params.segment()), Kernel.byValue(maps.forA(address(a))),
                    Kernel.byValue(maps.forB(address(b))));
        }
        if (stream == null) {
            own.synchronize();
        }
    }

    /** Whether the kernel image came from the cache, and how long getting it took. */
    KernelCache.Entry compiled() {
        return compiled;
    }

    @Override
    public String describe() {
        return variant + " kernel, " + schedule.grid() + " work-groups, " + variant.sharedBytes() / 1024
                + " KiB shared memory (image " + (compiled.hit() ? "from the kernel cache" : "compiled") + " in "
                + compiled.nanos() / 1_000_000 + " ms)";
    }

    @Override
    public void close() {
        own.synchronize();
        own.close();
        module.close();
        arena.close();
    }
}
