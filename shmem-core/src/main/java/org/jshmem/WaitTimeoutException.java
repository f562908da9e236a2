package org.jshmem;

/**
 * A blocking host call (a wait, barrier, collective or lock) made no progress for
 * {@code JSHMEM_WAIT_TIMEOUT} seconds while every PE it waits for was alive: typically a signal or
 * put that no PE will send, or PEs that called different collectives. The message names the call,
 * what it waits for and what it sees, and, for synchronisations, which PEs have reached it.
 * Each stuck PE prints the message on its standard error before the exception is thrown.
 */
public final class WaitTimeoutException extends ShmemException {
    private static final long serialVersionUID = 1L;
    private final String call;
    private final long waitedMillis;

    public WaitTimeoutException(String message, String call, long waitedMillis) {
        super(message);
        this.call = call;
        this.waitedMillis = waitedMillis;
    }

    /** The API call that was waiting, e.g. {@code signalWaitUntil} or {@code barrierAll}. */
    public String call() {
        return call;
    }

    /** How long it waited without progress, in milliseconds. */
    public long waitedMillis() {
        return waitedMillis;
    }
}
