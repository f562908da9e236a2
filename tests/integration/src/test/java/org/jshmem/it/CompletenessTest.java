package org.jshmem.it;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * OpenSHMEM 1.5's calls beyond the core set (contexts, direct pointers, extended and non-blocking
 * atomics, signalOp, vector waits, locks, realloc, hints, thread levels, alltoalls, team configs)
 * on jobs of 1 to 4 PEs ({@link CompletenessProgram}); every expected value is computed here.
 */
class CompletenessTest {

    @ParameterizedTest(name = "transport \"{0}\", {1} PEs")
    @MethodSource("org.jshmem.it.ApiTest#modesAndPes")
    void everyCallOnEveryPe(String mode, int n) {
        JobResult r = MpiJob.of(n, CompletenessProgram.class).transport(mode).timeout(Duration.ofSeconds(180)).run();
        assertTrue(r.succeeded(), r::toString);
        List<Executable> checks = new ArrayList<>();
        for (int pe = 0; pe < n; pe++) {
            int me = pe;
            Map<String, Object> e = expected(n, me, Boolean.parseBoolean(r.value(me, "gpu")), mode);
            for (Map.Entry<String, Object> x : e.entrySet()) {
                checks.add(() -> assertEquals(String.valueOf(x.getValue()), r.value(me, x.getKey()),
                        "PE " + me + " of " + n + ": " + x.getKey()));
            }
        }
        checks.add(() -> assertEquals(1, java.util.stream.IntStream.range(0, n)
                .mapToObj(pe -> r.value(pe, "realloc.offset")).distinct().count(), "realloc: the same offset everywhere"));
        assertAll(checks);
        assertEquals(List.of(), ShmFiles.ofJob(ShmFiles.DEFAULT_DIR, r.longValue(0, "pid")), "files left after a normal exit");
    }

    /** ThreadLevel.FUNNELED with JSHMEM_DEBUG=1: a call from another thread is refused on every PE. */
    @ParameterizedTest(name = "transport \"{0}\"")
    @MethodSource("org.jshmem.it.MpiJob#transportModes")
    void funneledIsCheckedUnderDebug(String mode) {
        JobResult r = MpiJob.of(2, CompletenessProgram.class).transport(mode).env("TEST_THREAD_LEVEL", "FUNNELED")
                .env("JSHMEM_DEBUG", "1").timeout(Duration.ofSeconds(120)).run();
        assertTrue(r.succeeded(), r::toString);
        assertAll(() -> assertEquals("FUNNELED", r.value(0, "info.thread")),
                () -> assertEquals("ShmemStateException", r.value(0, "thread.other")),
                () -> assertEquals("ShmemStateException", r.value(1, "thread.other")));
    }

    private static Map<String, Object> expected(int n, int me, boolean gpu, String mode) {
        int right = (me + 1) % n;
        int left = (me + n - 1) % n;
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("info.spec", "1.5");
        e.put("info.vendor", true);
        e.put("info.thread", "SERIALIZED");
        e.put("info.worldConfig", 0);
        e.put("thread.other", "ok");

        e.put("ctx.put", Arrays.toString(new long[] {left * 10L + 1, left * 10L + 2}));
        e.put("ctx.options", "[]");
        e.put("ctx.isDefault", false);
        e.put("ctx.team", true);
        e.put("session.twice", "ShmemStateException");
        e.put("session.open", true);
        e.put("session.stopTwice", "ShmemStateException");
        e.put("session.counter", n);
        e.put("ctx.threads", "ok");
        e.put("ctx.threadsWrong", 0);
        e.put("ctx.afterClose", "ShmemStateException");
        e.put("ctx.closeDefault", "ShmemStateException");
        e.put("ctx.defaultIsDefault", true);
        int first = n > 1 ? 1 : 0;
        if (me >= first) {
            e.put("team.config", 2);
            e.put("team.ctxTeam", true);
            e.put("team.ptr", gpu || !MpiJob.sameTestNode(me, first, n, mode) ? -1 : (2L * 1000 + 8) * 8);
            e.put("team.badPe", "PeOutOfRangeException");
            e.put("team.ctxAfterTeamClose", "ShmemStateException");
        }
        if (me == first) {
            long[] got = new long[n - first];
            for (int i = 0; i < got.length; i++) {
                got[i] = 100 + first + i;
            }
            e.put("team.ctxPut", Arrays.toString(got));
        }

        boolean ptr = !gpu && MpiJob.sameTestNode(me, (me + 1) % n, n, mode);   // no ptr to a PE of another node
        e.put("ptr.present", ptr);
        e.put("ptr.seen", ptr ? (MpiJob.sameTestNode(left, me, n, mode) ? 500 + left : 0) : -1);
        e.put("ptr.size", ptr ? 32 : -1);
        e.put("addr.accessible", true);
        e.put("addr.badPe", false);
        e.put("pe.accessible", true);
        e.put("addr.freed", false);

        e.put("amo.fetchFloat", left + 0.5f);
        e.put("amo.swapDouble", left + 0.25);
        e.put("amo.fetchDouble", -1.5);
        e.put("amo.swapFloat", left + 0.5f);
        e.put("nbi.fetchAdd", 0);
        e.put("nbi.compareSwap", 0);
        e.put("nbi.fetchInc", 0);
        e.put("nbi.swapDouble", -1.5);
        e.put("nbi.fetchFloat", 2.75f);
        e.put("nbi.smallFetch", "IllegalArgumentException");
        e.put("nbi.counter", left + 1);
        e.put("nbi.cas", "7,1");
        e.put("signalOp.wait", 15);
        e.put("signalSetAdd.wait", 107);

        e.put("vec.allDone", true);
        e.put("vec.anyInt", 2);
        e.put("vec.someInt", "[0, 2]");
        e.put("vec.testAllFalse", false);
        e.put("vec.testAllMasked", true);
        e.put("vec.testAny", 1);
        e.put("vec.testSome", "[0, 2]");
        e.put("vec.testSomeInt", "[1, 3]");
        e.put("vec.shortValues", "IllegalArgumentException");

        e.put("lock.counter", (long) n * CompletenessProgram.LOCK_ROUNDS);
        e.put("lock.testWhileHeld", me == 0 ? "holder" : "false");
        if (me == n - 1) {
            e.put("lock.testWhenFree", true);
        }
        e.put("lock.misaligned", "MisalignedAtomicException");

        e.put("realloc.inPlace", true);
        e.put("realloc.oldUnusable", "ShmemStateException");
        e.put("hints.size", 64);
        e.put("realloc.moved", true);
        e.put("realloc.keptMoved", true);
        e.put("realloc.shrunkInPlace", true);
        e.put("realloc.keptShrunk", true);
        e.put("realloc.tooBig", "HeapExhaustedException");
        e.put("realloc.stillUsable", true);

        int nelems = 2;
        int dst = 2;
        long[] dest = new long[dst * (n * nelems - 1) + 1];
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < nelems; k++) {
                dest[dst * (i * nelems + k)] = i * 100L + me * 10L + k;
            }
        }
        e.put("alltoalls", Arrays.toString(dest));
        e.put("alltoalls.badStride", "IllegalArgumentException");
        return e;
    }
}
