package org.jshmem.it;

import static org.jshmem.it.PeProgram.report;

import org.jshmem.Shmem;

/** Starts a PE, reports, and closes: for start-up failures (no or a wrong mpi.jar). */
public final class InitProgram {
    public static void main(String[] args) {
        try (Shmem s = Shmem.init()) {
            report(s.myPe(), "nPes", s.nPes());
            report(s.myPe(), "describe", s.describe());
        }
    }
}
