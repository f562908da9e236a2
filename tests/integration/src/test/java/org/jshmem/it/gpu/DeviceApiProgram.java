package org.jshmem.it.gpu;

import static org.jshmem.it.PeProgram.report;
import static org.jshmem.it.gpu.DeviceApiExpected.join;
import static org.jshmem.it.gpu.DeviceApiExpected.nonZero;
import static org.jshmem.it.gpu.DeviceApiExpected.summary;

import org.jshmem.Shmem;
import org.jshmem.ShmemStream;
import org.jshmem.SymmetricSegment;
import org.jshmem.device.DeviceModule;
import org.jshmem.device.LaunchConfig;
import org.jshmem.gpu.GpuBackend;
import org.jshmem.it.gpu.DeviceApiExpected.AmoType;
import org.jshmem.it.gpu.DeviceApiExpected.BarrierRun;
import org.jshmem.it.gpu.DeviceApiExpected.ByteRun;
import org.jshmem.it.gpu.DeviceApiExpected.RmaType;
import org.jshmem.it.gpu.DeviceApiExpected.Team;

/**
 * Runs on every PE of a GPU job: compiles {@code kernels/device_api_test.cu} once, then launches
 * every kernel of it (every type, the documented sizes, full and partial last warp) as its
 * documentation says: zeroed symmetric buffers (calloc), host barrier, launch on a stream,
 * synchronize, host barrier, read back. Reports each buffer: small ones whole, large ones as
 * {@link DeviceApiExpected#summary} (CRC-32, mismatching bytes, first mismatch); the test
 * computes what each must be. Before each launch it reports {@code at <run>}, so that a job that
 * hangs in a kernel shows which one.
 */
public final class DeviceApiProgram {
    private final Shmem shmem;
    private final DeviceModule module;
    private final ShmemStream stream;
    private final int me;
    private final int n;

    private DeviceApiProgram(Shmem shmem, DeviceModule module, ShmemStream stream) {
        this.shmem = shmem;
        this.module = module;
        this.stream = stream;
        this.me = shmem.myPe();
        this.n = shmem.nPes();
    }

    public static void main(String[] args) {
        String source = DeviceApiKernels.source();
        try (Shmem shmem = Shmem.init(); ShmemStream stream = shmem.createStream()) {
            int me = shmem.myPe();
            report(me, "debug", shmem.config().debug() ? 1 : 0);
            report(me, "at", "compile");
            long t0 = System.nanoTime();
            try (DeviceModule module = DeviceModule.compileCached(shmem, source, DeviceApiKernels.FILE)) {
                report(me, "compileMillis", (System.nanoTime() - t0) / 1_000_000);
                report(me, "bindsState", module.bindsState());
                long t1 = System.nanoTime();
                new DeviceApiProgram(shmem, module, stream).runAll();
                report(me, "runMillis", (System.nanoTime() - t1) / 1_000_000);
            }
            report(me, "done", true);
        }
    }

    private void runAll() {
        query();
        teams();
        for (ByteRun r : DeviceApiExpected.byteRuns()) {
            putmem(r);
        }
        for (ByteRun r : DeviceApiExpected.byteRuns()) {
            getmem(r);
        }
        for (RmaType t : RmaType.values()) {
            for (int threads : DeviceApiExpected.THREADS) {
                for (int nelems : DeviceApiExpected.RMA_NELEMS) {
                    rma(t, threads, nelems);
                }
            }
        }
        for (AmoType t : AmoType.values()) {
            amo(t);
        }
        contention();
        for (int threads : DeviceApiExpected.THREADS) {
            for (long nbytes : DeviceApiExpected.SIGNAL_NBYTES) {
                signal(threads, nbytes);
            }
        }
        for (AmoType t : AmoType.values()) {
            await(t);
        }
        for (BarrierRun r : DeviceApiExpected.BARRIER_RUNS) {
            barrier(r);
        }
        additions();
        validTrapCall();
    }

    // ---------------------------------------------------------------- the kernels

    private void query() {
        SymmetricSegment out = shmem.calloc(16, Integer.BYTES);
        launch("test_query", 1, 1, "query", true, out);
        report(me, "query", join(ints(out)));
        shmem.free(out);
    }

    private void teams() {
        GpuBackend gpu = shmem.unwrap(GpuBackend.class);
        for (Team t : DeviceApiExpected.teamsToSet(me, n)) {
            gpu.setTeam(t.slot(), t.start(), t.stride(), t.size());
        }
        shmem.barrierAll();
        for (Team t : DeviceApiExpected.teams(me, n)) {
            SymmetricSegment out = shmem.calloc(8, Integer.BYTES);
            launch("test_team", 1, 1, "team." + t.slot(), true, t.slot(), out);
            report(me, "team." + t.slot(), join(ints(out)));
            shmem.free(out);
        }
    }

