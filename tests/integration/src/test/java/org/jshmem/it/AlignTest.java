package org.jshmem.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** align() aligns the address every PE sees, up to 2 MiB, and rejects more; on the suite's backend. */
class AlignTest {
    @Test
    void alignAlignsTheAddressOnEveryPe() {
        JobResult r = MpiJob.of(3, AlignProgram.class).env("JSHMEM_SYMMETRIC_SIZE", "12M").run();
        assertTrue(r.succeeded(), r::toString);
        for (int pe = 0; pe < 3; pe++) {
            assertEquals("none", r.value(pe, "misaligned"), "PE " + pe);
            assertTrue(r.value(pe, "align4M").startsWith("align(4194304, 100): alignments above 2M are not supported"),
                    r.value(pe, "align4M"));
        }
    }
}
