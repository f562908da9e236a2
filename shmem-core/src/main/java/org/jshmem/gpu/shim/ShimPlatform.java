package org.jshmem.gpu.shim;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Which GPU platform ({@code cuda} or {@code hip}) this process uses: probed before any GPU
 * work, then fixed, so that {@link Shim}'s method handles can be static finals bound to one
 * library.
 */
public final class ShimPlatform {
    private static String chosen;
    private static boolean environmentPrepared;

    private ShimPlatform() {
    }

    /**
     * Sets what the GPU runtime must read when it starts, before anything of this process starts it:
     * {@code CUDA_MODULE_LOADING=EAGER}, unless the variable is set. CUDA loads a kernel at its first
     * launch by default (lazy loading), and that load waits for the device's running kernels. A
     * kernel that spins until a request of another node's PE is applied here would then keep the
     * runtime's one-thread atomic kernel, which applies it, from ever loading, and the job would hang.
     * {@code bin/jshmemrun} sets it too, for the PEs of every node.
     */
    public static synchronized void prepareEnvironment() {
        if (environmentPrepared) {
            return;
        }
        environmentPrepared = true;
        Linker linker = Linker.nativeLinker();
        MethodHandle setenv = linker.downcallHandle(linker.defaultLookup().find("setenv").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
        try (Arena a = Arena.ofConfined()) {
            if ((int) setenv.invokeExact(a.allocateFrom("CUDA_MODULE_LOADING"), a.allocateFrom("EAGER"), 0) != 0) {
                throw new IllegalStateException("setenv(CUDA_MODULE_LOADING) failed");
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** Fixes the platform for this process; {@link Shim} binds to it on first use. */
    public static synchronized void choose(String platform) {
        if (chosen != null && !chosen.equals(platform)) {
            throw new IllegalStateException("this process already uses the " + chosen + " shim; it cannot switch to " + platform);
        }
        chosen = platform;
    }

    /** "cuda" or "hip": the platform this process uses. */
    static synchronized String chosen() {
        chosenLibrary();
        return chosen;
    }

    public static synchronized String chosenLibrary() {
        if (chosen == null) {
            throw new IllegalStateException("no GPU platform chosen (internal error: ShimPlatform.choose must run first)");
        }
        return "jshmem_" + chosen;
    }

    /**
     * Whether {@code platform}'s shim loads and sees at least one device: null if so, else why not
     * (missing library, no driver, no device), in words a user can act on.
     */
    public static String unavailabilityCause(String platform) {
        String driver = missingDriver(platform);
        if (driver != null) {
            return driver;
        }
        prepareEnvironment();
        SymbolLookup lib;
        try {
            lib = NativeLibraries.load("jshmem_" + platform);
        } catch (RuntimeException | LinkageError e) {
            return "the " + platform + " shim could not be loaded: " + e.getMessage();
        }
        try (Arena a = Arena.ofConfined()) {
            Linker linker = Linker.nativeLinker();
            MethodHandle count = linker.downcallHandle(lib.find("jshmem_rt_device_count").orElseThrow(),
                    FunctionDescriptor.of(JAVA_INT, ADDRESS));
            MethodHandle error = linker.downcallHandle(lib.find("jshmem_rt_last_error").orElseThrow(),
                    FunctionDescriptor.of(ADDRESS));
            MemorySegment n = a.allocate(JAVA_INT);
            if ((int) count.invokeExact(n) != 0) {
                MemorySegment msg = (MemorySegment) error.invokeExact();
                return "no usable " + platform.toUpperCase() + " driver or device (" + msg.reinterpret(4096).getString(0) + ")";
            }
            return n.get(JAVA_INT, 0) > 0 ? null : "no " + platform.toUpperCase() + " device is present";
        } catch (Throwable t) {
            return "probing the " + platform + " shim failed: " + t;
        }
    }

    /**
     * Why {@code platform}'s vendor driver is absent (NVIDIA's {@code libcuda.so.1}, AMD's {@code /dev/kfd}),
     * or null. Checked before the shim, whose extraction and load cost each PE about a quarter of a second
     * of CPU: on a machine without GPUs every PE of a job probes both platforms.
     */
    private static String missingDriver(String platform) {
        if (platform.equals("hip")) {
            return Files.exists(Path.of("/dev/kfd")) ? null : "no AMD GPU driver (/dev/kfd is absent)";
        }
        try {
            SymbolLookup.libraryLookup("libcuda.so.1", Arena.global());   // the shim loads it anyway
            return null;
        } catch (IllegalArgumentException e) {
            return "no NVIDIA driver (libcuda.so.1 is not installed)";
        }
    }
}
