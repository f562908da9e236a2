package org.jshmem.collectives;

import static org.jshmem.node.ControlDescriptor.SYNC_AUX;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.node.NodeBarrier;
import org.jshmem.spi.Backend;
import org.jshmem.spi.Collectives;
import org.jshmem.spi.TeamLayout;

/**
 * Collectives for any heap, moving data only with the backend's own operations: peer-to-peer
 * {@link Backend#copy} into this PE's heap for broadcast, fcollect, collect and alltoall, and for
 * reductions {@link Backend#get} of every member's slice into host buffers, a {@link Reducer} on
 * the host, and {@link Backend#put} of the result (two-shot: each PE reduces its 1/n slice, then
 * copies the others' slices from their owners). Members synchronise through the node's control
 * block. The blocking host-called form on heaps Java cannot read (GPU memory) until a backend
 * brings faster ones; {@code JSHMEM_COLLECTIVES=copy} selects it on the host heap too.
 */
public final class CopyCollectives implements Collectives {
    /** Bytes of each member's slice fetched to the host at a time in a reduction. */
    private static final long CHUNK = 256 << 10;

    private final Backend backend;
    private final NodeBarrier barrier;

    public CopyCollectives(Backend backend, NodeBarrier barrier) {
        this.backend = backend;
        this.barrier = barrier;
    }

    @Override
    public String describe() {
        return "copy collectives (backend copies, host reduction, two-shot)";
    }

    @Override
    public void sync(TeamLayout t) {
        sync(t, "Team.sync");
    }

    /** Completes this PE's copies, then waits for the members. */
    void sync(TeamLayout t, String call) {
        backend.quiet();
        barrier.sync(t.slot(), t.start(), t.stride(), t.size(), call);
    }

    void copyIn(TeamLayout t, long dest, int fromIndex, long src, long bytes) {
        if (bytes > 0) {
            backend.copy(t.myWorldPe(), dest, t.worldPe(fromIndex), src, bytes, false);
        }
    }

    @Override
    public void broadcast(TeamLayout t, long dest, long src, long bytes, int root) {
        if (t.myIndex() == root && dest != src) {
            copyIn(t, dest, root, src, bytes);
        }
        if (t.size() == 1) {
            return;
        }
        sync(t, "Team.broadcast");
        if (t.myIndex() != root) {
            copyIn(t, dest, root, src, bytes);
        }
        sync(t, "Team.broadcast");
    }

    @Override
    public void fcollect(TeamLayout t, long dest, long src, long bytes) {
        int n = t.size();
        int me = t.myIndex();
        copyIn(t, dest + me * bytes, me, src, bytes);
        if (n == 1) {
            return;
        }
        sync(t, "Team.fcollect");
        for (int k = 1; k < n; k++) {
            int j = (me + k) % n;
            copyIn(t, dest + j * bytes, j, src, bytes);
        }
        sync(t, "Team.fcollect");
    }

    @Override
    public long collect(TeamLayout t, long dest, long destCapacity, long src, long bytes) {
        int n = t.size();
        long[] counts = n == 1 ? new long[] {bytes} : exchange(t, bytes, "Team.collect");
        long[] at = new long[n + 1];
        for (int i = 0; i < n; i++) {
            at[i + 1] = at[i] + counts[i];
        }
        if (at[n] > destCapacity) {
            if (n > 1) {
                sync(t, "Team.collect");
            }
            throw Collectives.collectTooSmall(counts, dest, destCapacity);
        }
        copyBlocks(t, dest, at, src);
        if (n > 1) {
            sync(t, "Team.collect");
        }
        return at[n];
    }

    /** Team PE j's {@code src}, {@code at[j+1] - at[j]} bytes, into this PE's {@code dest + at[j]}, for every j. */
    void copyBlocks(TeamLayout t, long dest, long[] at, long src) {
        int n = t.size();
        for (int k = 0; k < n; k++) {
            int j = (t.myIndex() + k) % n;
            copyIn(t, dest + at[j], j, src, at[j + 1] - at[j]);
        }
    }

    /** Every member's {@code value}, in team order; a synchronisation of the team too. */
    long[] exchange(TeamLayout t, long value, String call) {
        return barrier.exchange(t.slot(), t.start(), t.stride(), t.size(), SYNC_AUX, value, call);
    }

