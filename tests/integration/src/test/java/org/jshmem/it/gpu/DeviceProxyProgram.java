package org.jshmem.it.gpu;

import static org.jshmem.it.PeProgram.report;
import static org.jshmem.it.gpu.DeviceApiExpected.join;
import static org.jshmem.it.gpu.HeapReads.bytes;
import static org.jshmem.it.gpu.HeapReads.ints;
import static org.jshmem.it.gpu.HeapReads.longs;

import org.jshmem.Shmem;
import org.jshmem.ShmemStream;
import org.jshmem.SymmetricSegment;
import org.jshmem.device.DeviceModule;
import org.jshmem.device.LaunchConfig;

/**
 * Runs on every PE of a GPU job whose PEs span "nodes": the kernels of
 * {@code kernels/device_proxy_test.cu}, each aimed at {@code peer}, a PE of the other node
 * ((me + n/2) mod n), which reaches it through the device proxy. Reports what each left, for
 * {@link DeviceProxyTest}; the byte checks are done here against the file's pattern and reported
 * as mismatch counts.
 */
public final class DeviceProxyProgram {
    static final String RESOURCE = "/kernels/device_proxy_test.cu";
    /**
     * Byte counts of proxy_put / proxy_get / proxy_signal: below, at and above one proxy request's payload (64 KiB),
     * and above the ring's 32 requests (its slots come round within one call).
     */
    static final long[] SIZES = {1, 13, 4099, 65536 + 77, 200003, 33 * 65536 + 5};
    static final int CONTENTION_BLOCKS = 2;
    static final int CONTENTION_THREADS = 64;
    static final int CONTENTION_ITERS = 4;
    static final int BARRIER_ROUNDS = 50;

    private final Shmem shmem;
    private final DeviceModule module;
    private final ShmemStream stream;
    private final int me;
    private final int peer;

    private DeviceProxyProgram(Shmem shmem, DeviceModule module, ShmemStream stream) {
        this.shmem = shmem;
        this.module = module;
        this.stream = stream;
        this.me = shmem.myPe();
        this.peer = (me + shmem.nPes() / 2) % shmem.nPes();   // its own inverse (even n): also the PE that writes here
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init(); ShmemStream stream = shmem.createStream();
             DeviceModule module = DeviceModule.compileCached(shmem, DeviceApiKernels.resource(RESOURCE), "device_proxy_test.cu")) {
            new DeviceProxyProgram(shmem, module, stream).runAll();
            report(shmem.myPe(), "done", true);
        }
    }

    private void runAll() {
        report(me, "peer", peer);
        SymmetricSegment ptrOut = shmem.calloc(2, Integer.BYTES);
        launch("proxy_ptr", 1, 1, ptrOut, ptrOut, peer);
        int[] nulls = ints(shmem, ptrOut);
        report(me, "ptr.peerNull", nulls[0]);
        report(me, "ptr.selfNull", nulls[1]);
        shmem.free(ptrOut);
        for (long n : SIZES) {
            putAndGet(n);
            signal(n);
        }
        amo();
        contention();
        barrier();
    }

    private void putAndGet(long n) {
        long stride = n + 16;
        SymmetricSegment src = shmem.calloc(n + 8, 1);
        SymmetricSegment dst = shmem.calloc(3 * stride, 1);
        launch("proxy_fill", 1, 256, src, n + 8);
        launch("proxy_put", 1, 128, dst, src, n, stride, peer);
        report(me, "put." + n + ".mismatches", mismatches(bytes(shmem, dst), stride, n, peer));
        shmem.free(dst);
        dst = shmem.calloc(3 * stride, 1);
        launch("proxy_get", 1, 128, dst, src, n, stride, peer);
        report(me, "get." + n + ".mismatches", mismatches(bytes(shmem, dst), stride, n, peer));
        shmem.free(dst);
        shmem.free(src);
    }

    /** Bytes of the three sections that differ from pattern(from, 5 + i) at 3 + i, plus nonzero bytes around them. */
    private static long mismatches(byte[] dst, long stride, long n, int from) {
        long bad = 0;
        for (int k = 0; k < 3; k++) {
            for (long j = 0; j < stride; j++) {
                long i = j - 3;
                int want = i >= 0 && i < n ? pattern(from, 5 + i) : 0;
                bad += (dst[(int) (k * stride + j)] & 0xff) != want ? 1 : 0;
            }
        }
        return bad;
    }

    static int pattern(int pe, long i) {
        return (int) ((pe * 31 + i * 7 + 1) & 0xff);
    }

    private void signal(long n) {
        SymmetricSegment src = shmem.calloc(n, 1);
        SymmetricSegment dst = shmem.calloc(n, 1);
        SymmetricSegment sig = shmem.calloc(2, Long.BYTES);
        SymmetricSegment errors = shmem.calloc(1, Integer.BYTES);
        SymmetricSegment seen = shmem.calloc(2, Long.BYTES);
        launch("proxy_fill", 1, 256, src, n);
        launch("proxy_signal", 1, 256, dst, src, n, sig, errors, seen, peer, peer);
        report(me, "signal." + n + ".errors", ints(shmem, errors)[0]);
        long[] s = longs(shmem, seen);
        report(me, "signal." + n + ".seen", s[0] + "," + s[1]);
        for (SymmetricSegment seg : new SymmetricSegment[] {seen, errors, sig, dst, src}) {
            shmem.free(seg);
        }
    }

    private void amo() {
        SymmetricSegment c = shmem.calloc(5, Long.BYTES);
        SymmetricSegment ic = shmem.calloc(2, Integer.BYTES);
        SymmetricSegment d = shmem.calloc(1, Double.BYTES);
        SymmetricSegment ch = shmem.calloc(8, 1);
        SymmetricSegment out = shmem.calloc(15, Long.BYTES);
        launch("proxy_amo", 1, 32, c, ic, d, ch, out, peer);
        report(me, "amo.out", join(longs(shmem, out)));
        report(me, "amo.cells", join(longs(shmem, c)));
        report(me, "amo.icells", join(ints(shmem, ic)));
        report(me, "amo.double", longs(shmem, d)[0]);
        report(me, "amo.char", bytes(shmem, ch)[0]);
        for (SymmetricSegment seg : new SymmetricSegment[] {out, ch, d, ic, c}) {
            shmem.free(seg);
        }
    }

    private void contention() {
        SymmetricSegment counter = shmem.calloc(1, Long.BYTES);
        launch("proxy_contention", CONTENTION_BLOCKS, CONTENTION_THREADS, counter, CONTENTION_ITERS, peer);
        report(me, "contention.counter", longs(shmem, counter)[0]);
        shmem.free(counter);
    }

    private void barrier() {
        SymmetricSegment counter = shmem.calloc(1, Integer.BYTES);
        SymmetricSegment errors = shmem.calloc(1, Integer.BYTES);
        launch("proxy_barrier", 1, 64, counter, BARRIER_ROUNDS, errors);
        report(me, "barrier.errors", ints(shmem, errors)[0]);
        report(me, "barrier.counter", ints(shmem, counter)[0]);
        shmem.free(errors);
        shmem.free(counter);
    }

    // ---------------------------------------------------------------- helpers

    /** Host barrier, launch on the stream, synchronize, host barrier: every PE's kernel is done before anyone reads. */
    private void launch(String kernel, int blocks, int threads, Object... args) {
        report(me, "at", kernel);
        shmem.barrierAll();
        module.kernel(kernel).launch(LaunchConfig.of(blocks, threads, stream), args);
        stream.synchronize();
        shmem.barrierAll();
    }
}
