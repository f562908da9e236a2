package org.jshmem.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** JSHMEM_WAIT_TIMEOUT: in a job of live PEs that wait for what never comes, every PE names its wait. */
class WaitTimeoutTest {
    @Test
    void everyStuckPeNamesItsWait() {
        JobResult r = MpiJob.of(3, WaitTimeoutProgram.class).env("JSHMEM_BACKEND", "host")
                .env("JSHMEM_WAIT_TIMEOUT", "2").run();
        assertFalse(r.timedOut(), r::toString);
        assertTrue(r.exitCode() != 0, r::toString);

        assertEquals("signalWaitUntil", r.value(0, "call"), r::toString);
        String pe0 = r.value(0, "timeout");
        assertTrue(pe0.startsWith("PE 0: signalWaitUntil made no progress for 2."), pe0);
        assertTrue(pe0.contains("(JSHMEM_WAIT_TIMEOUT=2.0): waits until the signal at offset 0 of symmetric segment"),
                pe0);
        assertTrue(pe0.endsWith("is EQ 1 (unsigned); it is 0"), pe0);

        assertEquals("barrierAll", r.value(1, "call"), r::toString);
        String pe1 = r.value(1, "timeout");
        assertTrue(pe1.contains("a synchronisation of the team of world PEs 0, stride 1, size 3"), pe1);
        assertTrue(pe1.contains("PEs [1] have reached it, PEs [0 (1 behind), 2 (1 behind)] have not"), pe1);

        assertEquals("waitUntilInt", r.value(2, "call"), r::toString);
        String pe2 = r.value(2, "timeout");
        assertTrue(pe2.contains(": waits until the int at offset 4 of symmetric segment [heap offset "), pe2);
        assertTrue(pe2.endsWith("is GE 7; it is 0"), pe2);

        for (int pe = 0; pe < 3; pe++) {   // printed by jshmem itself on each stuck PE, whole
            assertEquals(1, r.linesWith("jshmem: " + r.value(pe, "timeout")).size(), r::toString);
        }
    }
}
