package org.jshmem;

/**
 * The threading a program asks of jshmem at {@link Shmem#init(ThreadLevel)} (OpenSHMEM 1.5's
 * {@code SHMEM_THREAD_*}), weakest first. jshmem provides {@link #MULTIPLE} whatever is asked:
 * the level only states what the program promises, and with {@code JSHMEM_DEBUG=1} the promises
 * of {@link #SINGLE} and {@link #FUNNELED} are checked (a call from another thread throws
 * {@link ShmemStateException}); {@link #SERIALIZED} is not checked.
 */
public enum ThreadLevel {
    /** The program has one thread. */
    SINGLE,
    /** Only the thread that called {@code init} calls jshmem. */
    FUNNELED,
    /** Any thread may call jshmem, never two at the same time. */
    SERIALIZED,
    /**
     * Any thread, at any time: puts, gets, atomics, signals and waits concurrently; collective calls
     * (allocation, barriers, team calls, close) still one thread at a time per PE, as OpenSHMEM says.
     */
    MULTIPLE
}
