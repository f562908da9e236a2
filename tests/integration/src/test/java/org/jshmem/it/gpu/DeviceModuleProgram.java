package org.jshmem.it.gpu;

import static org.jshmem.it.PeProgram.report;
import static org.jshmem.it.gpu.DeviceApiExpected.join;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jshmem.Shmem;
import org.jshmem.ShmemStream;
import org.jshmem.SymmetricSegment;
import org.jshmem.device.CompileException;
import org.jshmem.device.DeviceModule;
import org.jshmem.device.Kernel;
import org.jshmem.device.LaunchConfig;
import org.jshmem.gpu.GpuBackend;

/**
 * Runs on a GPU job (one PE is enough): the Java side of the device library. Run-time
 * compilation (an error with its log; a good module), loading a module from the bytes of a
 * cubin and from a file, state binding, launch errors (bad shape, unknown kernel, unsupported
 * argument), a chained launch, and use after close. Each case reports
 * {@code <Exception> | <message>} or the data a kernel wrote; the test asserts.
 */
public final class DeviceModuleProgram {
    /** Line 3 has the error. */
    static final String BROKEN = """
            #include <jshmem/jshmem.h>
            extern "C" __global__ void broken(int *out) {
              out[0] = no_such_variable;
            }
            """;

    /** Writes value + lane into out[lane] through jshmem_int_p (needs the bound state) and n_pes into out[32]. */
    static final String GOOD = """
            #include <jshmem/jshmem.h>
            __device__ int counter;
            extern "C" __global__ void write_pe(int *out, int value) {
              jshmem_int_p(&out[threadIdx.x], value + (int)threadIdx.x, jshmem_my_pe());
              if (threadIdx.x == 0) out[32] = jshmem_n_pes();
              atomicAdd(&counter, 1);
            }
            """;

    /** No jshmem: nothing to bind. */
    static final String PLAIN = """
            extern "C" __global__ void plain(int *out, int value) {
              out[threadIdx.x] = value + (int)threadIdx.x;
            }
            """;

    /** Every block arrives, then waits for all the others: ends only if the whole grid is resident at once. */
    static final String GRID_MEET = """
            extern "C" __global__ void grid_meet(unsigned *arrived, unsigned *met) {
              if (threadIdx.x == 0) {
                atomicAdd(arrived, 1u);
                while (*(volatile unsigned *)arrived < gridDim.x) {
                }
                atomicAdd(met, 1u);
              }
            }
            """;

    /**
     * A chained launch. chain_first lets chained kernels start, waits 2 ms, then writes 7 into
     * out[0]; chain_second, launched chained behind it, copies out[0] into out[2] before waiting for
     * chain_first (0 if it started early) and into out[1] after (7: the wait held).
     */
    static final String CHAIN = """
            __device__ void chain_trigger() {
            #if __CUDA_ARCH__ >= 900
              asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
            #endif
            }
            __device__ void chain_wait() {
            #if __CUDA_ARCH__ >= 900
              asm volatile("griddepcontrol.wait;" ::: "memory");
            #endif
            }
            extern "C" __global__ void chain_first(int *out) {
              chain_trigger();
              unsigned long long t0, t;
              asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
              do {
                asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
              } while (t - t0 < 2000000ull);
              *(volatile int *)&out[0] = 7;
            }
            extern "C" __global__ void chain_second(int *out) {
              out[2] = *(volatile int *)&out[0];
              chain_wait();
              out[1] = *(volatile int *)&out[0];
            }
            """;

    static final int LANES = 32;
    /** Chained pairs run at most, until the second kernel of one starts before the first ends. */
    static final int CHAIN_TRIES = 5;

    interface Call {
        void run() throws Exception;
    }

