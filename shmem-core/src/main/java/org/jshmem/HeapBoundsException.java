package org.jshmem;

/** An offset or length that reaches outside a symmetric allocation or outside the heap. */
public final class HeapBoundsException extends ShmemException {
    private static final long serialVersionUID = 1L;

    public HeapBoundsException(String message) {
        super(message);
    }
}
