package org.jshmem.bootstrap;

/**
 * How the PEs of a job find each other at start-up: ranks, node-local ranks, and two collective
 * exchanges. Used only while setting up and tearing down (and by debug checks); data never moves
 * through it. An interface so that jshmem can start under other launchers, and tests without MPI.
 */
public interface Bootstrap extends AutoCloseable {
    /** Where a process sits: its rank in the job and on its node, and the sizes of both. */
    record Placement(int rank, int size, int localRank, int localSize) {
    }

    /** This process's place, fixed when the bootstrap starts. */
    Placement placement();

    /** This process's rank in the job, {@code 0 .. size()-1}; it becomes the PE number. */
    default int rank() {
        return placement().rank();
    }

    /** Number of processes in the job. */
    default int size() {
        return placement().size();
    }

    /** Rank among the processes on this node. */
    default int localRank() {
        return placement().localRank();
    }

    /** Number of processes on this node. */
    default int localSize() {
        return placement().localSize();
    }

    /**
     * Collective: every process passes {@code mine} (same length everywhere) and gets all of them,
     * rank 0's first.
     */
    byte[] allgather(byte[] mine);

    /** Collective: returns when every process has called it. */
    void barrier();

    /** Short description for messages, e.g. "OpenMPI 4.1.4 (mpirun)". */
    String describe();

    /** Ends this bootstrap (finalizes MPI if it started it). */
    @Override
    void close();
}
