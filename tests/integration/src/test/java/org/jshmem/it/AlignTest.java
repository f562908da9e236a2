package org.jshmem.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * align() aligns the address every PE sees, for any alignment the heap has room for (here up to
 * 32 MiB in a 64 MiB heap), and throws HeapExhaustedException on every PE past the heap base's
 * alignment; on the suite's backend.
 */
class AlignTest {
    @Test
    void alignAlignsTheAddressOnEveryPe() {
        JobResult r = MpiJob.of(3, AlignProgram.class).env("JSHMEM_SYMMETRIC_SIZE", "64M")
                .env("JSHMEM_PREFAULT", "0").run();
        assertTrue(r.succeeded(), r::toString);
        for (int pe = 0; pe < 3; pe++) {
            assertEquals("none", r.value(pe, "misaligned"), "PE " + pe);
            assertEquals(r.longValue(0, "offset32M"), r.longValue(pe, "offset32M"), "the same offset on every PE");
            assertEquals(0, r.longValue(pe, "offset32M") % (32L << 20));
            assertTrue(r.value(pe, "align128M").startsWith("align(134217728, 100) on PE " + pe + ": no block of the"
                    + " symmetric heap is at a multiple of 128M on every PE: the heap's base address is 64M-aligned on"
                    + " every PE"), r.value(pe, "align128M"));
        }
    }
}
