package org.jshmem;

/**
 * Base class of every error jshmem reports. Messages say what was wrong, where (the call, the
 * PE, the offset) and how to fix it. An operation that throws has touched no memory.
 */
public class ShmemException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ShmemException(String message) {
        super(message);
    }

    public ShmemException(String message, Throwable cause) {
        super(message, cause);
    }
}
