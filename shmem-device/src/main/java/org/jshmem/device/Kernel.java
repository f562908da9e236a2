package org.jshmem.device;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;
import org.jshmem.SymmetricSegment;
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
        module.handle();   // fails if the module was closed
        MemorySegment stream = config.stream() == null ? MemorySegment.NULL : config.stream().handle();
        Dim3 g = config.grid();
        Dim3 b = config.block();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment params = KernelArgs.pack(a, module.shmem(), name, args);
            Shim.launch(function, g.x(), g.y(), g.z(), b.x(), b.y(), b.z(), config.sharedBytes(), stream, params, name);
        }
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
