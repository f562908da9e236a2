package org.jshmem.runtime;

import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.spi.Collectives;
import org.jshmem.spi.TeamLayout;
import org.jshmem.trace.Trace;

/**
 * The collectives of a traced PE: each call is a span named after it, with the team's slot and the
 * bytes this PE contributes (the root as peer of a broadcast). Only traced PEs have this layer.
 */
public final class TracedCollectives implements Collectives {
    private final Collectives inner;
    private final Trace trace;

    public TracedCollectives(Collectives inner, Trace trace) {
        this.inner = inner;
        this.trace = trace;
    }

    @Override
    public void sync(TeamLayout team) {
        long t = trace.begin("sync");
        inner.sync(team);
        trace.end("sync", "barrier", t, -1, -1, team.slot());
    }

    @Override
    public void broadcast(TeamLayout team, long dest, long src, long bytes, int root) {
        long t = trace.begin("broadcast");
        inner.broadcast(team, dest, src, bytes, root);
        trace.end("broadcast", "collective", t, team.worldPe(root), bytes, team.slot());
    }

    @Override
    public void fcollect(TeamLayout team, long dest, long src, long bytes) {
        long t = trace.begin("fcollect");
        inner.fcollect(team, dest, src, bytes);
        trace.end("fcollect", "collective", t, -1, bytes, team.slot());
    }

    @Override
    public long collect(TeamLayout team, long dest, long destCapacity, long src, long bytes) {
        long t = trace.begin("collect");
        long total = inner.collect(team, dest, destCapacity, src, bytes);
        trace.end("collect", "collective", t, -1, bytes, team.slot());
        return total;
    }

    @Override
    public void alltoall(TeamLayout team, long dest, long src, long bytesPerPe) {
        long t = trace.begin("alltoall");
        inner.alltoall(team, dest, src, bytesPerPe);
        trace.end("alltoall", "collective", t, -1, bytesPerPe * team.size(), team.slot());
    }

    @Override
    public void reduce(TeamLayout team, ReduceOp op, DType type, long dest, long src, long nelems) {
        long t = trace.begin("reduce");
        inner.reduce(team, op, type, dest, src, nelems);
        trace.end("reduce", "collective", t, -1, nelems * type.byteSize(), team.slot());
    }

    @Override
    public void reduceScatter(TeamLayout team, ReduceOp op, DType type, long dest, long src, long nelemsPerPe) {
        long t = trace.begin("reduceScatter");
        inner.reduceScatter(team, op, type, dest, src, nelemsPerPe);
        trace.end("reduceScatter", "collective", t, -1, nelemsPerPe * team.size() * type.byteSize(), team.slot());
    }

    @Override
    public void sumScan(TeamLayout team, DType type, long dest, long src, long nelems, boolean inclusive) {
        long t = trace.begin(inclusive ? "sumInscan" : "sumExscan");
        inner.sumScan(team, type, dest, src, nelems, inclusive);
        trace.end(inclusive ? "sumInscan" : "sumExscan", "collective", t, -1, nelems * type.byteSize(), team.slot());
    }

    @Override
    public String describe() {
        return inner.describe();
    }
}
