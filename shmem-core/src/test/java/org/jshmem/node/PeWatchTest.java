package org.jshmem.node;

import static org.jshmem.node.ControlDescriptor.STATE_CLOSING;
import static org.jshmem.node.ControlDescriptor.STATE_CLOSING_AFTER_PEERS;
import static org.jshmem.node.ControlDescriptor.STATE_FAILED;
import static org.jshmem.node.ControlDescriptor.STATE_FAILED_AFTER_PEERS;
import static org.jshmem.node.ControlDescriptor.STATE_RUNNING;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import org.jshmem.PeFailedException;
import org.junit.jupiter.api.Test;

/**
 * Whom a PE names when peers are gone: the PE that failed first, not the survivors that stopped
 * after it (which a slow survivor may see too), and those only when no other cause is left.
 */
class PeWatchTest {
    private record Table(int myPe, long[] pids, int[] states) implements PeWatch.PeTable {
        @Override
        public int nPes() {
            return pids.length;
        }

        @Override
        public long pid(int pe) {
            return pids[pe];
        }

        @Override
        public int state(int pe) {
            return states[pe];
        }
    }

    private static long deadPid() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        return p.pid();
    }

    @Test
    void namesTheDeadPeNotTheSurvivorsThatStoppedAfterIt() throws Exception {
        long me = ProcessHandle.current().pid();
        Table t = new Table(2, new long[] {me, me, me, deadPid()},
                new int[] {STATE_FAILED_AFTER_PEERS, STATE_FAILED_AFTER_PEERS, STATE_RUNNING, STATE_RUNNING});
        PeFailedException e = assertThrows(PeFailedException.class, () -> new PeWatch(t, 1).checkNow("waitUntilLong"));
        assertEquals(List.of(3), e.failedPes());
        assertTrue(e.getMessage().startsWith("PE 3 died (its process "), e.getMessage());
        assertFalse(new PeWatch(t, 1).isRunning(0), "a PE that stopped after others is not running");
    }

    @Test
    void namesAPeThatExitedWithAnErrorBeforeTheOnesAfterIt() {
        long me = ProcessHandle.current().pid();
        Table t = new Table(0, new long[] {me, me, me}, new int[] {STATE_RUNNING, STATE_FAILED_AFTER_PEERS, STATE_FAILED});
        PeFailedException e = assertThrows(PeFailedException.class, () -> new PeWatch(t, 1).checkNow("barrierAll"));
        assertEquals(List.of(2), e.failedPes());
        assertTrue(e.getMessage().startsWith("PE 2 exited with an error, while PE 0 was waiting in barrierAll."),
                e.getMessage());
    }

    @Test
    void namesTheSurvivorsWhenNothingElseIsLeft() {
        long me = ProcessHandle.current().pid();
        Table t = new Table(0, new long[] {me, me}, new int[] {STATE_RUNNING, STATE_FAILED_AFTER_PEERS});
        PeFailedException e = assertThrows(PeFailedException.class, () -> new PeWatch(t, 1).checkNow("barrierAll"));
        assertEquals(List.of(1), e.failedPes());
        assertTrue(e.getMessage().startsWith("PE 1 stopped after other PEs failed, while PE 0"), e.getMessage());
    }

    /**
     * PE 1 closed early; PE 2 closes because its wait reported that: PE 0, seeing both closing
     * twice, names PE 1 alone, and once PE 1 has no state left to blame, PE 2.
     */
    @Test
    void namesThePeThatClosedEarlyNotTheOneThatClosedAfterIt() {
        long me = ProcessHandle.current().pid();
        int[] states = {STATE_RUNNING, STATE_CLOSING, STATE_CLOSING_AFTER_PEERS};
        PeWatch w = new PeWatch(new Table(0, new long[] {me, me, me}, states), 1);
        w.checkNow("barrierAll");                      // first sight of both: not yet named
        PeFailedException e = assertThrows(PeFailedException.class, () -> w.checkNow("barrierAll"));
        assertEquals(List.of(1), e.failedPes());
        assertTrue(e.getMessage().startsWith("PE 1 is closing jshmem (in close()), so it will not take part in this call"),
                e.getMessage());
        assertTrue(w.departureSeen(), "this PE's own close() is then one after others left");
        states[1] = STATE_RUNNING;
        PeFailedException after = assertThrows(PeFailedException.class, () -> w.checkNow("barrierAll"));
        assertEquals(List.of(2), after.failedPes());
        assertTrue(after.getMessage().startsWith("PE 2 is closing jshmem (in close()) after other PEs left"),
                after.getMessage());
        PeWatch inClose = new PeWatch(new Table(0, new long[] {me, me, me}, states), 1);
        inClose.checkNow(PeWatch.CLOSE);
        inClose.checkNow(PeWatch.CLOSE);               // in close(), PEs closing after others are expected
        assertFalse(inClose.departureSeen());
    }

    /** PEs 1-3 on other nodes, with heartbeats the test sets. */
    private record RemoteTable(long[] beats) implements PeWatch.PeTable {
        @Override
        public int nPes() {
            return beats.length;
        }

        @Override
        public int myPe() {
            return 0;
        }

        @Override
        public long pid(int pe) {
            return ProcessHandle.current().pid();
        }

        @Override
        public int state(int pe) {
            return STATE_RUNNING;
        }

        @Override
        public boolean isRemote(int pe) {
            return pe != 0;
        }

        @Override
        public long heartbeat(int pe) {
            return beats[pe];
        }
    }

    /**
     * PE 1 dies; PE 2's beats stop 30 ms earlier (its publisher is stuck behind PE 1's): both are
     * named once PE 2's silence passes the limit. PE 3, silent for 1.97 s (under the limit less a
     * fifth), is not.
     */
    @Test
    void namesTheSilencesThatBeganTogether() {
        long[] now = {0};
        RemoteTable t = new RemoteTable(new long[4]);
        PeWatch w = new PeWatch(t, 100, () -> now[0]);   // silence limit: 50 beats of 50 ms, 2.5 s
        assertEquals(2_500_000_000L, w.silenceNanos());
        beatAndCheck(w, t, now, 970_000_000L, 2);
        beatAndCheck(w, t, now, 1_000_000_000L, 1);
        beatAndCheck(w, t, now, 1_500_000_000L, 3);
        now[0] = 970_000_000L + w.silenceNanos() - 1;             // PE 2 just under the limit: nobody is named
        w.checkNow("barrierAll");
        now[0]++;
        PeFailedException e = assertThrows(PeFailedException.class, () -> w.checkNow("barrierAll"));
        assertEquals(List.of(1, 2), e.failedPes());
        assertTrue(e.getMessage().startsWith("PE 1 on another node stopped answering (no heartbeat for 2470 ms"),
                e.getMessage());
        assertTrue(e.getMessage().contains("; PE 2 on another node stopped answering (no heartbeat for 2500 ms"),
                e.getMessage());
        assertEquals(e, w.deathSeen());
    }

    private static void beatAndCheck(PeWatch w, RemoteTable t, long[] now, long at, int pe) {
        now[0] = at;
        t.beats()[pe]++;
        w.checkNow("barrierAll");
    }
}
