package org.jshmem.remote;

/**
 * A daemon thread per PE while the remote transport runs: every {@code intervalMicros} it enters
 * MPI ({@link RemoteTransport#progress()}), so that atomics other nodes aim at this PE complete
 * while the PE computes outside jshmem (Open MPI applies them only inside an MPI call of the
 * target), and every {@code beatMillis} it runs {@code beat}, the PE's heartbeat, by which PEs of
 * other nodes tell that it is alive. It stops at {@link #close()}. When MPI reports a failure (a
 * peer died) it stops entering MPI for progress but keeps the heartbeat going, so that the
 * survivors do not take one another for dead.
 */
public final class ProgressThread implements AutoCloseable {
    private final RemoteTransport transport;
    private final long beatNanos;
    private final Runnable beat;
    private final DaemonLoop loop;
    private long nextBeat = System.nanoTime();
    private boolean progressing = true;

    /**
     * Starts the thread.
     *
     * @param transport      the transport to drive
     * @param intervalMicros how often it enters MPI
     * @param beatMillis     how often it runs {@code beat}
     * @param beat           the heartbeat; may publish through the transport
     * @param name           the thread's name
     */
    public ProgressThread(RemoteTransport transport, long intervalMicros, long beatMillis, Runnable beat, String name) {
        this.transport = transport;
        this.beatNanos = beatMillis * 1_000_000L;
        this.beat = beat;
        this.loop = new DaemonLoop(name, intervalMicros * 1_000L, this::step);
    }

    private void step() {
        if (progressing) {
            try {
                transport.progress();
            } catch (RuntimeException e) {
                progressing = false;   // MPI reports a dead peer: the PE's waits name it; the heartbeat goes on
            }
        }
        long now = System.nanoTime();
        if (now - nextBeat >= 0) {
            beat.run();                // never throws: a node it cannot reach does not stop the others' beats
            nextBeat = now + beatNanos;
        }
    }

    /** Stops the thread and waits for it (it leaves MPI before this returns, unless a call does not return). */
    @Override
    public void close() {
        loop.close();
    }
}
