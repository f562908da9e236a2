package org.jshmem.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * JSHMEM_SPIN=auto under mpirun's default binding (each PE bound to one core, so this process
 * sees one CPU): with as many PEs as the node has cores, every PE has a core and must spin.
 * With more PEs than cores it must not.
 */
class SpinTest {
    @Test
    void pesBoundToOneCoreEachStillSpinWhenEveryPeHasACore() {
        int cores = Runtime.getRuntime().availableProcessors();
        int np = Math.min(cores, 2);
        JobResult r = MpiJob.of(np, SpinProgram.class).optimizingCompiler().mpirun("--bind-to", "core").env("JSHMEM_BACKEND", "host").run();
        assertTrue(r.succeeded(), r::toString);
        for (int pe = 0; pe < np; pe++) {
            assertEquals("1", r.value(pe, "availableProcessors"), "PE " + pe + " is bound to one core: " + r);
            assertEquals("4096", r.value(pe, "spin"), "PE " + pe);
        }
    }

    @Test
    void morePesThanCoresDoNotSpin() {
        int np = Runtime.getRuntime().availableProcessors() + 1;
        JobResult r = MpiJob.of(np, SpinProgram.class).optimizingCompiler().env("JSHMEM_BACKEND", "host").run();
        assertTrue(r.succeeded(), r::toString);
        for (int pe = 0; pe < np; pe++) {
            assertEquals("0", r.value(pe, "spin"), "PE " + pe);
        }
    }
}
