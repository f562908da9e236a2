package org.jshmem.device;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.jshmem.GpuException;
import org.jshmem.Shmem;
import org.jshmem.ShmemStateException;
import org.jshmem.gpu.GpuBackend;
import org.jshmem.gpu.GpuHeapDescriptor;
import org.jshmem.gpu.shim.Shim;

/**
 * A GPU code module (cubin, fatbin or PTX for CUDA; hsaco for HIP) loaded on this PE's device,
 * whose kernels can call the {@code jshmem_*} device functions. If the module defines
 * {@code jshmem_device_state} (every module that includes {@code <jshmem/jshmem.h>} does), it is
 * filled on load and kept current as teams change, so kernels need no extra arguments.
 *
 * <pre>{@code
 * try (DeviceModule m = DeviceModule.compile(shmem, source, "ring.cu")) {
 *     m.kernel("ring").launch(LaunchConfig.of(1, 256, stream), buffer, 1024L);
 * }
 * }</pre>
 */
public final class DeviceModule implements AutoCloseable {
    private static final String STATE_SYMBOL = "jshmem_device_state";

    private final Shmem shmem;
    private final GpuBackend gpu;
    private final MemorySegment module;
    private final String name;
    private final Consumer<MemorySegment> stateBinding;
    private boolean closed;

    private DeviceModule(Shmem shmem, byte[] image, String name) {
        this.shmem = shmem;
        this.gpu = shmem.unwrap(GpuBackend.class);
        this.name = name;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment copy = a.allocate(image.length + 1L);   // PTX must end in a NUL
            MemorySegment.copy(MemorySegment.ofArray(image), 0, copy, 0, image.length);
            this.module = Shim.moduleLoad(copy);
        }
        MemorySegment global = Shim.moduleGlobal(module, STATE_SYMBOL);
        if (global.equals(MemorySegment.NULL)) {
            stateBinding = null;
        } else {
            long expected = GpuHeapDescriptor.STATE.byteSize();
            if (global.byteSize() != expected) {
                Shim.moduleUnload(module);
                throw new GpuException("module " + name + ": " + STATE_SYMBOL + " has " + global.byteSize()
                        + " bytes, this jshmem expects " + expected + "; rebuild it against this jshmem's headers");
            }
            stateBinding = state -> gpu.upload(global, state);
            gpu.addStateListener(stateBinding);
        }
    }

    /** Loads a module image from a file (cubin, fatbin, PTX, hsaco). */
    public static DeviceModule load(Shmem shmem, Path file) {
        try {
            return new DeviceModule(shmem, Files.readAllBytes(file), file.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read module " + file + ": " + e.getMessage(), e);
        }
    }

    /** Loads a module image from bytes. */
    public static DeviceModule load(Shmem shmem, byte[] image, String name) {
        return new DeviceModule(shmem, image, name);
    }

    /**
     * Compiles CUDA or HIP source at run time (NVRTC / hiprtc) for this PE's device, with
     * jshmem's device headers on the include path, and loads it.
     *
     * @param name    a file name for messages and {@code #line}s, e.g. "ring.cu"
     * @param options extra compiler options, e.g. "-DN=4", "--use_fast_math"
     * @throws CompileException with the compiler's log when compilation fails
     */
    public static DeviceModule compile(Shmem shmem, String source, String name, String... options) {
        return new DeviceModule(shmem, compileImage(shmem, source, name, options), name);
    }

    /**
     * Like {@link #compile}, through the on-disk {@link KernelCache} at its default location: the
     * first run compiles and stores the image, later runs (any process of this user) load it. PEs
     * of one machine that miss the same kernel at once compile it once: the others wait and load it.
     */
    public static DeviceModule compileCached(Shmem shmem, String source, String name, String... options) {
        return load(shmem, KernelCache.atDefaultLocation().image(shmem, source, name, options).image(), name);
    }

    /**
     * Compiles like {@link #compile} but returns the image instead of loading it: a cubin for this
     * PE's device (PTX with a {@code --gpu-architecture=compute_XX} option; a code object on HIP),
     * to keep or ship and later pass to {@link #load(Shmem, byte[], String)}.
     *
     * @throws CompileException with the compiler's log when compilation fails
     */
    public static byte[] compileImage(Shmem shmem, String source, String name, String... options) {
        List<String> opts = new ArrayList<>();
        opts.add("-I" + DeviceHeaders.includeDirectory());
        opts.add("-std=c++17");
        opts.addAll(List.of(compileOptions(shmem, options)));
        Shim.Compiled out = Shim.rtcCompile(source, name, opts.toArray(String[]::new));
        if (out.image() == null) {
            throw new CompileException("compiling " + name + " failed: " + out.error(), out.log());
        }
        return out.image();
    }

    /**
     * The options a run-time compile uses besides the include path: the caller's, then
     * {@code -DJSHMEM_NO_PROXY} when every PE of the job is on this node. Kernels then carry no
     * branch for calls to other nodes' PEs ({@code jshmem_proxy.h}; it costs about a fifth of a
     * 4-16 KB device put's rate). So an image compiled in a job on one node must not be loaded
     * by a job across nodes; the {@link KernelCache} keys on these options. In a job that traces,
     * {@code -DJSHMEM_DEVICE_TRACE=1} compiles the kernels' spans in ({@code jshmem_trace.h}). Without
     * a wait timeout for kernels ({@code JSHMEM_WAIT_TIMEOUT} unset), {@code -DJSHMEM_NO_WAIT_REPORT}
     * leaves the stuck-wait report out: its printf call would serialise a Hopper kernel's wgmma.
     */
    static String[] compileOptions(Shmem shmem, String... options) {
        List<String> out = new ArrayList<>(List.of(options));
        if (!shmem.unwrap(GpuBackend.class).reachesOtherNodes()) {
            out.add("-DJSHMEM_NO_PROXY");
        }
        if (shmem.config().kernelWaitTimeoutMillis() == 0) {
            out.add("-DJSHMEM_NO_WAIT_REPORT");   // waits in kernels are bare spins (jshmem_sync.h)
        }
        if (shmem.trace().recording()) {
            out.add("-DJSHMEM_DEVICE_TRACE=1");   // jshmem_trace.h's spans compiled in
        }
        return out.toArray(String[]::new);
    }

    /** The kernel {@code kernelName} ({@code extern "C"} names are looked up as written). */
    public Kernel kernel(String kernelName) {
        return new Kernel(this, Shim.moduleFunction(handle(), kernelName), kernelName);
    }

    /** Whether the module defines {@code jshmem_device_state} (and so is kept bound to the heap). */
    public boolean bindsState() {
        return stateBinding != null;
    }

    /** The address of a {@code __device__} global of the module, or NULL if it has none of that name. */
    public MemorySegment global(String symbol) {
        return Shim.moduleGlobal(handle(), symbol);
    }

    Shmem shmem() {
        return shmem;
    }

    MemorySegment handle() {
        if (closed) {
            throw new ShmemStateException("module " + name + " was closed");
        }
        return module;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            if (stateBinding != null) {
                gpu.removeStateListener(stateBinding);
            }
            Shim.moduleUnload(module);
        }
    }

    @Override
    public String toString() {
        return "module " + name + (closed ? " (closed)" : "");
    }
}
