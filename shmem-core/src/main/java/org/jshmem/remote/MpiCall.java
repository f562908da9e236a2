package org.jshmem.remote;

/**
 * An MPI call of the remote transport that has not returned yet.
 *
 * @param name         the MPI function, e.g. {@code MPI_Win_flush}
 * @param rank         the target PE, or -1 for a call to every PE (a flush of all, a progress call)
 * @param thread       the name of the thread in the call
 * @param elapsedNanos how long it has been in the call, timed from the first time the clock was asked and saw it
 */
public record MpiCall(String name, int rank, String thread, long elapsedNanos) {
    /** E.g. "MPI_Put to PE 3 (thread main, 5.2 s)". */
    @Override
    public String toString() {
        return name + (rank >= 0 ? " to PE " + rank : "") + " (thread " + thread + ", "
                + String.format(java.util.Locale.ROOT, "%.1f s", elapsedNanos / 1e9) + ")";
    }
}
