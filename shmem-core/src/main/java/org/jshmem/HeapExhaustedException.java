package org.jshmem;

/** A symmetric allocation that does not fit in what is left of the heap. */
public final class HeapExhaustedException extends ShmemException {
    private static final long serialVersionUID = 1L;
    private final long requested;
    private final long free;

    public HeapExhaustedException(String message, long requested, long free) {
        super(message);
        this.requested = requested;
        this.free = free;
    }

    /** Bytes asked for. */
    public long requested() {
        return requested;
    }

    /** Bytes free in the heap in total (possibly fragmented) when the request failed. */
    public long free() {
        return free;
    }
}
