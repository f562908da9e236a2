package org.jshmem.node;

import static org.jshmem.node.ControlDescriptor.STATE_CLOSING;
import static org.jshmem.node.ControlDescriptor.STATE_CLOSING_AFTER_PEERS;
import static org.jshmem.node.ControlDescriptor.STATE_FAILED;
import static org.jshmem.node.ControlDescriptor.STATE_FAILED_AFTER_PEERS;
import static org.jshmem.node.ControlDescriptor.STATE_FINALIZED;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.jshmem.PeFailedException;

/**
 * Finds PEs that died: a PE whose process is gone (on another node: whose heartbeat stopped), or
 * that marked itself failed (its JVM exited or threw out of main), or that finished
 * ({@code close()}) while this one still waits for it. Cheap to call often: it looks at the
 * processes only once per interval.
 */
public final class PeWatch {
    /** Where the PEs' states and process ids come from. */
    public interface PeTable {
        int nPes();

        int myPe();

        long pid(int pe);

        /** One of the {@code STATE_*} values of {@link org.jshmem.node.ControlDescriptor}. */
        int state(int pe);

        /** Whether {@code pe} runs on another node: its process cannot be looked at, only its heartbeat. */
        default boolean isRemote(int pe) {
            return false;
        }

        /** The heartbeat counter of a PE of another node, as last published to this node. */
        default long heartbeat(int pe) {
            return 0;
        }
    }

    /**
     * Missed heartbeat intervals (each half the liveness interval) after which a PE of another node
     * counts as dead: 50, 5 s by default. A live PE's progress thread, which beats, can be kept out
     * of MPI for a second on a loaded machine (large puts on 2 cores), so 1 s gave false deaths.
     */
    static final int MISSED_BEATS = 50;

    /**
     * A fifth of the silence: a PE of another node silent this much less than the longest silence
     * past the limit is named with it. A survivor's beats can stop behind a dead PE's (its
     * publisher waits in MPI for the dead one, forever), a little before or after the dead PE's
     * last beat; silences that began together are named together, so that the dead PE is among them.
     */
    static final int SHARED_SILENCE_FRACTION = 5;

    /** The name waits in {@code close()} pass as {@code waitingIn}. */
    public static final String CLOSE = "close";

    private final PeTable table;
    private final LongSupplier clock;
    private final long intervalNanos;
    private final ProcessHandle[] handles;
    private final boolean[] leftBefore;
    private final long[] lastBeat;
    private final long[] lastBeatSeen;
    private final long[] afterSeen;   // when a PE was first seen stopped after others failed; 0: not yet
    private final boolean spansNodes;
    private PeFailedException deathSeen;
    private boolean departureSeen;
    private final long silenceNanos;
    private long lastCheck;

    public PeWatch(PeTable table, long intervalMillis) {
        this(table, intervalMillis, System::nanoTime);
    }

    /** A watch on the given clock (nanoseconds), so that tests can play out heartbeat silences. */
    PeWatch(PeTable table, long intervalMillis, LongSupplier clock) {
        this.table = table;
        this.clock = clock;
        this.intervalNanos = intervalMillis * 1_000_000L;
        this.handles = new ProcessHandle[table.nPes()];
        this.leftBefore = new boolean[table.nPes()];
        this.lastCheck = clock.getAsLong();
        this.lastBeat = new long[table.nPes()];
        this.lastBeatSeen = new long[table.nPes()];
        this.afterSeen = new long[table.nPes()];
        this.spansNodes = java.util.stream.IntStream.range(0, table.nPes()).anyMatch(table::isRemote);
        java.util.Arrays.fill(lastBeatSeen, lastCheck);
        this.silenceNanos = Math.max(1, intervalMillis / 2) * 1_000_000L * MISSED_BEATS;
    }

    /** How long a PE of another node may be silent (no heartbeat) before it counts as dead. */
    public long silenceNanos() {
        return silenceNanos;
    }

    /** Checks the PEs if an interval has passed since the last check; throws if one is dead. */
    public void checkPeriodically(String waitingIn) {
        checkPeriodically(waitingIn, 0, 1, table.nPes());
    }

    /**
     * Like {@link #checkPeriodically(String)}, looking only at the PEs waited for: world PEs
     * {@code start + i * stride}, {@code i < size} (a team), so that a PE outside the team that
     * has finished is not taken for one that left the call.
     */
    public void checkPeriodically(String waitingIn, int start, int stride, int size) {
        long now = clock.getAsLong();
        if (now - lastCheck >= intervalNanos) {
            lastCheck = now;
            checkNow(waitingIn, start, stride, size);
        }
    }

    /**
     * Checks every other PE now; throws {@link PeFailedException} naming the PEs that are gone.
     * A PE that is closing or has closed counts as gone only when seen so twice in a row, so that
     * a wait its last write completes is not reported; while this PE itself closes
     * ({@code waitingIn} is {@link #CLOSE}), closing and closed PEs are expected. PEs that stopped
     * only because others failed are named only when no other cause is left to name: a survivor
     * slow to look must still name the PE that failed first. When the job spans nodes, such a PE is
     * named only once a heartbeat silence has passed since it was first seen so: the PE that failed
     * first may be one whose death shows here only by its silence.
     */
    public void checkNow(String waitingIn) {
        checkNow(waitingIn, 0, 1, table.nPes());
    }

