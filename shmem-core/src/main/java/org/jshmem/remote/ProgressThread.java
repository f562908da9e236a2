package org.jshmem.remote;

/**
 * A daemon thread per PE while the remote transport runs: every {@code intervalMicros} it enters
 * MPI ({@link RemoteTransport#progress()}), so that operations other nodes aim at this PE complete
 * while the PE computes outside jshmem (Open MPI applies one-sided atomics only inside an MPI call
 * of the target; two-sided requests are applied by whoever serves them), and every {@code beatMillis} it runs {@code beat}, the PE's heartbeat, by which PEs of
 * other nodes tell that it is alive. While the PE's own threads drive MPI (a call in progress, or
 * a flush or probe since it last looked), it does not enter MPI and parks twice as long each time,
 * up to {@link #MAX_BACKOFF} intervals: on a PE bound to one core, its wake-ups take time from the
 * program's own calls (small puts reach MPI's bandwidth only with the thread nearly off; measured by
 * {@code scripts/remote/protocol-bench.sh}, docs/performance.md). So the first atomic
 * another node aims at this PE after the program stops calling MPI may wait that much longer,
 * once. It stops at {@link #close()}. When MPI reports a failure (a peer died) it stops entering
 * MPI for progress but keeps the heartbeat going, so that the survivors do not take one another
 * for dead.
 */
public final class ProgressThread implements AutoCloseable {
    /** The longest park, in intervals, while the PE's own threads drive MPI. */
    static final int MAX_BACKOFF = 32;

    private final RemoteTransport transport;
    private final long intervalNanos;
    private final long maxParkNanos;
    private final long beatNanos;
    private long parkNanos;
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
        this.intervalNanos = intervalMicros * 1_000L;
        this.beatNanos = beatMillis * 1_000_000L;
        this.maxParkNanos = Math.max(intervalNanos, Math.min(beatNanos, MAX_BACKOFF * intervalNanos));
        this.parkNanos = intervalNanos;
        this.beat = beat;
        this.loop = new DaemonLoop(name, this::step);
    }

    private long step() {
        if (progressing && transport.drivenByOthersWithin(parkNanos)) {
            parkNanos = Math.min(2 * parkNanos, maxParkNanos);
        } else if (progressing) {
            parkNanos = intervalNanos;
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
        return parkNanos;
    }

    /** Stops the thread and waits for it (it leaves MPI before this returns, unless a call does not return). */
    @Override
    public void close() {
        loop.close();
    }
}