    @Override
    public void alltoall(TeamLayout t, long dest, long src, long bytesPerPe) {
        int n = t.size();
        int me = t.myIndex();
        copyIn(t, dest + me * bytesPerPe, me, src + me * bytesPerPe, bytesPerPe);
        if (n == 1) {
            return;
        }
        sync(t, "Team.alltoall");
        for (int k = 1; k < n; k++) {
            int j = (me + k) % n;
            copyIn(t, dest + j * bytesPerPe, j, src + me * bytesPerPe, bytesPerPe);
        }
        sync(t, "Team.alltoall");
    }

    @Override
    public void reduce(TeamLayout t, ReduceOp op, DType type, long dest, long src, long nelems) {
        Reducer r = Reducer.of(type, op);
        int n = t.size();
        int me = t.myIndex();
        int size = type.byteSize();
        if (n == 1) {
            if (dest != src) {
                copyIn(t, dest, me, src, nelems * size);
            }
            return;
        }
        sync(t, "Team.reduce");
        long lo = Reducer.sliceStart(nelems, me, n);
        long hi = Reducer.sliceStart(nelems, me + 1, n);
        reduceInto(t, r, size, dest + lo * size, src + lo * size, hi - lo);
        sync(t, "Team.reduce");
        for (int k = 1; k < n; k++) {
            int j = (me + k) % n;
            long jlo = Reducer.sliceStart(nelems, j, n);
            long jhi = Reducer.sliceStart(nelems, j + 1, n);
            copyIn(t, dest + jlo * size, j, dest + jlo * size, (jhi - jlo) * size);
        }
        sync(t, "Team.reduce");
    }

    @Override
    public void reduceScatter(TeamLayout t, ReduceOp op, DType type, long dest, long src, long nelemsPerPe) {
        Reducer r = Reducer.of(type, op);
        int size = type.byteSize();
        long block = nelemsPerPe * size;
        if (t.size() == 1) {
            copyIn(t, dest, 0, src, block);
            return;
        }
        sync(t, "Team.reduceScatter");
        reduceInto(t, r, size, dest, src + t.myIndex() * block, nelemsPerPe);
        sync(t, "Team.reduceScatter");
    }

    /**
     * {@code dest[k] = src_0[k] op ... op src_{n-1}[k]} (team order) for {@code k < nelems}, into
     * this PE's {@code dest}, from every member's {@code src}.
     */
    private void reduceInto(TeamLayout t, Reducer r, int size, long dest, long src, long nelems) {
        int[] members = new int[t.size()];
        for (int i = 0; i < members.length; i++) {
            members[i] = t.worldPe(i);
        }
        reduceFrom(members, t.myWorldPe(), r, size, src, dest, nelems);
    }

    @Override
    public void sumScan(TeamLayout t, DType type, long dest, long src, long nelems, boolean inclusive) {
        PrefixSum.run(t, type, nelems, inclusive, () -> sync(t, "Team.sumScan"),
                (k, into) -> backend.get(into, t.worldPe(k), src), sum -> backend.put(t.myWorldPe(), dest, sum));
        backend.quiet();
    }

    /**
     * {@code dest[k] = src_0[k] op ... op src_{m-1}[k]} over the world PEs {@code pes} (in that
     * order) for {@code k < nelems}, into PE {@code myPe}'s {@code dest}: each PE's range fetched to
     * the host a chunk at a time, reduced there, and put back. {@code dest} may be one of the
     * sources on this PE (each chunk is read before it is written).
     */
    void reduceFrom(int[] pes, int myPe, Reducer r, int size, long src, long dest, long nelems) {
        int n = pes.length;
        long chunk = CHUNK / size;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment[] in = new MemorySegment[n];
            long[] zero = new long[n];
            for (int k = 0; k < n; k++) {
                in[k] = arena.allocate(Math.min(chunk, Math.max(nelems, 1)) * size, 64);
            }
            MemorySegment acc = arena.allocate(in[0].byteSize(), 64);
            for (long e = 0; e < nelems; e += chunk) {
                long m = Math.min(chunk, nelems - e);
                for (int k = 0; k < n; k++) {
                    backend.get(in[k].asSlice(0, m * size), pes[k], src + e * size);
                }
                r.reduce(acc, 0, in, zero, n, m);
                backend.put(myPe, dest + e * size, acc.asSlice(0, m * size));
            }
        }
    }
}
