package org.jshmem.it.gpu;

import static org.jshmem.it.gpu.DeviceApiExpected.join;
import static org.jshmem.it.gpu.DeviceApiExpected.nonZero;
import static org.jshmem.it.gpu.DeviceApiExpected.summary;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jshmem.it.JobResult;
import org.jshmem.it.MpiJob;
import org.jshmem.it.gpu.DeviceApiExpected.AmoType;
import org.jshmem.it.gpu.DeviceApiExpected.BarrierRun;
import org.jshmem.it.gpu.DeviceApiExpected.ByteRun;
import org.jshmem.it.gpu.DeviceApiExpected.RmaType;
import org.jshmem.it.gpu.DeviceApiExpected.Team;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every kernel of {@code kernels/device_api_test.cu} on a 2-PE GPU job ({@link DeviceApiProgram}),
 * with debug checks off and on (they must not change a result), each PE's every buffer against
 * what the kernel's documentation says it must hold; and each invalid call of test_debug_trap in
 * its own job ({@link DebugTrapProgram}) with {@code JSHMEM_DEBUG=1}: it must print its line and
 * fail the launching PE with a GpuException. Tag "gpu": run on the GPU machine.
 */
@Tag("gpu")
class DeviceApiTest {
    static final int NP = 2;

    @ParameterizedTest(name = "JSHMEM_DEBUG={0}")
    @ValueSource(ints = {0, 1})
    void everyKernelLeavesTheDocumentedResults(int debug) {
        JobResult r = MpiJob.of(NP, DeviceApiProgram.class).env("JSHMEM_BACKEND", "cuda")
                .env("JSHMEM_DEBUG", Integer.toString(debug)).env("JSHMEM_SYMMETRIC_SIZE", "256M")
                .timeout(Duration.ofSeconds(300)).run();
        assertTrue(r.succeeded(), r::toString);
        List<Executable> checks = new ArrayList<>();
        Map<String, String> cache = new HashMap<>();
        for (int pe = 0; pe < NP; pe++) {
            int me = pe;
            int n = NP;
            Map<String, String> reports = r.reports(pe);
            expect(checks, reports, me, "debug", Integer.toString(debug));
            expect(checks, reports, me, "bindsState", "true");
            expect(checks, reports, me, "done", "true");
            expect(checks, reports, me, "query", join(DeviceApiExpected.queryOut(me, n)));
            for (Team t : DeviceApiExpected.teams(me, n)) {
                expect(checks, reports, me, "team." + t.slot(), join(DeviceApiExpected.teamOut(t, me)));
            }
            for (ByteRun b : DeviceApiExpected.byteRuns()) {
                expect(checks, reports, me, "putmem." + b.key(), cached(cache, "putmem." + b.key() + "@" + me,
                        () -> good(DeviceApiExpected.putmemDst(b, me, n))));
                expect(checks, reports, me, "getmem." + b.key() + ".dst", cached(cache, "getmem." + b.key() + "@" + me,
                        () -> good(DeviceApiExpected.getmemDst(b, me, n))));
                expect(checks, reports, me, "getmem." + b.key() + ".errors", join(new int[8]));
            }
            for (RmaType t : RmaType.values()) {
                for (int threads : DeviceApiExpected.THREADS) {
                    for (int nelems : DeviceApiExpected.RMA_NELEMS) {
                        String key = "rma." + t.cname + ".t" + threads + ".n" + nelems;
                        expect(checks, reports, me, key + ".dst", cached(cache, "rma." + t.cname + ".n" + nelems + "@" + me,
                                () -> good(DeviceApiExpected.rmaDst(t, nelems, me, n))));
                        expect(checks, reports, me, key + ".sig", "6");
                        expect(checks, reports, me, key + ".errors", "0");
                    }
                }
            }
            for (AmoType t : AmoType.values()) {
                expect(checks, reports, me, "amo." + t.cname + ".out", t.join(DeviceApiExpected.amoOut()));
                expect(checks, reports, me, "amo." + t.cname + ".cells", t.join(DeviceApiExpected.amoCells(me, n)));
            }
            long total = DeviceApiExpected.contentionTotal(n);
            expect(checks, reports, me, "contention.counter", Long.toString(me == 0 ? total : 0));
            expect(checks, reports, me, "contention.icounter", Long.toString(me == 0 ? total : 0));
            expect(checks, reports, me, "fcollectSignal.errors", "0");
            long[] signals = new long[n];
            java.util.Arrays.fill(signals, DeviceApiExpected.FCOLLECT_SIGNAL_VALUE);
            expect(checks, reports, me, "fcollectSignal.sig", DeviceApiExpected.join(signals));
            for (int threads : DeviceApiExpected.THREADS) {
                for (long nbytes : DeviceApiExpected.SIGNAL_NBYTES) {
                    String key = "signal.t" + threads + ".n" + nbytes;
                    expect(checks, reports, me, key + ".dst", cached(cache, "signal.n" + nbytes + "@" + me,
                            () -> good(DeviceApiExpected.signalDst(nbytes, me, n))));
                    expect(checks, reports, me, key + ".sig", nonZero(DeviceApiExpected.signalSig(me, n)));
                    expect(checks, reports, me, key + ".flag", "1,1");
                    expect(checks, reports, me, key + ".errors", join(new int[16]));
                    expect(checks, reports, me, key + ".seen", join(DeviceApiExpected.signalSeen(me, n)));
                }
            }
            for (AmoType t : AmoType.values()) {
                expect(checks, reports, me, "wait." + t.cname + ".out", join(DeviceApiExpected.waitOut(t)));
                expect(checks, reports, me, "wait." + t.cname + ".ivar", t.join(DeviceApiExpected.waitIvar()));
            }
            for (BarrierRun b : DeviceApiExpected.BARRIER_RUNS) {
                Team team = DeviceApiExpected.team(b.slot(), me, n);
                boolean member = DeviceApiExpected.teamIndex(team, me) >= 0;
                expect(checks, reports, me, b.key() + ".slots",
                        member ? nonZero(DeviceApiExpected.barrierSlots(team, b.rounds())) : "not a member");
                expect(checks, reports, me, b.key() + ".errors", member ? "0,0,0,0" : "not a member");
            }
            expect(checks, reports, me, "additions.dst", join(DeviceApiExpected.additionsDst(me, n)));
            expect(checks, reports, me, "additions.sig", join(DeviceApiExpected.additionsSig()));
            expect(checks, reports, me, "additions.out", "11,77,0,0");
            expect(checks, reports, me, "trap.valid", "1,0,0,0");
        }
        // every ticket 0 .. N-1 of the contended counter was handed out once
        long total = DeviceApiExpected.contentionTotal(NP);
        checks.add(() -> {
            long sum = 0;
            for (int pe = 0; pe < NP; pe++) {
                sum += Long.parseUnsignedLong(r.value(pe, "contention.fetchedSum"));
            }
            assertEquals(total * (total - 1) / 2, sum, "sum of fetched_sum over the PEs");
        });
        assertAll(checks);
    }

