package org.jshmem;

/** A GPU runtime call failed; the message names the call and the runtime's error string. */
public final class GpuException extends ShmemException {
    private static final long serialVersionUID = 1L;

    public GpuException(String message) {
        super(message);
    }
}
