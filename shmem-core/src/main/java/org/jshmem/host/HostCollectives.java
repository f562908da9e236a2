package org.jshmem.host;

import static org.jshmem.node.ControlDescriptor.STAGE_HEADER;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.node.NodeBarrier;
import org.jshmem.node.NodeSharedMemory;
import org.jshmem.spi.Backend;
import org.jshmem.CollectiveTuning;
import org.jshmem.collectives.PrefixSum;
import org.jshmem.collectives.Reducer;
import org.jshmem.spi.Collectives;
import org.jshmem.spi.TeamLayout;

/**
 * Collectives on a heap in host memory, where every PE maps every other PE's heap: data moves by
 * plain reads of peers' memory (pull), and members synchronise through the node's control block.
 *
 * <ul>
 * <li><b>Staged</b> (a PE's contribution at most {@link CollectiveTuning#stagedMax()}): each PE
 *     copies its contribution into its staging buffer for the team, synchronises once, and reads
 *     what it needs from the members' buffers. The two buffers of a PE alternate with the parity of
 *     the team's barrier generation, so no closing synchronisation is needed: a buffer is written
 *     again only after every member has passed the barrier that follows its last read.</li>
 * <li><b>Direct</b>: synchronise (every source is ready), read the members' sources in place,
 *     synchronise again (no source is rewritten while a member still reads it).</li>
 * <li><b>Reductions</b> above the staged size: <i>one-shot</i> (every PE reduces the whole vector
 *     from every member's source) while {@code (n-1) x bytes} is at most
 *     {@link CollectiveTuning#reduceOneShotMax()}, else <i>two-shot</i>: each PE reduces its 1/n slice
 *     from every member into its own destination, synchronises, and copies the other slices from
 *     their owners' destinations (the work is split n ways, and each PE reads about two vectors
 *     instead of n). In place always takes two-shot or staged. Peers' data is bulk-copied a chunk at
 *     a time into a local buffer before it is reduced, which moves it between caches much faster
 *     than the reduction loop's own loads.</li>
 * </ul>
 *
 * <p>The defaults ({@link CollectiveTuning#DEFAULT}): staging (one synchronisation instead of two)
 * wins for small contributions, and two-shot beats one-shot once a few KiB make splitting the work
 * worth a second synchronisation; hence staging up to 2 KiB and one-shot while (n-1) x bytes is at
 * most 8 KiB. Measured on 2 and 4 PEs by {@code org.jshmem.perf.CollectivesBench} (with
 * {@code fresh} sources, as a producer rewrites them) and {@code perf reduce fcollect}
 * (docs/performance.md).
 * Every element is reduced in team order by exactly one rule, so all PEs get the same bits.
 * One thread at a time per PE (collectives are not reentrant).
 */
public final class HostCollectives implements Collectives {
    private static final ValueLayout.OfLong COUNT = ValueLayout.JAVA_LONG;

    private final MemorySegment[] heaps;
    private final long heapStart;
    private final NodeSharedMemory node;
    private final MemorySegment control;
    private final NodeBarrier barrier;
    private final CollectiveTuning limits;
    /** Where peers' chunks are copied before they are reduced: (n-1) x PULL_CHUNK bytes, grown on demand. */
    private MemorySegment pulled = MemorySegment.NULL;

    public HostCollectives(Backend backend, NodeSharedMemory node, NodeBarrier barrier, CollectiveTuning limits) {
        this.heaps = new MemorySegment[node.nPes()];
        for (int pe = 0; pe < heaps.length; pe++) {
            heaps[pe] = backend.peerHeap(pe);
            if (heaps[pe] == null) {
                throw new IllegalArgumentException("host collectives need host-accessible heaps; " + backend.describe()
                        + " has none for PE " + pe);
            }
        }
        this.heapStart = backend.heapStart();
        this.node = node;
        this.control = node.mapping();
        this.barrier = barrier;
        this.limits = limits;
    }