    private void putmem(ByteRun r) {
        long bytes = 6 * DeviceApiExpected.sectionStride(r.nbytes());
        SymmetricSegment dst = shmem.calloc(bytes, 1);
        SymmetricSegment src = shmem.calloc(bytes, 1);
        String key = "putmem." + r.key();
        launch("test_putmem", 1, r.threads(), key, true, dst, src, r.nbytes(), r.dstOff(), r.srcOff());
        report(me, key, summary(bytes(dst), DeviceApiExpected.putmemDst(r, me, n)));
        shmem.free(src);
        shmem.free(dst);
    }

    private void getmem(ByteRun r) {
        long bytes = 6 * DeviceApiExpected.sectionStride(r.nbytes());
        SymmetricSegment dst = shmem.calloc(bytes, 1);
        SymmetricSegment src = shmem.calloc(bytes, 1);
        SymmetricSegment errors = shmem.calloc(8, Integer.BYTES);
        String key = "getmem." + r.key();
        launch("test_getmem", 1, r.threads(), key, true, dst, src, r.nbytes(), r.dstOff(), r.srcOff(), errors);
        report(me, key + ".dst", summary(bytes(dst), DeviceApiExpected.getmemDst(r, me, n)));
        report(me, key + ".errors", join(ints(errors)));
        shmem.free(errors);
        shmem.free(src);
        shmem.free(dst);
    }

    private void rma(RmaType t, int threads, int nelems) {
        SymmetricSegment dst = shmem.calloc(20L * nelems, t.size);
        SymmetricSegment src = shmem.calloc(nelems, t.size);
        SymmetricSegment sig = shmem.calloc(1, Long.BYTES);
        SymmetricSegment errors = shmem.calloc(1, Integer.BYTES);
        String key = "rma." + t.cname + ".t" + threads + ".n" + nelems;
        launch(t.kernel(), 1, threads, key, true, dst, src, (long) nelems, sig, errors);
        report(me, key + ".dst", summary(bytes(dst), DeviceApiExpected.rmaDst(t, nelems, me, n)));
        report(me, key + ".sig", join(longs(sig)));
        report(me, key + ".errors", join(ints(errors)));
        shmem.free(errors);
        shmem.free(sig);
        shmem.free(src);
        shmem.free(dst);
    }

    private void amo(AmoType t) {
        SymmetricSegment cells = shmem.calloc(16L * n, t.size);
        SymmetricSegment out = shmem.calloc(32, t.size);
        String key = "amo." + t.cname;
        launch("test_amo_" + t.cname, 1, 1, key, true, cells, out);
        report(me, key + ".out", t.format(bytes(out)));
        report(me, key + ".cells", t.format(bytes(cells)));
        shmem.free(out);
        shmem.free(cells);
    }

    private void contention() {
        SymmetricSegment counter = shmem.calloc(1, Long.BYTES);
        SymmetricSegment icounter = shmem.calloc(1, Integer.BYTES);
        SymmetricSegment fetchedSum = shmem.calloc(1, Long.BYTES);
        fcollectSignal();
        launch("test_amo_contention", DeviceApiExpected.CONTENTION_BLOCKS, DeviceApiExpected.CONTENTION_THREADS,
                "contention", true, counter, icounter, fetchedSum, DeviceApiExpected.CONTENTION_ITERS);
        report(me, "contention.counter", Long.toUnsignedString(longs(counter)[0]));
        report(me, "contention.icounter", ints(icounter)[0]);
        report(me, "contention.fetchedSum", Long.toUnsignedString(longs(fetchedSum)[0]));
        shmem.free(fetchedSum);
        shmem.free(icounter);
        shmem.free(counter);
    }

    private void signal(int threads, long nbytes) {
        long bytes = 9 * DeviceApiExpected.sectionStride(nbytes);
        SymmetricSegment dst = shmem.calloc(bytes, 1);
        SymmetricSegment src = shmem.calloc(bytes, 1);
        SymmetricSegment sig = shmem.calloc(16 * 16, Long.BYTES);
        SymmetricSegment flag = shmem.calloc(2, Integer.BYTES);
        SymmetricSegment errors = shmem.calloc(16, Integer.BYTES);
        SymmetricSegment seen = shmem.calloc(16, Long.BYTES);
        String key = "signal.t" + threads + ".n" + nbytes;
        launch("test_signal", 1, threads, key, true, dst, src, nbytes, sig, flag, errors, seen);
        report(me, key + ".dst", summary(bytes(dst), DeviceApiExpected.signalDst(nbytes, me, n)));
        report(me, key + ".sig", nonZero(longs(sig)));
        report(me, key + ".flag", join(ints(flag)));
        report(me, key + ".errors", join(ints(errors)));
        report(me, key + ".seen", join(longs(seen)));
        for (SymmetricSegment s : new SymmetricSegment[] {seen, errors, flag, sig, src, dst}) {
            shmem.free(s);
        }
    }

