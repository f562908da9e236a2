package org.jshmem.node;

import java.io.PrintStream;
import java.util.Optional;
import org.jshmem.PeFailedException;
import org.jshmem.remote.DaemonLoop;
import org.jshmem.remote.MpiCall;
import org.jshmem.remote.RemoteTransport;

/**
 * The last resort when a PE of another node dies while this PE is inside an MPI call to it: a
 * daemon thread that never enters MPI. Open MPI 4.1 retries a put to a dead process forever inside
 * the call, so the thread in it can neither return nor throw, and a survivor would hang (its
 * heartbeat publisher, its barrier, its {@code close()}). Every liveness interval the watchdog
 * checks the PEs with a {@link PeWatch} of its own; when one died (not one that only closed
 * early: a call to a live process returns) and a call of the
 * {@link RemoteTransport} has not returned for as long as a heartbeat may be silent, it prints the
 * {@link PeFailedException} a wait would have thrown (naming the dead PEs and the call), marks this
 * PE stopped after its peers in its node's file (so that the PEs of its node name the first
 * failure, not this PE) and ends the process with exit code 1. It halts rather than exits:
 * shutdown hooks would enter MPI and hang the same way. A PE that waits outside MPI meanwhile gets
 * the exception from its own wait, as on one node.
 */
final class RemoteWatchdog implements AutoCloseable {
    /** Exit code of a PE the watchdog ends. */
    static final int EXIT_CODE = 1;

    private final RemoteTransport remote;
    private final PeWatch watch;
    private final long stuckNanos;
    private final Runnable markStopped;
    private final int myPe;
    private final PrintStream err;
    private final DaemonLoop loop;
    private volatile boolean closed;   // read by look(), which may run before the constructor has set loop

    /**
     * Starts the watchdog.
     *
     * @param remote         the transport whose calls it times
     * @param watch          a PeWatch for this thread alone (it keeps per-PE state)
     * @param intervalMillis how often it looks
     * @param markStopped    marks this PE stopped after its peers, in its node's file only (no MPI)
     * @param myPe           this PE, for the report
     * @param err            where the report goes
     */
    RemoteWatchdog(RemoteTransport remote, PeWatch watch, long intervalMillis, Runnable markStopped, int myPe,
                   PrintStream err) {
        this.remote = remote;
        this.watch = watch;
        this.stuckNanos = Math.max(watch.silenceNanos(), 2 * intervalMillis * 1_000_000L);
        this.markStopped = markStopped;
        this.myPe = myPe;
        this.err = err;
        this.loop = new DaemonLoop("jshmem-watchdog-PE" + myPe, intervalMillis * 1_000_000L, this::look);
    }

    private void look() {
        Optional<MpiCall> call = remote.oldestCall();
        try {
            watch.checkNow(call.map(MpiCall::toString).orElse("no MPI call"));
        } catch (PeFailedException e) {
            // only a death ends this PE (below): a call to a PE that closed early or stopped after others returns
        }
        PeFailedException dead = watch.deathSeen();
        if (dead != null && !closed && call.isPresent() && call.get().elapsedNanos() >= stuckNanos) {
            err.println("jshmem: " + dead.getClass().getName() + ": " + dead.getMessage() + " MPI does not return from"
                    + " a call to a process that is gone, so PE " + myPe + " ends here (exit code " + EXIT_CODE + ").");
            err.flush();
            markStopped.run();
            Runtime.getRuntime().halt(EXIT_CODE);
        }
    }

    /** Stops the watchdog and waits for it. */
    @Override
    public void close() {
        closed = true;
        loop.close();
    }
}