    /** Tagged so that a one-GPU run can keep these out of MPS (scripts/device/one-gpu.sh says why). */
    @Tag("debug-trap")
    @ParameterizedTest(name = "case {0}")
    @ValueSource(ints = {0, 1, 2, 3, 4, 5, 6})
    void debugModeTrapsAnInvalidCall(int which) {
        JobResult r = MpiJob.of(NP, DebugTrapProgram.class).args(Integer.toString(which))
                .env("JSHMEM_BACKEND", "cuda").env("JSHMEM_DEBUG", "1").timeout(Duration.ofSeconds(120)).run();
        assertFalse(r.timedOut(), r::toString);
        List<Executable> checks = new ArrayList<>();
        for (int pe = 0; pe < NP; pe++) {
            int me = pe;
            // the PE's own stdout (mpirun's per-rank file: whole lines), else the job's combined
            // output (stdout and stderr, where mpirun may split lines)
            String own = me < r.peOutput().size() ? r.peOutput().get(me) : "";
            checks.add(() -> assertEquals("1", r.value(me, "debug")));
            String prefix = DeviceApiExpected.trapPrefix(which, me, NP);
            checks.add(() -> assertTrue(own.contains(prefix) || r.output().contains(prefix),
                    "PE " + me + " printed no line starting with \"" + prefix + "\". " + r));
            checks.add(() -> {
                String line = DeviceApiExpected.trapLine(which, me, NP, r.longValue(me, "symOffset"),
                        r.longValue(me, "heapSize"));
                assertTrue(own.contains(line) || r.output().contains(line),
                        "PE " + me + " printed no line \"" + line + "\". " + r);
            });
            checks.add(() -> {
                String trap = r.value(me, "trap");
                assertTrue(trap.startsWith("GpuException | "), "PE " + me + ": " + trap);
                assertTrue(Set.of("launch", "synchronize").contains(r.value(me, "trapStage")), "PE " + me);
            });
        }
        assertAll(checks);
    }