    @Override
    public String describe() {
        return "host collectives (pull): staged up to " + limits.stagedMax() + " B per PE, reduce one-shot while"
                + " (n-1) x bytes <= " + limits.reduceOneShotMax() + ", two-shot above";
    }

    @Override
    public void sync(TeamLayout t) {
        sync(t, "Team.sync");
    }

    private void sync(TeamLayout t, String call) {
        barrier.sync(t.slot(), t.start(), t.stride(), t.size(), call);
    }

    /** Which of its two staging buffers a PE uses in the team's next synchronisation. */
    private int parity(TeamLayout t) {
        return (int) (barrier.nextGeneration(t.slot()) & 1);
    }

    private long stageData(TeamLayout t, int index, int which) {
        return node.stageBuffer(t.slot(), t.worldPe(index), which) + STAGE_HEADER;
    }

    private MemorySegment heap(TeamLayout t, int index) {
        return heaps[t.worldPe(index)];
    }

    // ---------------------------------------------------------------- scans

    @Override
    public void sumScan(TeamLayout t, DType type, long dest, long src, long nelems, boolean inclusive) {
        PrefixSum.run(t, type, nelems, inclusive, () -> sync(t, "Team.sumScan"),
                (k, into) -> MemorySegment.copy(heap(t, k), src - heapStart, into, 0, into.byteSize()),
                sum -> MemorySegment.copy(sum, 0, heap(t, t.myIndex()), dest - heapStart, sum.byteSize()));
    }

    // ---------------------------------------------------------------- broadcast

    @Override
    public void broadcast(TeamLayout t, long dest, long src, long bytes, int root) {
        MemorySegment mine = heap(t, t.myIndex());
        long d = dest - heapStart;
        long s = src - heapStart;
        boolean isRoot = t.myIndex() == root;
        if (isRoot && d != s) {
            MemorySegment.copy(mine, s, mine, d, bytes);
        }
        if (t.size() == 1) {
            return;
        }
        if (bytes <= limits.stagedMax()) {
            int which = parity(t);
            if (isRoot) {
                MemorySegment.copy(mine, s, control, stageData(t, root, which), bytes);
            }
            sync(t, "Team.broadcast");
            if (!isRoot) {
                MemorySegment.copy(control, stageData(t, root, which), mine, d, bytes);
            }
            return;
        }
        sync(t, "Team.broadcast");
        if (!isRoot) {
            MemorySegment.copy(heap(t, root), s, mine, d, bytes);
        }
        sync(t, "Team.broadcast");
    }

    // ---------------------------------------------------------------- fcollect, collect, alltoall

    @Override
    public void fcollect(TeamLayout t, long dest, long src, long bytes) {
        int n = t.size();
        int me = t.myIndex();
        MemorySegment mine = heap(t, me);
        long d = dest - heapStart;
        long s = src - heapStart;
        MemorySegment.copy(mine, s, mine, d + me * bytes, bytes);
        if (n == 1) {
            return;
        }
        if (bytes <= limits.stagedMax()) {
            int which = parity(t);
            MemorySegment.copy(mine, s, control, stageData(t, me, which), bytes);
            sync(t, "Team.fcollect");
            for (int k = 1; k < n; k++) {
                int j = (me + k) % n;
                MemorySegment.copy(control, stageData(t, j, which), mine, d + j * bytes, bytes);
            }
            return;
        }
        sync(t, "Team.fcollect");
        for (int k = 1; k < n; k++) {
            int j = (me + k) % n;
            MemorySegment.copy(heap(t, j), s, mine, d + j * bytes, bytes);
        }
        sync(t, "Team.fcollect");
    }

