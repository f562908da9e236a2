package org.jshmem;

/**
 * A collective call (allocation, barrier, collective) that the PEs made with different
 * arguments. Detected when {@code JSHMEM_DEBUG=1}; the message lists what each PE passed.
 */
public final class CollectiveMismatchException extends ShmemException {
    private static final long serialVersionUID = 1L;

    public CollectiveMismatchException(String message) {
        super(message);
    }
}
