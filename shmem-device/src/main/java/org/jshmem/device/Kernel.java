package org.jshmem.device;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import org.jshmem.SymmetricSegment;
import org.jshmem.gpu.GpuBackend;
import org.jshmem.gpu.shim.Shim;

/** A {@code __global__} function of a loaded {@link DeviceModule}, ready to launch. */
public final class Kernel {
    private final DeviceModule module;
    private final MemorySegment function;
    private final String name;

    Kernel(DeviceModule module, MemorySegment function, String name) {
        this.module = module;
        this.function = function;
        this.name = name;
    }

    /** A device pointer to {@code offset} bytes into this PE's copy of {@code segment}, as a launch argument. */
    public static Object pointer(SymmetricSegment segment, long offset) {
        return new KernelArgs.Pointer(segment, offset);
    }

    /**
     * A struct argument passed by value (e.g. a parameter block, or a {@code CUtensorMap} for a
     * {@code __grid_constant__} parameter): its bytes are copied at launch, so the segment may be
     * reused afterwards. Its layout must match the kernel's C struct exactly.
     */
    public static Object byValue(MemorySegment struct) {
        return new KernelArgs.ByValue(Objects.requireNonNull(struct, "byValue: struct is null"));
    }

    /**
     * Queues the kernel on the config's stream. Arguments map to C parameters by Java type (see
     * {@link KernelArgs}); a symmetric segment becomes this PE's device address of it. Returns at
     * once; a launch error (bad shape, too much shared memory) is a {@link org.jshmem.GpuException}.
     */
    public void launch(LaunchConfig config, Object... args) {
        enqueue(config, Shim.LaunchMode.PLAIN, args);
    }

    /**
     * Queues the kernel as a programmatic dependent launch (CUDA on compute capability 9.0 and up;
     * elsewhere, or with {@code JSHMEM_GPU_LAUNCH_CHAINING=0}, as {@link #launch}): it may be
     * scheduled while the stream's previous kernel still runs, which can hide the gap between the two.
     * The kernel must call {@code cudaGridDependencySynchronize()} ({@code griddepcontrol.wait})
     * before it reads or writes memory that earlier work on the stream touches: that call returns once
     * the previous kernel has finished and its writes are visible. A kernel that calls
     * {@code cudaTriggerProgrammaticLaunchCompletion()} ({@code griddepcontrol.launch_dependents})
     * lets the next chained kernel be scheduled from then on rather than at its end. Blocks scheduled
     * early hold their multiprocessors while they wait, so chain only kernels whose blocks wait for
     * nothing but the stream's own earlier work.
     */
    public void launchChained(LaunchConfig config, Object... args) {
        enqueue(config, Shim.LaunchMode.CHAINED, args);
    }

    /**
     * Queues the kernel as a collective launch (NVSHMEM's {@code nvshmemx_collective_launch}): every
     * block is resident on the device at once (a cooperative launch), which kernels whose blocks wait
     * for each other, or for other PEs' kernels, need. The grid may have at most
     * {@link #maxCoResidentBlocks} blocks; the check comes before anything is queued.
     *
     * @throws IllegalArgumentException when the grid cannot be co-resident, naming the limit
     */
    public void launchCollective(LaunchConfig config, Object... args) {
        Objects.requireNonNull(config, "launchCollective: config is null");
        Dim3 g = config.grid();
        Dim3 b = config.block();
        long blocks = (long) g.x() * g.y() * g.z();
        int threads = b.x() * b.y() * b.z();
        int max = maxCoResidentBlocks(threads, config.sharedBytes());
        if (blocks > max) {
            throw new IllegalArgumentException("launchCollective(" + name + "): a grid of " + blocks + " blocks of "
                    + threads + " threads with " + config.sharedBytes() + " bytes of dynamic shared memory cannot be"
                    + " resident at once: this PE may have at most " + max + " (" + blocksPerMultiprocessor(threads,
                    config.sharedBytes()) + " per multiprocessor x " + multiprocessors() + " multiprocessors). Launch"
                    + " at most " + max + " blocks, or fewer threads or less shared memory per block.");
        }
        enqueue(config, Shim.LaunchMode.COOPERATIVE, args);
    }

    /**
     * The most blocks of {@code blockThreads} threads with {@code sharedBytes} of dynamic shared memory
     * that can be resident at once for this PE ({@code nvshmemx_collective_launch_query_gridsize}):
     * blocks per multiprocessor (the occupancy calculator) times this PE's share of the multiprocessors
     * (all of them, or an equal part when several PEs share the device).
     */
    public int maxCoResidentBlocks(int blockThreads, int sharedBytes) {
        return blocksPerMultiprocessor(blockThreads, sharedBytes) * multiprocessors();
    }

    /**
     * The most clusters of {@code cluster} blocks ({@code __cluster_dims__} of the kernel) of
     * {@code blockThreads} threads with {@code sharedBytes} of dynamic shared memory that can be
     * resident at once for this PE: the device's answer ({@code cudaOccupancyMaxActiveClusters}),
     * times this PE's share of the multiprocessors when several PEs share the device. A kernel whose
     * clusters wait for each other must not launch more.
     */
    public int maxCoResidentClusters(int cluster, int blockThreads, int sharedBytes) {
        if (cluster < 1) {
            throw new IllegalArgumentException("maxCoResidentClusters(" + name + "): cluster size " + cluster
                    + " must be at least 1");
        }
        module.handle();
        long device = Shim.maxActiveClusters(function, cluster, blockThreads, sharedBytes);
        int deviceSms = module.shmem().unwrap(GpuBackend.class).deviceInfo().multiprocessors();
        return (int) (device * multiprocessors() / deviceSms);
    }

    private int blocksPerMultiprocessor(int blockThreads, int sharedBytes) {
        module.handle();
        return Shim.maxBlocksPerMultiprocessor(function, blockThreads, sharedBytes);
    }

    private int multiprocessors() {
        return module.shmem().unwrap(GpuBackend.class).multiprocessorsPerPe();
    }

    private void enqueue(LaunchConfig config, Shim.LaunchMode mode, Object[] args) {
        module.handle();   // fails if the module was closed
        MemorySegment stream = config.stream() == null ? MemorySegment.NULL : config.stream().handle();
        Dim3 g = config.grid();
        Dim3 b = config.block();
        MemorySegment params = KernelArgs.pack(KernelArgs.threadBuffer(), module.shmem(), name, args);
        Shim.launch(function, g.x(), g.y(), g.z(), b.x(), b.y(), b.z(), config.sharedBytes(), stream, params, name,
                mode);
    }

    /** Lets the kernel use up to {@code bytes} of dynamic shared memory (above the 48 KiB default). */
    public void setMaxDynamicSharedBytes(int bytes) {
        module.handle();
        Shim.setMaxDynamicShared(function, bytes);
    }

    /** The kernel's name. */
    public String name() {
        return name;
    }
}