    /** Like {@link #checkNow(String)} for the world PEs {@code start + i * stride}, {@code i < size}. */
    public void checkNow(String waitingIn, int start, int stride, int size) {
        boolean inClose = CLOSE.equals(waitingIn);
        List<Integer> dead = new ArrayList<>();
        List<String> why = new ArrayList<>();
        List<Integer> after = new ArrayList<>();
        List<String> afterWhy = new ArrayList<>();
        boolean anyDied = false;
        boolean anyLeft = false;
        long silenceLimit = spansNodes ? silenceLimit(start, stride, size) : silenceNanos;
        for (int i = 0, pe = start; i < size; i++, pe += stride) {
            if (pe == table.myPe()) {
                continue;
            }
            int state = table.state(pe);
            boolean leaving = state == STATE_CLOSING || state == STATE_CLOSING_AFTER_PEERS || state == STATE_FINALIZED;
            String reason = null;
            if (state == STATE_FAILED_AFTER_PEERS) {
                if (afterSeen[pe] == 0) {
                    afterSeen[pe] = clock.getAsLong() | 1;
                }
                // with PEs on other nodes, the PE that failed first may be one whose death only its
                // silence tells here: give that silence time to show before naming this one
                if (!spansNodes || clock.getAsLong() - afterSeen[pe] >= silenceNanos) {
                    after.add(pe);
                    afterWhy.add("PE " + pe + " stopped after other PEs failed");
                }
                continue;
            }
            if (state == STATE_CLOSING_AFTER_PEERS && !inClose) {   // it closes because others left: name them first
                if (leftBefore[pe]) {
                    after.add(pe);
                    afterWhy.add("PE " + pe + " is closing jshmem (in close()) after other PEs left, so it will not take"
                            + " part in this call: the PEs made different calls");
                }
                leftBefore[pe] = true;
                continue;
            }
            boolean died = false;
            if (state == STATE_FAILED) {
                reason = "exited with an error";
                died = true;
            } else if (leaving && !inClose) {
                if (leftBefore[pe]) {
                    reason = state == STATE_CLOSING ? "is closing jshmem (in close())" : "has closed jshmem";
                    reason += ", so it will not take part in this call: the PEs made different calls";
                    anyLeft = true;
                }
                leftBefore[pe] = true;
            } else if (state != STATE_FINALIZED && !alive(pe, silenceLimit)) {
                died = true;
                reason = table.isRemote(pe)
                        ? "on another node stopped answering (no heartbeat for " + (clock.getAsLong() - lastBeatSeen[pe]) / 1_000_000
                          + " ms: killed, crashed, or its node or the network is down)"
                        : "died (its process " + table.pid(pe) + " is gone: killed or crashed)";
            }
            if (reason != null) {
                dead.add(pe);
                why.add("PE " + pe + " " + reason);
                anyDied |= died;
            }
        }
        if (dead.isEmpty()) {
            dead.addAll(after);
            why.addAll(afterWhy);
        }
        if (!dead.isEmpty()) {
            PeFailedException e = new PeFailedException(String.join("; ", why) + ", while PE " + table.myPe()
                    + " was waiting in " + waitingIn + ". The job cannot continue: stop it and look at the output of "
                    + (dead.size() == 1 ? "PE " + dead.get(0) : "PEs " + dead) + ".", dead);
            if (anyDied && deathSeen == null) {
                deathSeen = e;
            }
            departureSeen |= anyLeft;
            throw e;
        }
    }

    /**
     * The first failure this watch reported that names a PE that died or exited with an error (not
     * one that only closed early), or null: after it this PE cannot close with the others, and
     * announcing that it closes would make the PEs of other nodes name it instead of the dead PE.
     */
    public PeFailedException deathSeen() {
        return deathSeen;
    }

    /**
     * Whether this watch reported PEs that had left (closing or closed while this PE waited for
     * them): then this PE's own {@code close()} is a consequence, and it says so
     * ({@link ControlDescriptor#STATE_CLOSING_AFTER_PEERS}) so that PEs still waiting name those PEs.
     */
    public boolean departureSeen() {
        return departureSeen;
    }

    /** Whether PE {@code pe} is running: this PE, or one that has not failed, left or closed and whose process lives. */
    public boolean isRunning(int pe) {
        if (pe == table.myPe()) {
            return true;
        }
        int state = table.state(pe);
        return state != STATE_FAILED && state != STATE_FAILED_AFTER_PEERS && state != STATE_CLOSING
                && state != STATE_CLOSING_AFTER_PEERS && state != STATE_FINALIZED && alive(pe, silenceNanos);
    }

    /**
     * The silence after which the PEs {@code start + i * stride} of other nodes count as dead in
     * this check: {@link #silenceNanos()}, or less by {@link #SHARED_SILENCE_FRACTION} once one of
     * them is past it.
     */
    private long silenceLimit(int start, int stride, int size) {
        long longest = 0;
        for (int i = 0, pe = start; i < size; i++, pe += stride) {
            if (pe != table.myPe() && table.isRemote(pe)) {
                longest = Math.max(longest, silence(pe));
            }
        }
        return longest >= silenceNanos ? silenceNanos - silenceNanos / SHARED_SILENCE_FRACTION : silenceNanos;
    }

    private boolean alive(int pe, long silenceLimit) {
        if (table.isRemote(pe)) {
            return silence(pe) < silenceLimit;
        }
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

    /** How long the heartbeat of {@code pe} (on another node) has not advanced, in nanoseconds. */
    private long silence(int pe) {
        long beat = table.heartbeat(pe);
        long now = clock.getAsLong();
        if (beat != lastBeat[pe]) {
            lastBeat[pe] = beat;
            lastBeatSeen[pe] = now;
        }
        return now - lastBeatSeen[pe];
    }
}
