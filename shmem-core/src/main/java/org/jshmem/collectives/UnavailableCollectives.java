package org.jshmem.collectives;

import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.host.NodeBarrier;

/**
 * Stands in for the collectives of a heap that has none in this build (one that Java cannot read
 * directly, such as GPU memory, before its backend brings its own): team synchronisation works,
 * data collectives throw {@link UnsupportedOperationException} naming the backend.
 */
public final class UnavailableCollectives implements Collectives {
    private final String backend;
    private final NodeBarrier barrier;

    public UnavailableCollectives(String backend, NodeBarrier barrier) {
        this.backend = backend;
        this.barrier = barrier;
    }

    @Override
    public String describe() {
        return "no data collectives for " + backend;
    }

    @Override
    public void sync(TeamLayout t) {
        barrier.sync(t.slot(), t.start(), t.stride(), t.size(), "Team.sync");
    }

    private UnsupportedOperationException missing(String call) {
        return new UnsupportedOperationException("Team." + call + ": the heap is in " + backend + ", and this build of"
                + " jshmem has no " + call + " for it. Use JSHMEM_BACKEND=host, or a build with the GPU collectives.");
    }

    @Override
    public void broadcast(TeamLayout team, long dest, long src, long bytes, int root) {
        throw missing("broadcast");
    }

    @Override
    public void fcollect(TeamLayout team, long dest, long src, long bytes) {
        throw missing("fcollect");
    }

    @Override
    public long collect(TeamLayout team, long dest, long destCapacity, long src, long bytes) {
        throw missing("collect");
    }

    @Override
    public void alltoall(TeamLayout team, long dest, long src, long bytesPerPe) {
        throw missing("alltoall");
    }

    @Override
    public void reduce(TeamLayout team, ReduceOp op, DType type, long dest, long src, long nelems) {
        throw missing("reduce");
    }
}