    /** The device push all-gather with a signal per block: 64 KiB + 24 bytes from every PE. */
    private void fcollectSignal() {
        long nbytes = DeviceApiExpected.FCOLLECT_SIGNAL_NBYTES;
        SymmetricSegment dest = shmem.calloc(nbytes * n, 1);
        SymmetricSegment src = shmem.calloc(nbytes, 1);
        SymmetricSegment sig = shmem.calloc(n, Long.BYTES);
        SymmetricSegment errors = shmem.calloc(1, Integer.BYTES);
        launch("test_fcollect_signal", 1, 256, "fcollectSignal", true, dest, src, nbytes, sig,
                DeviceApiExpected.FCOLLECT_SIGNAL_VALUE, errors);
        report(me, "fcollectSignal.errors", ints(errors)[0]);
        report(me, "fcollectSignal.sig", join(longs(sig)));
        for (SymmetricSegment s : new SymmetricSegment[] {errors, sig, src, dest}) {
            shmem.free(s);
        }
    }

    private void await(AmoType t) {
        SymmetricSegment ivar = shmem.calloc(4, t.size);
        SymmetricSegment out = shmem.calloc(16, Integer.BYTES);
        String key = "wait." + t.cname;
        launch("test_wait_" + t.cname, 1, 1, key, true, ivar, out);
        report(me, key + ".out", join(ints(out)));
        report(me, key + ".ivar", t.format(bytes(ivar)));
        shmem.free(out);
        shmem.free(ivar);
    }

    private void barrier(BarrierRun r) {
        Team team = DeviceApiExpected.team(r.slot(), me, n);
        boolean member = DeviceApiExpected.teamIndex(team, me) >= 0;
        SymmetricSegment slots = shmem.calloc(64, Integer.BYTES);
        SymmetricSegment errors = shmem.calloc(4, Integer.BYTES);
        // only members launch (one block per member PE); the others take part in the host barriers
        launch("test_barrier", 1, r.threads(), r.key(), member, slots, r.rounds(), r.slot(), errors);
        report(me, r.key() + ".slots", member ? nonZero(ints(slots)) : "not a member");
        report(me, r.key() + ".errors", member ? join(ints(errors)) : "not a member");
        shmem.free(errors);
        shmem.free(slots);
    }

    /** test_debug_trap's valid case: no trap in either mode, sym[0] == 1. */
    private void additions() {
        SymmetricSegment dst = shmem.calloc(48, Long.BYTES);
        SymmetricSegment src = shmem.calloc(24, Long.BYTES);
        SymmetricSegment sig = shmem.calloc(16, Long.BYTES);
        SymmetricSegment out = shmem.calloc(4, Long.BYTES);
        launch("test_additions", 1, 1, "additions", true, dst, src, sig, out);
        report(me, "additions.dst", join(longs(dst)));
        report(me, "additions.sig", join(longs(sig)));
        report(me, "additions.out", join(longs(out)));
        for (SymmetricSegment s : new SymmetricSegment[] {out, sig, src, dst}) {
            shmem.free(s);
        }
    }

    private void validTrapCall() {
        SymmetricSegment sym = shmem.calloc(4, Integer.BYTES);
        launch("test_debug_trap", 1, 1, "trap.valid", true, sym, DeviceApiExpected.TRAP_VALID);
        report(me, "trap.valid", join(ints(sym)));
        shmem.free(sym);
    }

    // ---------------------------------------------------------------- helpers

    /**
     * The protocol of the file: buffers zero on every PE (calloc did it), host barrier, launch
     * (if {@code run}), synchronize, host barrier: every PE's kernel is done before anyone reads.
     */
    private void launch(String kernel, int blocks, int threads, String at, boolean run, Object... args) {
        report(me, "at", at);
        shmem.barrierAll();
        if (run) {
            module.kernel(kernel).launch(LaunchConfig.of(blocks, threads, stream), args);
            stream.synchronize();
        }
        shmem.barrierAll();
    }

    private byte[] bytes(SymmetricSegment s) {
        return HeapReads.bytes(shmem, s);
    }

    private int[] ints(SymmetricSegment s) {
        return HeapReads.ints(shmem, s);
    }

    private long[] longs(SymmetricSegment s) {
        return HeapReads.longs(shmem, s);
    }
}