    public static void main(String[] args) throws IOException {
        try (Shmem shmem = Shmem.init(); ShmemStream stream = shmem.createStream()) {
            int me = shmem.myPe();
            SymmetricSegment out = shmem.calloc(64, Integer.BYTES);
            LaunchConfig warp = LaunchConfig.of(1, LANES, stream);

            // a compile error: CompileException with the compiler's log
            try {
                DeviceModule.compile(shmem, BROKEN, "broken.cu").close();
                report(me, "compileError", "no exception");
            } catch (CompileException e) {
                report(me, "compileError", "CompileException | " + oneLine(e.getMessage()));
                report(me, "compileError.log", oneLine(e.log()));
            }

            // compiled and loaded at once
            try (DeviceModule m = DeviceModule.compile(shmem, GOOD, "good.cu")) {
                report(me, "compiled.bindsState", m.bindsState());
                report(me, "compiled.counterBytes", m.global("counter").byteSize());
                report(me, "compiled.noSuchGlobal", m.global("no_such_symbol").equals(MemorySegment.NULL));
                report(me, "compiled.out", run(shmem, m, "write_pe", warp, out, 100));
                attempt(me, "badLaunch", () -> {
                    m.kernel("write_pe").launch(LaunchConfig.of(1, 2048, stream), out, 0);
                    stream.synchronize();
                });
                report(me, "afterBadLaunch.out", run(shmem, m, "write_pe", warp, out, 200));
                attempt(me, "unknownKernel", () -> m.kernel("no_such_kernel"));
                attempt(me, "badArgument", () -> m.kernel("write_pe").launch(warp, out, "text"));
                attempt(me, "nullArgument", () -> m.kernel("write_pe").launch(warp, out, null));
                report(me, "afterBadArguments.out", run(shmem, m, "write_pe", warp, out, 250));
            }

            // the image of run-time compilation, loaded from bytes and from a file
            byte[] image = DeviceModule.compileImage(shmem, GOOD, "good.cu");
            report(me, "image.elf", image.length > 4 && image[0] == 0x7f && image[1] == 'E' && image[2] == 'L'
                    && image[3] == 'F');
            try (DeviceModule m = DeviceModule.load(shmem, image, "good.cubin")) {
                report(me, "fromBytes.bindsState", m.bindsState());
                report(me, "fromBytes.out", run(shmem, m, "write_pe", warp, out, 300));
            }
            Path dir = Files.createTempDirectory("jshmem-module-test-");
            Path file = dir.resolve("good.cubin");
            try {
                Files.write(file, image);
                try (DeviceModule m = DeviceModule.load(shmem, file)) {
                    report(me, "fromFile.bindsState", m.bindsState());
                    report(me, "fromFile.out", run(shmem, m, "write_pe", warp, out, 400));
                }
            } finally {
                Files.deleteIfExists(file);
                Files.deleteIfExists(dir);
            }

            // a module without jshmem
            try (DeviceModule m = DeviceModule.compile(shmem, PLAIN, "plain.cu")) {
                report(me, "plain.bindsState", m.bindsState());
                report(me, "plain.out", run(shmem, m, "plain", warp, out, 500));
            }

            // a collective (cooperative) launch of the largest co-resident grid, and one block too many
            try (DeviceModule m = DeviceModule.compile(shmem, GRID_MEET, "grid_meet.cu")) {
                Kernel meet = m.kernel("grid_meet");
                int max = meet.maxCoResidentBlocks(128, 0);
                shmem.put(out, 0, new int[64], 0, 64, me);
                shmem.quiet();
                meet.launchCollective(LaunchConfig.of(max, 128, stream), Kernel.pointer(out, 0), Kernel.pointer(out, 4));
                stream.synchronize();
                int[] v = new int[2];
                shmem.get(v, 0, 2, out, 0, me);
                report(me, "coop.max", max);
                report(me, "coop.met", v[0] + "," + v[1]);
                attempt(me, "coop.tooBig", () -> meet.launchCollective(LaunchConfig.of(max + 1, 128, stream),
                        Kernel.pointer(out, 0), Kernel.pointer(out, 4)));
            }

            // a chained launch: the second kernel may start while the first runs (compute capability 9.0 and up)
            // and waits for it before its second read. An early start is the device's choice (another
            // process's kernels may hold the SMs), so up to CHAIN_TRIES pairs run until one starts early
            try (DeviceModule m = DeviceModule.compile(shmem, CHAIN, "chain.cu")) {
                List<String> tries = new ArrayList<>();
                for (int i = 0; i < CHAIN_TRIES && !tries.contains("7,7,0"); i++) {
                    shmem.put(out, 0, new int[64], 0, 64, me);
                    shmem.quiet();
                    m.kernel("chain_first").launch(LaunchConfig.of(1, 32, stream), out);
                    m.kernel("chain_second").launchChained(LaunchConfig.of(1, 32, stream), out);
                    stream.synchronize();
                    int[] v = new int[3];
                    shmem.get(v, 0, v.length, out, 0, me);
                    tries.add(join(v));
                }
                report(me, "chained.out", String.join(";", tries));
                report(me, "chained.ccMajor", shmem.unwrap(GpuBackend.class).deviceInfo().ccMajor());
            }

            // use after close
            DeviceModule m = DeviceModule.compile(shmem, GOOD, "good.cu");
            Kernel k = m.kernel("write_pe");
            m.close();
            report(me, "closed.toString", m.toString());
            attempt(me, "closed.kernel", () -> m.kernel("write_pe"));
            attempt(me, "closed.launch", () -> k.launch(warp, out, 1));
            attempt(me, "closed.global", () -> m.global("counter"));
            attempt(me, "closed.closeAgain", m::close);
            report(me, "done", true);
        }
    }

    /** Zeroes out, launches {@code kernel(out, value)} with 32 threads, returns out[0..32]. */
    private static String run(Shmem shmem, DeviceModule m, String kernel, LaunchConfig cfg, SymmetricSegment out,
                              int value) {
        int me = shmem.myPe();
        shmem.put(out, 0, new int[64], 0, 64, me);
        shmem.quiet();
        m.kernel(kernel).launch(cfg, out, value);
        cfg.stream().synchronize();
        int[] v = new int[LANES + 1];
        shmem.get(v, 0, v.length, out, 0, me);
        return join(v);
    }

    private static void attempt(int me, String name, Call call) {
        try {
            call.run();
            report(me, name, "no exception");
        } catch (Exception e) {
            report(me, name, e.getClass().getSimpleName() + " | " + oneLine(e.getMessage()));
        }
    }

    private static String oneLine(String s) {
        return s == null ? "null" : s.strip().replace("\r", "").replace("\n", " \\n ");
    }
}
