package org.jshmem.it;

import static org.jshmem.it.PeProgram.report;

import org.jshmem.Cmp;
import org.jshmem.Shmem;
import org.jshmem.SymmetricSegment;

/** Every PE waits for a flag that no PE sets: a job that only its timeout ends (MpiJob's stop path). */
public final class HangProgram {
    public static void main(String[] args) {
        Shmem s = Shmem.init();
        SymmetricSegment flag = s.calloc(1, 8);
        s.barrierAll();
        report(s.myPe(), "state", "waiting");
        s.waitUntilLong(flag, 0, Cmp.EQ, 1);
        report(s.myPe(), "state", "woken");
    }
}
