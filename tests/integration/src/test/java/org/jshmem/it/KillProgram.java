package org.jshmem.it;

import static org.jshmem.it.PeProgram.report;

import java.io.IOException;
import org.jshmem.Cmp;
import org.jshmem.PeFailedException;
import org.jshmem.Shmem;
import org.jshmem.SymmetricSegment;

/**
 * One PE (args[1]) dies while the others wait for it: PE 0 in barrierAll, the rest in
 * waitUntilLong on a flag it would set. {@code kill9}: it sends itself SIGKILL; {@code throw}: an
 * exception leaves its main without close(); {@code closeEarly}: an exception leaves a
 * try-with-resources block, so it closes jshmem while the others still wait for it. The survivors
 * report the PeFailedException.
 */
public final class KillProgram {
    public static void main(String[] args) throws IOException, InterruptedException {
        String how = args[0];
        int victim = Integer.parseInt(args[1]);
        Shmem s = Shmem.init();
        int me = s.myPe();
        SymmetricSegment flag = s.calloc(1, 8);
        report(me, "pid", ProcessHandle.current().pid());
        s.barrierAll();
        if (me == victim) {
            if (how.equals("closeEarly")) {
                try (s) {
                    throw new IllegalStateException("PE " + me + " gives up and closes jshmem while the others wait");
                }
            }
            if (how.equals("kill9")) {
                new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).inheritIO().start().waitFor();
                Thread.sleep(60_000);    // not reached
            }
            throw new IllegalStateException("PE " + me + " gives up without closing jshmem");
        }
        try {
            if (me == 0) {
                s.barrierAll();
            } else {
                s.waitUntilLong(flag, 0, Cmp.EQ, 1);
            }
            report(me, "failed", "no exception");
        } catch (PeFailedException e) {
            report(me, "failed", e.getMessage());
            report(me, "failedPes", e.failedPes());
        }
        try {
            s.close();
            report(me, "close", "no exception");
        } catch (PeFailedException e) {
            report(me, "close", e.getClass().getSimpleName() + " | " + e.getMessage());
        }
    }
}
