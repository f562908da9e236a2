package org.jshmem.it;

import static org.jshmem.it.PeProgram.report;

import org.jshmem.Cmp;
import org.jshmem.Shmem;
import org.jshmem.SymmetricSegment;
import org.jshmem.WaitTimeoutException;

/**
 * A job whose PEs are all alive and stuck: PE 1 skips the signal PE 0 waits for and enters a
 * barrier, PE 0 waits for the signal, PE 2 (and any further PE) waits for an int that no PE sets.
 * Run with a short JSHMEM_WAIT_TIMEOUT: every PE reports the timeout's call and message.
 */
public final class WaitTimeoutProgram {
    public static void main(String[] args) throws InterruptedException {
        Shmem s = Shmem.init();
        int me = s.myPe();
        SymmetricSegment signal = s.calloc(1, 8);
        SymmetricSegment ivar = s.calloc(1, 8);
        s.barrierAll();
        try {
            switch (me) {
                case 0 -> s.signalWaitUntil(signal, 0, Cmp.EQ, 1);
                case 1 -> s.barrierAll();   // instead of putSignal(..., signal, 1, ..., 0) first
                default -> s.waitUntilInt(ivar, 4, Cmp.GE, 7);
            }
            report(me, "state", "not stuck");
        } catch (WaitTimeoutException e) {
            report(me, "call", e.call());
            report(me, "timeout", e.getMessage());
            Thread.sleep(1500);   // until every PE has timed out: one that exits first is reported dead instead
            System.exit(3);
        }
    }
}
