package org.jshmem.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Symmetric allocation calls whose arguments differ between PEs fail on every PE, without
 * {@code JSHMEM_DEBUG}, with the same message naming each PE's call, and leave the heap as it was.
 */
class DebugTest {

    @ParameterizedTest(name = "transport \"{0}\"")
    @MethodSource("org.jshmem.it.MpiJob#transportModes")
    void mismatchedAllocationsFailOnEveryPeWithoutDebug(String mode) {
        int n = 4;
        JobResult r = MpiJob.of(n, DebugProgram.class).transport(mode).env("JSHMEM_SYMMETRIC_SIZE", "8M").run();
        assertTrue(r.succeeded(), r::toString);
        long start = r.longValue(0, "heapStart");   // 0 on the host heap; heap offsets count from the backend's heap
        for (int pe = 0; pe < n; pe++) {
            String size = r.value(pe, "mallocSize");
            assertEquals("collective call mismatch: malloc was called with different arguments on different PEs:"
                    + " malloc(1024) on PEs 0-2; malloc(2048) on PE 3. Every PE must make the same allocation calls"
                    + " (malloc, calloc, align, mallocWithHints, realloc, free) in the same order with the same"
                    + " arguments; this call allocated and freed nothing.", size);
            assertEquals("collective call mismatch: the PEs made different symmetric allocation calls: malloc(100) on"
                    + " PEs 0, 2; align(512, 100) on PEs 1, 3.", firstSentence(r.value(pe, "mallocOrAlign")));
            assertTrue(r.value(pe, "callocCount").contains("calloc(2, 8) on PEs 0-2; calloc(3, 8) on PE 3."),
                    r.value(pe, "callocCount"));
            assertEquals("true", r.value(pe, "heapFreeAfterMismatches"), "a mismatch allocates nothing");
            assertEquals("0 1024", r.value(pe, "matching"), "matching calls after the mismatches: the heap is untouched");
            assertTrue(r.value(pe, "freeOther").contains("free(heap offset " + start + ") on PE 0; free(heap offset "
                    + (start + 1024) + ") on PEs 1-3."), r.value(pe, "freeOther"));
            assertTrue(r.value(pe, "reallocSize").contains("realloc(heap offset " + start + ", 4096) on PE 0; realloc(heap"
                    + " offset " + start + ", 8192) on PEs 1-3.") && r.value(pe, "reallocSize").endsWith("a usable: true"),
                    r.value(pe, "reallocSize"));
            assertEquals("true", r.value(pe, "heapFreeAfter"));
        }
    }

    private static String firstSentence(String s) {
        int first = s.indexOf(". ");
        return first < 0 ? s : s.substring(0, first + 1);
    }
}
