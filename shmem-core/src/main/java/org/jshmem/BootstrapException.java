package org.jshmem;

/** Start-up failed: the launcher, MPI, the shared-memory mapping or the device could not be set up. */
public final class BootstrapException extends ShmemException {
    private static final long serialVersionUID = 1L;

    public BootstrapException(String message) {
        super(message);
    }

    public BootstrapException(String message, Throwable cause) {
        super(message, cause);
    }
}
