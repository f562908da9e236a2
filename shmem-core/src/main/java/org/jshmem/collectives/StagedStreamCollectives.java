package org.jshmem.collectives;

import java.lang.foreign.MemorySegment;
import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.ShmemStateException;
import org.jshmem.spi.Backend;
import org.jshmem.spi.Collectives;
import org.jshmem.spi.StreamCapability;
import org.jshmem.spi.StreamCollectives;
import org.jshmem.spi.TeamLayout;

/**
 * The on-stream collectives as their blocking forms once the stream is idle: for teams whose
 * members a kernel cannot reach (PEs of other nodes, whose heaps are not mapped here). Each call
 * waits for the work queued on its stream, runs the blocking collective and returns; work queued
 * after it sees the result. The call is complete on return, where the GPU forms return at once.
 * The collects pull each block with the backend's copies, as the GPU forms do, so that they take a
 * source inside the destination (in place), which the blocking forms refuse.
 */
public final class StagedStreamCollectives implements StreamCollectives {
    private final Collectives blocking;
    private final Backend backend;
    private final StreamCapability streams;

    public StagedStreamCollectives(Collectives blocking, Backend backend, StreamCapability streams) {
        this.blocking = blocking;
        this.backend = backend;
        this.streams = streams;
    }

    /**
     * Waits until {@code stream} is idle, the staged forms' first step; refused while the stream is
     * being captured into a graph, which cannot hold work the host does.
     */
    private void waitForIdle(MemorySegment stream) {
        if (streams.capturing(stream)) {
            throw new ShmemStateException("an on-stream collective in a job across nodes cannot be captured in a"
                    + " graph: jshmem reaches PEs of other nodes from the host, which a graph cannot replay; capture"
                    + " only work among this node's PEs, or queue this call outside the capture");
        }
        streams.streamSynchronize(stream);
    }

    @Override
    public void reduceOnStream(TeamLayout team, ReduceOp op, DType type, long dest, long src, long nelems,
                               MemorySegment stream) {
        StreamCollectives.requireAligned("reduction", type, dest, src);
        waitForIdle(stream);
        blocking.reduce(team, op, type, dest, src, nelems);
    }

    @Override
    public void reduceScatterOnStream(TeamLayout team, ReduceOp op, DType type, long dest, long src, long nelemsPerPe,
                                      MemorySegment stream) {
        StreamCollectives.requireAligned("reduce-scatter", type, dest, src);
        waitForIdle(stream);
        blocking.reduceScatter(team, op, type, dest, src, nelemsPerPe);
    }

    @Override
    public void fcollectOnStream(TeamLayout team, long dest, long src, long bytes, MemorySegment stream) {
        waitForIdle(stream);
        blocking.fcollect(team, dest, src, bytes);
    }

    @Override
    public void collectOnStream(TeamLayout team, long dest, long src, long[] bytesPerMember, MemorySegment stream) {
        pull(team, dest, src, bytesPerMember, -1, 0, true, stream);
    }

    @Override
    public void collectSignalOnStream(TeamLayout team, long dest, long src, long[] bytesPerMember, long signals,
                                      long signal, boolean ownBlock, MemorySegment stream) {
        pull(team, dest, src, bytesPerMember, signals, signal, ownBlock, stream);
    }

    /**
     * The collect as the GPU form makes it: once every member's source is ready, each member brings
     * every block into its {@code dest} (the member's own {@code dest} block when {@code src} is this
     * PE's block of {@code dest}: in place), and with {@code signals >= 0} sets block i's signal
     * after it (without {@code ownBlock}, this PE's own block neither); then no member changes its
     * source until all have read it.
     */
    private void pull(TeamLayout team, long dest, long src, long[] bytesPerMember, long signals, long signal,
                      boolean ownBlock, MemorySegment stream) {
        waitForIdle(stream);
        int n = team.size();
        int meIndex = team.myIndex();
        int me = team.worldPe(meIndex);
        long[] at = new long[n + 1];
        for (int i = 0; i < n; i++) {
            at[i + 1] = at[i] + bytesPerMember[i];
        }
        boolean inPlace = src == dest + at[meIndex];
        blocking.sync(team);
        for (int k = 1; k <= (ownBlock ? n : n - 1); k++) {   // from the next member on, this PE's own block last
            int i = (meIndex + k) % n;
            if (bytesPerMember[i] > 0 && (i != meIndex || !inPlace)) {
                backend.copy(me, dest + at[i], team.worldPe(i), inPlace ? dest + at[i] : src, bytesPerMember[i], false);
            }
            if (signals >= 0) {
                backend.store(me, signals + (long) i * Long.BYTES, Long.BYTES, signal);
            }
        }
        blocking.sync(team);
    }

    @Override
    public void alltoallOnStream(TeamLayout team, long dest, long src, long bytesPerPe, MemorySegment stream) {
        waitForIdle(stream);
        blocking.alltoall(team, dest, src, bytesPerPe);
    }

    @Override
    public void broadcastOnStream(TeamLayout team, long dest, long src, long bytes, int root, MemorySegment stream) {
        waitForIdle(stream);
        blocking.broadcast(team, dest, src, bytes, root);
    }

    @Override
    public void barrierOnStream(TeamLayout team, MemorySegment stream) {
        waitForIdle(stream);
        backend.quiet();
        blocking.sync(team);
    }

    @Override
    public void syncOnStream(TeamLayout team, MemorySegment stream) {
        waitForIdle(stream);
        blocking.sync(team);
    }
}
