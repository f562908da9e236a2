package org.jshmem.it;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every error case of {@link ErrorsProgram} on every PE: the exception type, a message that says
 * what, where and how to fix it, no byte around the targets touched, and a heap that still works.
 */
class ErrorsTest {

    @ParameterizedTest(name = "{0} PEs")
    @ValueSource(ints = {1, 2, 3, 4})
    void everyErrorOnEveryPe(int n) {
        JobResult r = MpiJob.of(n, ErrorsProgram.class).env("JSHMEM_SYMMETRIC_SIZE", "8M").run();
        assertTrue(r.succeeded(), r::toString);
        List<Executable> checks = new ArrayList<>();
        for (int pe = 0; pe < n; pe++) {
            int me = pe;
            long target = r.longValue(me, "target");
            String range = n == 1 ? "the job has 1 PE (only PE 0)" : "the job has " + n + " PEs (0.." + (n - 1) + ")";
            checks.add(() -> assertEquals("256 256", r.value(me, "layout"), "the three blocks are adjacent"));
            expect(checks, r, me, "peTooHigh", "PeOutOfRangeException",
                    "put: PE " + n + " is out of range", range, "Pass a PE number in that range");
            expect(checks, r, me, "peNegative", "PeOutOfRangeException", "pInt: PE -1 is out of range", range);
            expect(checks, r, me, "peAtomic", "PeOutOfRangeException", "atomicFetchAddLong: PE " + (n + 5) + " is out of range");
            expect(checks, r, me, "peQuiet", "PeOutOfRangeException", "peQuiet: PE " + n + " is out of range");
            expect(checks, r, me, "pastEnd", "HeapBoundsException", "put: offset 252 + length 8 is outside",
                    "heap offset " + target + ", 256 bytes", "malloc(256)", "valid: 0 <= offset, offset + length <= 256");
            expect(checks, r, me, "negativeOffset", "HeapBoundsException", "get: offset -8 + length 8 is outside");
            expect(checks, r, me, "atomicPastEnd", "HeapBoundsException", "atomicAddLong: offset 256 + length 8");
            expect(checks, r, me, "stridedPastEnd", "HeapBoundsException", "iput: offset 0 + length 804");
            expect(checks, r, me, "blocksPastEnd", "HeapBoundsException", "ibput: offset 0 + length 328");
            expect(checks, r, me, "blocksOverlap", "IllegalArgumentException",
                    "ibput: block size and count must be >= 0", "destination stride >= max(1, block size)",
                    "got destination stride 1, source stride 2, block size 2, blocks 2");
            expect(checks, r, me, "symmetricPastEnd", "HeapBoundsException", "put: offset 0 + length 512");
            expect(checks, r, me, "misalignedLong", "MisalignedAtomicException",
                    "atomicFetchAddLong: offset 4 in symmetric segment [heap offset " + target,
                    "is not a multiple of 8 bytes", "use an offset that is a multiple of 8");
            expect(checks, r, me, "misalignedInt", "MisalignedAtomicException", "atomicCompareSwapInt: offset 2",
                    "multiple of 4");
            expect(checks, r, me, "misalignedSignal", "MisalignedAtomicException", "putSignal: offset 129",
                    "multiple of 8");
            long heap = 8L << 20;
            expect(checks, r, me, "exhausted", "HeapExhaustedException", "malloc(" + heap + ") on PE " + me,
                    heap + " bytes asked", (heap - 768) + " bytes free", "raise JSHMEM_SYMMETRIC_SIZE (now 8M)",
                    "JSHMEM_SYMMETRIC_SIZE=16M");
            checks.add(() -> assertEquals("true", r.value(me, "heapFreeAfterExhausted"), "PE " + me));
            expect(checks, r, me, "afterFree", "ShmemStateException", "pLong: symmetric segment", "malloc(64)]",
                    "was freed; allocate a new segment");
            expect(checks, r, me, "doubleFree", "ShmemStateException", "already freed");
            checks.add(() -> assertEquals("0", r.value(me, "sentinel.bad"), "PE " + me + ": bytes around the targets changed"));
            checks.add(() -> assertEquals(String.valueOf(4200 + (me + n - 1) % n), r.value(me, "afterErrors"), "PE " + me));
            expect(checks, r, me, "afterClose", "ShmemStateException", "pLong: this PE's jshmem was closed");
            expect(checks, r, me, "currentAfterClose", "ShmemStateException", "call Shmem.init() first");
        }
        // before init there is no PE number: every process reports as PE -1
        assertEquals(n, r.linesWith("PE -1 err.beforeInit ShmemStateException | jshmem is not initialized in this"
                + " process: call Shmem.init() first").size(), r::toString);
        assertAll(checks);
        assertEquals(List.of(), ShmFiles.ofJob(ShmFiles.DEFAULT_DIR, r.longValue(0, "pid")), "files left");
    }

    static void expect(List<Executable> checks, JobResult r, int pe, String name, String type, String... parts) {
        checks.add(() -> {
            String v = r.value(pe, "err." + name);
            assertTrue(v.startsWith(type + " | "), "PE " + pe + " " + name + ": expected " + type + ", got: " + v);
            for (String part : parts) {
                assertTrue(v.contains(part), "PE " + pe + " " + name + ": message lacks '" + part + "': " + v);
            }
        });
    }
}
