package org.jshmem.device;

import org.jshmem.ShmemException;

/** Run-time compilation of kernel source failed; {@link #log()} is the compiler's output. */
public final class CompileException extends ShmemException {
    private static final long serialVersionUID = 1L;
    private final String log;

    public CompileException(String message, String log) {
        super(message + (log.isBlank() ? "" : "\n--- compiler log ---\n" + log.strip()));
        this.log = log;
    }

    /** The compiler's log. */
    public String log() {
        return log;
    }
}
