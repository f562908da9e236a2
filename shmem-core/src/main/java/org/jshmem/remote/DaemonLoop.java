package org.jshmem.remote;

import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * A daemon thread that runs a step, then parks for an interval, until {@link #close()}: the shape
 * of the remote transport's helper threads ({@link ProgressThread}, the node's watchdog).
 */
public final class DaemonLoop implements AutoCloseable {
    private final Thread thread;
    private volatile boolean running = true;

    /**
     * Starts the thread.
     *
     * @param name          the thread's name
     * @param intervalNanos how long it parks after each step
     * @param step          what it runs; an exception it throws ends the thread
     */
    public DaemonLoop(String name, long intervalNanos, Runnable step) {
        this(name, () -> {
            step.run();
            return intervalNanos;
        });
    }

    /**
     * Starts the thread, with a step that returns how long to park after it.
     *
     * @param name the thread's name
     * @param step what it runs, returning the nanoseconds to park; an exception it throws ends the thread
     */
    public DaemonLoop(String name, LongSupplier step) {
        thread = Thread.ofPlatform().daemon().name(name).unstarted(() -> {
            while (running) {
                LockSupport.parkNanos(step.getAsLong());
            }
        });
        thread.start();
    }

    /** False once {@link #close()} began: a step in progress may then stop early. */
    public boolean running() {
        return running;
    }

    /** Stops the thread and waits for it, at most 2 s: a step inside a call to a dead peer may not return. */
    @Override
    public void close() {
        running = false;
        LockSupport.unpark(thread);
        try {
            thread.join(java.time.Duration.ofSeconds(2));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
