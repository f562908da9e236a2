package org.jshmem;

/**
 * A collective call (allocation, barrier, collective) that the PEs made with different
 * arguments, thrown on every PE; the message lists what each PE passed. Detected on every
 * symmetric allocation call (malloc, calloc, align, mallocWithHints, realloc, free), which then
 * leaves the heap as it was, and on the teams' collectives when {@code JSHMEM_DEBUG=1}.
 */
public final class CollectiveMismatchException extends ShmemException {
    private static final long serialVersionUID = 1L;

    public CollectiveMismatchException(String message) {
        super(message);
    }
}
