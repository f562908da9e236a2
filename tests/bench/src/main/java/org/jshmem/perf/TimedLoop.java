package org.jshmem.perf;

/**
 * One timed repetition of a benchmark case in some {@link Form}: every PE calls
 * {@link #run(long)} at the same time (the harness puts a barrier before it), and the time PE 0
 * returns is the measurement. The loop includes what completes the operations (a quiet, the
 * wait of a ping-pong, the barrier of a bidirectional test), never the barrier before it.
 */
@FunctionalInterface
public interface TimedLoop {
    /**
     * Issues {@code iterations} operations of the case and returns the nanoseconds they took
     * as seen by this PE (only PE 0's figure is used).
     */
    long run(long iterations);
}
