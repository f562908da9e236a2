package org.jshmem.examples;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.Shmem;
import org.jshmem.ShmemStream;
import org.jshmem.SymmetricSegment;
import org.jshmem.device.DeviceInfo;
import org.jshmem.device.DeviceModule;
import org.jshmem.device.Kernel;
import org.jshmem.device.LaunchConfig;

/**
 * A kernel of your own that talks to other PEs from the GPU.
 *
 * <p>The kernel ({@code kernels/ring_put.cu}, a resource of this jar) includes
 * {@code <jshmem/jshmem.h>}: it fills a buffer, sends it to the right neighbour's GPU with
 * {@code jshmem_int_put_signal_block}, and waits for its left neighbour's data with
 * {@code jshmem_signal_wait_until}. {@link DeviceModule#compile} compiles it at run time (NVRTC on
 * CUDA, hiprtc on HIP) with jshmem's device headers on the include path and binds it to this PE's
 * heap; the kernel is launched on a {@link ShmemStream}, and the host checks what arrived.
 *
 * <p>Needs a GPU heap, one GPU per PE:
 * <pre>JSHMEM_BACKEND=cuda bin/jshmemrun -np 2 -cp tests/examples/target/jshmem-examples-0.1.0-SNAPSHOT.jar org.jshmem.examples.UserKernel</pre>
 */
public final class UserKernel {
    private static final int COUNT = 64 * 1024;   // ints sent by each PE

    public static void main(String[] args) throws IOException {
        String source;
        try (InputStream in = UserKernel.class.getResourceAsStream("/kernels/ring_put.cu")) {
            source = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        boolean ok = false;
        try (Shmem shmem = Shmem.init()) {
            if (DeviceInfo.find(shmem).isPresent()) {
                ok = run(shmem, source);
            } else if (shmem.myPe() == 0) {
                System.err.println("UserKernel needs the symmetric heap on a GPU: run it with JSHMEM_BACKEND=cuda"
                        + " (or hip); this job runs on " + shmem.describe());
            }
        }
        if (!ok) {
            System.exit(1);
        }
    }

    /** Launches the kernel on every PE and checks what arrived; returns whether every PE got it right. */
    private static boolean run(Shmem shmem, String source) {
        int me = shmem.myPe();
        int n = shmem.nPes();

        // device-side symmetric buffers: the kernel gets their device addresses
        SymmetricSegment dst = shmem.calloc(COUNT, Integer.BYTES);
        SymmetricSegment src = shmem.malloc((long) COUNT * Integer.BYTES);
        SymmetricSegment arrived = shmem.calloc(1, Long.BYTES);

        try (ShmemStream stream = shmem.createStream();
             DeviceModule module = DeviceModule.compile(shmem, source, "ring_put.cu")) {
            Kernel ringPut = module.kernel("ring_put");
            // Java argument types fix the C types: a SymmetricSegment is a pointer, long is
            // size_t / uint64_t. One block: the kernel waits for another PE's kernel, which
            // its own GPU runs at the same time.
            ringPut.launch(LaunchConfig.of(1, 256, stream), dst, src, (long) COUNT, arrived, 1L);
            stream.synchronize();   // the kernel has finished: the left neighbour's data is here
        }

        int left = Math.floorMod(me - 1, n);
        int[] got = new int[COUNT];
        shmem.get(got, 0, COUNT, dst, 0, me);   // device to host
        boolean mine = true;
        for (int i = 0; i < COUNT; i++) {
            mine &= got[i] == left * 1_000_000 + i;
        }
        System.out.print(String.format("PE %d of %d on %s: %d ints from PE %d, sent by its kernel: %s%n", me, n,
                DeviceInfo.of(shmem).name(), COUNT, left, mine ? "OK" : "WRONG"));
        System.out.flush();

        SymmetricSegment verdict = shmem.malloc(Integer.BYTES);
        SymmetricSegment all = shmem.malloc(Integer.BYTES);
        shmem.pInt(verdict, 0, mine ? 1 : 0, me);
        shmem.teamWorld().reduce(ReduceOp.MIN, DType.INT, all, verdict, 1);
        boolean ok = shmem.gInt(all, 0, me) == 1;
        shmem.barrierAll();
        if (me == 0) {
            System.out.print(String.format("user kernel: %d PEs: %s%n", n, ok ? "every PE OK" : "FAILED"));
        }
        return ok;
    }
}