    @Override
    public long collect(TeamLayout t, long dest, long destCapacity, long src, long bytes) {
        int n = t.size();
        int me = t.myIndex();
        MemorySegment mine = heap(t, me);
        long d = dest - heapStart;
        long s = src - heapStart;
        int which = parity(t);
        long header = node.stageBuffer(t.slot(), t.myWorldPe(), which);
        control.set(COUNT, header, bytes);
        boolean staged = bytes <= limits.stagedMax();
        if (staged && n > 1) {
            MemorySegment.copy(mine, s, control, header + STAGE_HEADER, bytes);
        }
        if (n > 1) {
            sync(t, "Team.collect");
        }
        long[] at = new long[n + 1];
        boolean allStaged = true;
        for (int i = 0; i < n; i++) {
            long c = i == me ? bytes : control.get(COUNT, node.stageBuffer(t.slot(), t.worldPe(i), which));
            allStaged &= c <= limits.stagedMax();
            at[i + 1] = at[i] + c;
        }
        long total = at[n];
        if (total > destCapacity) {
            if (!allStaged) {
                sync(t, "Team.collect");
            }
            throw Collectives.collectTooSmall(counts(at), dest, destCapacity);
        }
        MemorySegment.copy(mine, s, mine, d + at[me], bytes);
        for (int k = 1; k < n; k++) {
            int j = (me + k) % n;
            long c = at[j + 1] - at[j];
            if (allStaged) {
                MemorySegment.copy(control, stageData(t, j, which), mine, d + at[j], c);
            } else {
                MemorySegment.copy(heap(t, j), s, mine, d + at[j], c);
            }
        }
        if (!allStaged) {
            sync(t, "Team.collect");
        }
        return total;
    }

