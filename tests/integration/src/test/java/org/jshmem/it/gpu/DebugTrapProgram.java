package org.jshmem.it.gpu;

import static org.jshmem.it.PeProgram.report;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import org.jshmem.GpuException;
import org.jshmem.Shmem;
import org.jshmem.ShmemConfig;
import org.jshmem.ShmemStream;
import org.jshmem.SymmetricSegment;
import org.jshmem.device.DeviceModule;
import org.jshmem.device.LaunchConfig;
import org.jshmem.gpu.GpuBackend;

/**
 * Runs on every PE of a GPU job: launches kernel {@code args[1]} (default test_debug_trap) with case
 * {@code args[0]} ({@code args[2]}: the host calls' wait timeout in milliseconds, else the environment's): for test_debug_trap, with {@code JSHMEM_DEBUG=1}, an invalid call that debug mode
 * must catch (print one line, trap); for test_stuck_wait, with {@code JSHMEM_WAIT_TIMEOUT} set, a wait
 * that never ends and must time out (print one line, trap). Each PE reports where the
 * {@link GpuException} came ({@code trapStage}: launch or synchronize), its message and the
 * milliseconds from the launch to it ({@code trapMillis}), flushes the C stdio buffers (where the
 * device's printf lands), waits for the others on the host, then closes jshmem as far as a lost
 * context allows and reports how that went. Only the preamble and the kernel's section of the file
 * are compiled (the rest takes many seconds and is not needed here).
 */
public final class DebugTrapProgram {
    public static void main(String[] args) {
        int which = Integer.parseInt(args[0]);
        String kernel = args.length > 1 ? args[1] : "test_debug_trap";
        String source = DeviceApiKernels.only(DeviceApiKernels.source(), kernel);
        ShmemConfig config = ShmemConfig.fromEnvironment();
        Shmem shmem = Shmem.init(args.length > 2 ? config.withWaitTimeoutMillis(Long.parseLong(args[2])) : config);
        int me = shmem.myPe();
        report(me, "debug", shmem.config().debug() ? 1 : 0);
        GpuBackend gpu = shmem.unwrap(GpuBackend.class);
        report(me, "heapSize", gpu.heapStart() + gpu.heapSize());   // the device state's heap_size
        DeviceModule module = DeviceModule.compileCached(shmem, source, DeviceApiKernels.FILE);
        ShmemStream stream = shmem.createStream();
        SymmetricSegment sym = shmem.calloc(4, Integer.BYTES);
        report(me, "symOffset", sym.heapOffset());
        shmem.barrierAll();
        String stage = "launch";
        long start = System.nanoTime();
        try {
            module.kernel(kernel).launch(LaunchConfig.of(1, 1, stream), sym, which);
            stage = "synchronize";
            stream.synchronize();
            report(me, "trap", "no exception");
        } catch (GpuException e) {
            report(me, "trapMillis", (System.nanoTime() - start) / 1_000_000);
            report(me, "trapStage", stage);
            report(me, "trap", "GpuException | " + e.getMessage().replace('\n', ' '));
        }
        flushStdio();
        try {
            shmem.syncAll();   // host-only barrier: every PE has reported before anyone ends the job
            report(me, "syncAll", "no exception");
        } catch (RuntimeException e) {
            report(me, "syncAll", e.getClass().getSimpleName() + " | " + e.getMessage().replace('\n', ' '));
        }
        try {
            shmem.close();     // the context is lost: expected to fail, after releasing what it can
            report(me, "close", "no exception");
        } catch (RuntimeException e) {
            report(me, "close", e.getClass().getSimpleName());
        }
        flushStdio();
    }

    /** fflush(NULL): the device printf goes through the C library's stdout buffer, not System.out. */
    private static void flushStdio() {
        try {
            Linker linker = Linker.nativeLinker();
            MethodHandle fflush = linker.downcallHandle(linker.defaultLookup().find("fflush").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
            int rc = (int) fflush.invokeExact(MemorySegment.NULL);
            if (rc != 0) {
                System.out.println("fflush(NULL) returned " + rc);
            }
        } catch (Throwable t) {
            System.out.println("fflush(NULL) failed: " + t);
        }
        System.out.flush();
    }
}
