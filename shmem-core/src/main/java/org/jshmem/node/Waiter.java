package org.jshmem.node;

import org.jshmem.WaitTimeoutException;

/**
 * How a PE waits: busy-spin first (lowest latency when every PE has a core), then yield the CPU
 * (PEs that outnumber cores get to run), then park briefly (stop burning a core on long waits).
 * With the remote transport each step enters MPI, and the wait never parks, as MPI's own blocking
 * calls poll: the atomics of other nodes aimed at this PE complete only while it is in MPI, so a
 * park (20 us, 60-80 us with the kernel's timer slack) would become their latency.
 * Every so often it asks the {@link PeWatch} whether the PEs being waited for are still alive,
 * so a wait on a dead PE ends in an exception instead of a hang; a wait that goes on past the
 * timeout ({@code JSHMEM_WAIT_TIMEOUT}) while they are alive ends in a {@link WaitTimeoutException},
 * which the caller completes with what it waits for ({@link #stuck}).
 *
 * <p>Use: {@code for (int n = 0; !condition(); ) n = waiter.idle(n, "barrierAll");}
 */
public final class Waiter {
    private static final int YIELDS = 20_000;
    private static final long PARK_NANOS = 20_000;
    private static final int CHECK_MASK = 255;
    /**
     * With the remote transport and a core per PE, a wait past its spins polls MPI and yields only
     * every 64th step, as MPI's own blocking calls poll without yielding unless the node is
     * oversubscribed: a yield on every step (about a microsecond) would add about that much to each
     * request served from a wait ({@code perf put_latency}, messages protocol).
     */
    private static final int POLL_YIELD_MASK = 63;

    /** When the current wait of each thread was first checked (System.nanoTime). */
    private static final ThreadLocal<long[]> WAIT_START = ThreadLocal.withInitial(() -> new long[1]);

    private final int spins;
    private final PeWatch watch;
    private final Runnable progress;
    private final int myPe;
    private final long timeoutNanos;

    public Waiter(int spinIterations, PeWatch watch) {
        this(spinIterations, watch, null, 0, 0);
    }

    /**
     * @param progress run on every step, or null: the remote transport's progress, so that atomics
     *                 other nodes aim at this PE complete while it waits (Open MPI applies them
     *                 only inside an MPI call of the target)
     * @param myPe     this PE, for the message of a timeout
     * @param timeoutMillis how long one wait may last before it throws {@link WaitTimeoutException}; 0: forever
     */
    public Waiter(int spinIterations, PeWatch watch, Runnable progress, int myPe, long timeoutMillis) {
        this.spins = spinIterations;
        this.watch = watch;
        this.progress = progress;
        this.myPe = myPe;
        this.timeoutNanos = timeoutMillis * 1_000_000;
    }

    /**
     * One idle step of a wait; returns the next step number.
     *
     * @param step   0 on the first call of a wait, then the value returned before
     * @param waitingIn what the caller waits in, for the error message if a PE is found dead
     */
    public int idle(int step, String waitingIn) {
        return idle(step, waitingIn, 0, 1, Integer.MAX_VALUE);
    }

    /**
     * Like {@link #idle(int, String)} in a wait for the members of a team only (world PEs
     * {@code start + i * stride}, {@code i < size}): only they are checked for liveness.
     */
    public int idle(int step, String waitingIn, int start, int stride, int size) {
        if (progress != null) {
            progress.run();
        }
        if (step < spins) {
            Thread.onSpinWait();
        } else if (progress != null) {   // never parked: a park delays every request and atomic aimed at this PE
            if (spins == 0 || (step & POLL_YIELD_MASK) == 0) {
                Thread.yield();
            } else {
                Thread.onSpinWait();
            }
        } else if (step < spins + YIELDS) {
            Thread.yield();
        } else {
            java.util.concurrent.locks.LockSupport.parkNanos(PARK_NANOS);
        }
        if ((step & CHECK_MASK) == CHECK_MASK) {
            if (size == Integer.MAX_VALUE) {
                watch.checkPeriodically(waitingIn);
            } else {
                watch.checkPeriodically(waitingIn, start, stride, size);
            }
            if (timeoutNanos > 0) {
                // timed from the first check, so that a short wait pays nothing for the timeout
                long[] started = WAIT_START.get();
                if (step == CHECK_MASK) {
                    started[0] = System.nanoTime();
                }
                long waited = System.nanoTime() - started[0];
                if (waited > timeoutNanos) {
                    throw new WaitTimeoutException("PE " + myPe + ": " + waitingIn + " made no progress for "
                            + seconds(waited) + " s (JSHMEM_WAIT_TIMEOUT=" + seconds(timeoutNanos) + ")",
                            waitingIn, waited / 1_000_000);
                }
            }
        }
        return step == Integer.MAX_VALUE ? spins + YIELDS : step + 1;
    }

    /**
     * Completes a timeout with what the call waited for and what it saw ({@code detail}), prints
     * the message whole on standard error, so that every stuck PE names its wait, and returns it
     * for the caller to throw.
     */
    public static WaitTimeoutException stuck(WaitTimeoutException e, String detail) {
        WaitTimeoutException full = new WaitTimeoutException(e.getMessage() + ": " + detail, e.call(), e.waitedMillis());
        System.err.println("jshmem: " + full.getMessage());
        return full;
    }

    private static String seconds(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.1f", nanos / 1e9);
    }
}
