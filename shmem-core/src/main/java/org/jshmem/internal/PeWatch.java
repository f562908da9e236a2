package org.jshmem.internal;

import java.util.ArrayList;
import java.util.List;
import org.jshmem.PeFailedException;

/**
 * Finds PEs that died: a PE whose process is gone, or that marked itself failed (its JVM exited
 * or threw out of main), or that finished ({@code close()}) while this one still waits for it.
 * Cheap to call often: it looks at the processes only once per interval.
 */
public final class PeWatch {
    /** Where the PEs' states and process ids come from. */
    public interface PeTable {
        int nPes();

        int myPe();

        long pid(int pe);

        /** One of the {@code STATE_*} values of {@link org.jshmem.host.ControlDescriptor}. */
        int state(int pe);
    }

    private final PeTable table;
    private final long intervalNanos;
    private final ProcessHandle[] handles;
    private final boolean[] finishedBefore;
    private long lastCheck;

    public PeWatch(PeTable table, long intervalMillis) {
        this.table = table;
        this.intervalNanos = intervalMillis * 1_000_000L;
        this.handles = new ProcessHandle[table.nPes()];
        this.finishedBefore = new boolean[table.nPes()];
        this.lastCheck = System.nanoTime();
    }

    /** Checks the PEs if an interval has passed since the last check; throws if one is dead. */
    public void checkPeriodically(String waitingIn) {
        long now = System.nanoTime();
        if (now - lastCheck >= intervalNanos) {
            lastCheck = now;
            checkNow(waitingIn);
        }
    }

    /**
     * Checks every other PE now. A PE that finished normally counts as gone only when it is seen
     * finished twice in a row, so that a wait its last write completes is not reported.
     */
    public void checkNow(String waitingIn) {
        List<Integer> dead = new ArrayList<>();
        List<String> why = new ArrayList<>();
        for (int pe = 0; pe < table.nPes(); pe++) {
            if (pe == table.myPe()) {
                continue;
            }
            int state = table.state(pe);
            String reason = null;
            if (state == org.jshmem.host.ControlDescriptor.STATE_FAILED) {
                reason = "exited with an error";
            } else if (state == org.jshmem.host.ControlDescriptor.STATE_FINALIZED) {
                if (finishedBefore[pe]) {
                    reason = "already finished (closed jshmem), so it will never take part in this call";
                }
                finishedBefore[pe] = true;
            } else if (!alive(pe)) {
                reason = "died (its process " + table.pid(pe) + " is gone: killed or crashed)";
            }
            if (reason != null) {
                dead.add(pe);
                why.add("PE " + pe + " " + reason);
            }
        }
        if (!dead.isEmpty()) {
            throw new PeFailedException(String.join("; ", why) + ", while PE " + table.myPe() + " was waiting in "
                    + waitingIn + ". The job cannot continue: stop it and look at the output of "
                    + (dead.size() == 1 ? "PE " + dead.get(0) : "PEs " + dead) + ".", dead);
        }
    }

    private boolean alive(int pe) {
        ProcessHandle h = handles[pe];
        if (h == null) {
            long pid = table.pid(pe);
            if (pid <= 0) {
                return true; // not registered yet: still starting
            }
            h = ProcessHandle.of(pid).orElse(null);
            if (h == null) {
                return false;
            }
            handles[pe] = h;
        }
        return h.isAlive();
    }
}
