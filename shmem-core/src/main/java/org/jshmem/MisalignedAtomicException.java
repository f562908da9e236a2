package org.jshmem;

/** An atomic or signal operation on an address that is not a multiple of its width. */
public final class MisalignedAtomicException extends ShmemException {
    private static final long serialVersionUID = 1L;

    public MisalignedAtomicException(String message) {
        super(message);
    }
}
