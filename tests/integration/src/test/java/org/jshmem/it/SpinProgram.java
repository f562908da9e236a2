package org.jshmem.it;

import static org.jshmem.it.PeProgram.report;

import org.jshmem.Shmem;

/** Reports the CPUs this PE may run on and the busy-wait iterations JSHMEM_SPIN=auto chose. */
public final class SpinProgram {
    public static void main(String[] args) {
        try (Shmem s = Shmem.init()) {
            report(s.myPe(), "availableProcessors", Runtime.getRuntime().availableProcessors());
            report(s.myPe(), "spin", s.config().spinIterationsFor(s.nPes()));
        }
    }
}
