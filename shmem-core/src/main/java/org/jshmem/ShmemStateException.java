package org.jshmem;

/** A call made in the wrong state: before {@link Shmem#init()}, after close, on a freed allocation. */
public final class ShmemStateException extends ShmemException {
    private static final long serialVersionUID = 1L;

    public ShmemStateException(String message) {
        super(message);
    }
}