    private static long[] counts(long[] at) {
        long[] counts = new long[at.length - 1];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = at[i + 1] - at[i];
        }
        return counts;
    }

    @Override
    public void alltoall(TeamLayout t, long dest, long src, long bytesPerPe) {
        int n = t.size();
        int me = t.myIndex();
        MemorySegment mine = heap(t, me);
        long d = dest - heapStart;
        long s = src - heapStart;
        MemorySegment.copy(mine, s + me * bytesPerPe, mine, d + me * bytesPerPe, bytesPerPe);
        if (n == 1) {
            return;
        }
        if (n * bytesPerPe <= limits.stagedMax()) {
            int which = parity(t);
            MemorySegment.copy(mine, s, control, stageData(t, me, which), n * bytesPerPe);
            sync(t, "Team.alltoall");
            for (int k = 1; k < n; k++) {
                int j = (me + k) % n;
                MemorySegment.copy(control, stageData(t, j, which) + me * bytesPerPe, mine, d + j * bytesPerPe, bytesPerPe);
            }
            return;
        }
        sync(t, "Team.alltoall");
        for (int k = 1; k < n; k++) {
            int j = (me + k) % n;
            MemorySegment.copy(heap(t, j), s + me * bytesPerPe, mine, d + j * bytesPerPe, bytesPerPe);
        }
        sync(t, "Team.alltoall");
    }

    // ---------------------------------------------------------------- reduce

    @Override
    public void reduce(TeamLayout t, ReduceOp op, DType type, long dest, long src, long nelems) {
        Reducer r = Reducer.of(type, op);
        int n = t.size();
        int me = t.myIndex();
        int size = type.byteSize();
        long bytes = nelems * size;
        MemorySegment mine = heap(t, me);
        long d = dest - heapStart;
        long s = src - heapStart;
        if (n == 1) {
            if (d != s) {
                MemorySegment.copy(mine, s, mine, d, bytes);
            }
            return;
        }
        MemorySegment[] srcs = new MemorySegment[n];
        long[] offsets = new long[n];
        if (bytes <= limits.stagedMax()) {
            int which = parity(t);
            MemorySegment.copy(mine, s, control, stageData(t, me, which), bytes);
            for (int i = 0; i < n; i++) {
                srcs[i] = i == me ? mine : control;
                offsets[i] = i == me ? s : stageData(t, i, which);
            }
            sync(t, "Team.reduce");
            reducePulling(r, size, me, srcs, offsets, mine, d, nelems);
            return;
        }
        for (int i = 0; i < n; i++) {
            srcs[i] = heap(t, i);
            offsets[i] = s;
        }
        sync(t, "Team.reduce");
        if ((n - 1) * bytes <= limits.reduceOneShotMax() && d != s) {
            reducePulling(r, size, me, srcs, offsets, mine, d, nelems);
            sync(t, "Team.reduce");
            return;
        }
        long lo = Reducer.sliceStart(nelems, me, n);
        long hi = Reducer.sliceStart(nelems, me + 1, n);
        for (int i = 0; i < n; i++) {
            offsets[i] = s + lo * size;
        }
        reducePulling(r, size, me, srcs, offsets, mine, d + lo * size, hi - lo);
        sync(t, "Team.reduce");
        for (int k = 1; k < n; k++) {
            int j = (me + k) % n;
            long jlo = Reducer.sliceStart(nelems, j, n);
            long jhi = Reducer.sliceStart(nelems, j + 1, n);
            MemorySegment.copy(heap(t, j), d + jlo * size, mine, d + jlo * size, (jhi - jlo) * size);
        }
        sync(t, "Team.reduce");
    }

    /**
     * Each PE reduces its own block straight from the members' heaps (pulled a chunk at a time,
     * as the reductions are), between two syncs: the first so that every source is written, the
     * second so that no member rewrites its source while a peer still reads it.
     */
    @Override
    public void reduceScatter(TeamLayout t, ReduceOp op, DType type, long dest, long src, long nelemsPerPe) {
        Reducer r = Reducer.of(type, op);
        int n = t.size();
        int me = t.myIndex();
        int size = type.byteSize();
        long block = nelemsPerPe * size;
        MemorySegment mine = heap(t, me);
        long d = dest - heapStart;
        long s = src - heapStart + me * block;
        if (n == 1) {
            MemorySegment.copy(mine, s, mine, d, block);
            return;
        }
        MemorySegment[] srcs = new MemorySegment[n];
        long[] offsets = new long[n];
        for (int i = 0; i < n; i++) {
            srcs[i] = heap(t, i);
            offsets[i] = s;
        }
        sync(t, "Team.reduceScatter");
        reducePulling(r, size, me, srcs, offsets, mine, d, nelemsPerPe);
        sync(t, "Team.reduceScatter");
    }

    /** Bytes of each peer's source copied at a time into {@link #pulled} before being reduced. */
    static final long PULL_CHUNK = 16 << 10;

    /**
     * {@code dst = reduce(srcs)} for {@code nelems} elements, a chunk at a time: each peer's chunk
     * is first copied (a bulk copy, which moves lines from another core's cache or from memory with
     * many loads in flight) into this PE's {@link #pulled} buffer, then the reducer combines it from
     * cache; this PE's own source ({@code srcs[me]}) is read in place.
     */
    private void reducePulling(Reducer r, int size, int me, MemorySegment[] srcs, long[] offsets, MemorySegment dst,
                               long dstOffset, long nelems) {
        int n = srcs.length;
        if (pulled.byteSize() < (n - 1) * PULL_CHUNK) {
            pulled = Arena.ofAuto().allocate((n - 1) * PULL_CHUNK, 4096);
        }
        MemorySegment[] in = new MemorySegment[n];
        long[] at = new long[n];
        long chunk = PULL_CHUNK / size;
        for (long e = 0; e < nelems; e += chunk) {
            long m = Math.min(chunk, nelems - e);
            for (int k = 0, slot = 0; k < n; k++) {
                if (k == me) {
                    in[k] = srcs[k];
                    at[k] = offsets[k] + e * size;
                } else {
                    MemorySegment.copy(srcs[k], offsets[k] + e * size, pulled, slot * PULL_CHUNK, m * size);
                    in[k] = pulled;
                    at[k] = slot++ * PULL_CHUNK;
                }
            }
            r.reduce(dst, dstOffset + e * size, in, at, n, m);
        }
    }
}
