package org.jshmem.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code JSHMEM_DEBUG=1}: collective calls whose arguments differ fail on every PE, naming the PEs that differ. */
class DebugTest {

    @Test
    void mismatchedCollectivesNameTheDifferingPes() {
        int n = 4;
        JobResult r = MpiJob.of(n, DebugProgram.class).env("JSHMEM_DEBUG", "1").env("JSHMEM_SYMMETRIC_SIZE", "8M").run();
        assertTrue(r.succeeded(), r::toString);
        for (int pe = 0; pe < n; pe++) {
            String size = r.value(pe, "mallocSize");
            assertTrue(size.startsWith("collective call mismatch (JSHMEM_DEBUG=1): PEs [3] differ from PE 0"), size);
            assertTrue(size.contains("PE 0: malloc(1024)") && size.contains("PE 3: malloc(2048)"), size);
            assertTrue(!size.contains("PE 1:") && !size.contains("PE 2:"), "names only PE 0 and those that differ: " + size);
            assertTrue(size.contains("same arguments"), "says how to fix it: " + size);
            String kind = r.value(pe, "mallocOrAlign");
            assertTrue(kind.contains("PEs [1, 3] differ from PE 0"), kind);
            assertTrue(kind.contains("PE 1: align(512, 100)") && kind.contains("PE 3: align(512, 100)")
                    && kind.contains("PE 0: malloc(100)"), kind);
            assertEquals("0 1024", r.value(pe, "matching"), "matching calls after the mismatches: the heap is untouched");
            String free = r.value(pe, "freeOther");
            assertTrue(free.contains("PEs [1, 2, 3] differ from PE 0"), free);
            long start = r.longValue(pe, "heapStart");   // 0 on the host heap; heap offsets count from the backend's heap
            assertTrue(free.contains("PE 0: free(heap offset " + start + ")")
                    && free.contains("PE 1: free(heap offset " + (start + 1024) + ")"), free);
            assertEquals("true", r.value(pe, "heapFreeAfter"));
        }
    }
}
