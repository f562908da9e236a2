package org.jshmem;

import java.util.OptionalLong;

/**
 * What a program promises about the operations of a session on a context (OpenSHMEM 1.6's
 * {@code shmem_session_start} options and configuration), so that an implementation may batch or
 * reorder them. Hints only: jshmem issues every operation as it comes, in a session or not.
 *
 * @param sameAmo  the session's atomics all apply the same operation ({@code SHMEM_SESSION_SAME_AMO})
 * @param totalOps how many operations the session issues, if known ({@code total_ops} with
 *                 {@code SHMEM_SESSION_TOTAL_OPS}); positive
 */
public record SessionHints(boolean sameAmo, OptionalLong totalOps) {
    /** No promise. */
    public static final SessionHints NONE = new SessionHints(false, OptionalLong.empty());

    public SessionHints {
        java.util.Objects.requireNonNull(totalOps, "totalOps");
        if (totalOps.isPresent() && totalOps.getAsLong() <= 0) {
            throw new IllegalArgumentException("a session's total operation count must be positive, got "
                    + totalOps.getAsLong() + "; leave it empty when it is not known");
        }
    }
}
