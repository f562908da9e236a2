package org.jshmem;

import java.util.List;

/**
 * Another PE of the job died (killed, crashed, or exited without finishing) while this PE was
 * waiting for or talking to it. The job cannot continue; the message names the PEs.
 */
public final class PeFailedException extends ShmemException {
    private static final long serialVersionUID = 1L;
    private final List<Integer> failedPes;

    public PeFailedException(String message, List<Integer> failedPes) {
        super(message);
        this.failedPes = List.copyOf(failedPes);
    }

    /** The PEs found dead, in increasing order. */
    public List<Integer> failedPes() {
        return failedPes;
    }
}