    /** What {@link DeviceApiExpected#summary} reports for a correct buffer. */
    private static String good(byte[] expected) {
        return summary(expected, expected);
    }

    private static String cached(Map<String, String> cache, String key, Supplier<String> compute) {
        return cache.computeIfAbsent(key, k -> compute.get());
    }

    private static void expect(List<Executable> checks, Map<String, String> reports, int pe, String key,
                               String expected) {
        checks.add(() -> assertEquals(expected, reports.get(key), "PE " + pe + " " + key));
    }
    /**
     * With JSHMEM_WAIT_TIMEOUT=2 a wait inside a kernel that never ends (PE 1 skips its signal, or its
     * barrier) prints on every stuck PE, within the timeout and a second by the GPU's clock, what it waits
     * for and what it sees, then traps, and the host's call fails. The hosts wait up to a minute for each
     * other afterwards (where PEs share a GPU by turns, a host may learn of its trap seconds later).
     */
    @Tag("debug-trap")
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"signal", "barrier"})
    void aStuckWaitInAKernelIsNamedOnEveryStuckPe(String what) {
        int which = what.equals("signal") ? 0 : 1;
        JobResult r = MpiJob.of(NP, DebugTrapProgram.class).args(Integer.toString(which), "test_stuck_wait", "60000")
                .env("JSHMEM_BACKEND", "cuda").env("JSHMEM_WAIT_TIMEOUT", "2").timeout(Duration.ofSeconds(180)).run();
        assertFalse(r.timedOut(), r::toString);
        Pattern stuckLine = Pattern.compile("jshmem: PE (\\d+): (.*) \\(block 0, thread 0\\) made no progress for (\\d+) ms"
                + " \\(JSHMEM_WAIT_TIMEOUT 2000 ms\\): it waits (.*)");
        List<Executable> checks = new ArrayList<>();
        for (int pe = 0; pe < NP; pe++) {
            int me = pe;
            boolean stuck = which == 0 || me != 1;
            if (!stuck) {
                checks.add(() -> assertEquals("no exception", r.value(me, "trap"), "PE " + me + " skipped the barrier"));
                continue;
            }
            String call = which == 0 ? "jshmem_signal_wait_until" : "a barrier, sync or collective of team slot 0";
            String waits = which == 0 ? "until the word at heap offset " + r.longValue(me, "symOffset") + " ("
                    : "for PE 1 to reach generation ";
            String tail = which == 0 ? " is == " + NP + "; it is " + (NP - 1) : "; PE 1 has reached ";
            checks.add(() -> {
                Matcher m = r.output().lines().map(stuckLine::matcher).filter(x -> x.find() && x.group(1).equals("" + me))
                        .findFirst().orElseThrow(() -> new AssertionError("PE " + me + " printed no stuck-wait line. " + r));
                assertEquals(call, m.group(2), m.group());
                assertTrue(m.group(4).startsWith(waits) && m.group(4).contains(tail), m.group());
                long waited = Long.parseLong(m.group(3));
                assertTrue(waited >= 2000 && waited <= 3000, "PE " + me + " printed after " + waited + " ms: " + m.group());
            });
            checks.add(() -> assertTrue(r.value(me, "trap").startsWith("GpuException | "), "PE " + me + ": " + r));
        }
        assertAll(checks);
    }
}
