package org.jshmem.node;

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
}
