package org.jshmem.gpu;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.jshmem.node.ControlDescriptor.SYNC_AUX;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;
import java.util.function.IntUnaryOperator;
import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.WaitTimeoutException;
import org.jshmem.spi.Collectives;
import org.jshmem.spi.StreamCollectives;
import org.jshmem.collectives.CopyCollectives;
import org.jshmem.spi.TeamLayout;
import org.jshmem.node.NodeBarrier;
import org.jshmem.node.Waiter;
import org.jshmem.GpuCollectiveTuning;
import org.jshmem.gpu.shim.Shim;

/**
 * Collectives on a GPU heap: kernels that read the members' heaps through the peer mappings (and
 * copy engines for large pieces), from the runtime's {@code coll_kernels.cu}. Every collective
 * synchronises at its entry (every member's source is ready, its destination writable) and at its
 * exit (no member still reads this PE's source or writes its destination) through the team slot's
 * device cells, with generation counters that only grow, so collectives follow each other on a
 * stream with nothing in between.
 *
 * <ul>
 * <li><b>Reductions</b>: up to {@link GpuCollectiveTuning#reduceLowLatencyMax()} bytes on teams of up to
 *     {@link GpuCollectiveTuning#LOW_LATENCY_MEMBERS} PEs, low-latency (every PE stores its source into
 *     every member's buffer in the team slot's internal lines with a flag beside every 4 bytes and
 *     reduces the lines as they arrive: one kernel, no synchronisation); else one-shot (every PE
 *     reduces the whole vector, reading every member's
 *     source) while {@code (n-1) x bytes <= } {@link GpuCollectiveTuning#reduceOneShotMax()} and not
 *     in place; else two-shot (PE i reduces slice i from every member and stores it into slice i of
 *     every member's destination: a reduce-scatter and a pushed all-gather in one pass); from
 *     {@link GpuCollectiveTuning#reduceScatterCopyEngineMin()} per slice (off by default) that pass goes by the
 *     copy engines as the reduce-scatter's below, each reduced chunk pushed to the members by the engines.</li>
 * <li><b>Reduce-scatter</b>: PE i reduces block i of the members' sources into its destination:
 *     SM kernels read the members' blocks in place (one block up to the one-block size, else a
 *     grid sized by the n blocks read). The grids of both, on teams of 3 or more and from
 *     {@link GpuCollectiveTuning#reduceRotatedMin()}, read (and push to) the members one after the
 *     other, each PE starting after itself, so that every PE is read by one other at a time.
 *     From {@link GpuCollectiveTuning#reduceScatterCopyEngineMin()}
 *     (off by default) the copy engines pull the peers' blocks into a local scratch buffer in rotated
 *     order, chunk after chunk, and local kernels reduce each chunk while the next is pulled.</li>
 * <li><b>fcollect, collect, alltoall, broadcast</b>: every PE pulls the pieces it receives from
 *     the members' sources with an SM kernel; or, when the pieces reach
 *     {@link GpuCollectiveTuning#copyEngineMin()}, the copy engines move them one after the other in
 *     rotated order ({@link GpuCollectiveTuning#ceLanes()}), pushing each PE's pieces to the members
 *     (fcollect, collect, alltoall) or pulling them (broadcast, or where
 *     {@link GpuCollectiveTuning#cePush()} is off; see {@code coll_kernels.cu}).</li>
 * <li>Shapes: up to {@link GpuCollectiveTuning#oneBlockMax()} bytes one kernel of one block with
 *     both synchronisations inside; above, a kernel of many blocks and a one-block synchronisation
 *     kernel.</li>
 * </ul>
 *
 * <p>Host-called forms ({@link Collectives}, what {@link org.jshmem.Team}'s blocking calls use)
 * queue on the backend's internal stream and wait for it, polling, so that a dead member ends the
 * wait with {@link org.jshmem.PeFailedException}; with {@link GpuCollectiveTuning#serviceMicros()},
 * those that run as one block (low-latency reductions, one-block pull collectives) go to the
 * PE's service kernel instead ({@code GpuService}); {@link #sync} is the host barrier. The
 * {@code ...OnStream} forms queue on the caller's stream and return. Reductions need dest and src
 * aligned to the element size on the GPU; a host-called reduction of misaligned ones falls back to
 * {@link CopyCollectives}, the on-stream form throws. Argument checks are the caller's
 * ({@link org.jshmem.Team}); heap offsets are absolute (internal region included).
 */
public final class GpuCollectives implements Collectives, StreamCollectives {
    private final GpuBackend gpu;
    private final NodeBarrier barrier;
    private final Waiter waiter;
    private final GpuCollectiveTuning tuning;
    private final int smShare;
    private final CopyCollectives fallback;
    private final int myPe;

    public GpuCollectives(GpuBackend gpu, int myPe, NodeBarrier barrier, Waiter waiter, GpuCollectiveTuning tuning) {
        this.gpu = gpu;
        this.myPe = myPe;
        this.barrier = barrier;
        this.waiter = waiter;
        this.tuning = tuning;
        this.smShare = gpu.multiprocessorsPerPe();
        this.fallback = new CopyCollectives(gpu, barrier);
    }

    @Override
    public String describe() {
        return "GPU collectives (kernels over the peers' mapped heaps, copy engines for large pieces): "
                + tuning.describe();
    }

    /** The thresholds in use. */
    public GpuCollectiveTuning tuning() {
        return tuning;
    }

    private MemorySegment at(long offset) {
        return gpu.address(myPe, offset);
    }

    /** Queues {@code work} on the internal stream and waits for it (a dead member ends the wait). */
    private void blocking(TeamLayout t, String call, Consumer<MemorySegment> work) {
        blocking(t, call, false, work);
    }

    /**
     * Like {@link #blocking}, for a collective that runs as one block: on the service kernel where this PE has
     * one ({@link GpuBackend#runAndWaitServed}). A wait that times out is named: the host cannot see which
     * members the kernel waits for, so the message says what can hold it.
     */
    private void blocking(TeamLayout t, String call, boolean oneBlock, Consumer<MemorySegment> work) {
        IntUnaryOperator idle = step -> waiter.idle(step, call, t.start(), t.stride(), t.size());
        try {
            if (oneBlock) {
                gpu.runAndWaitServed(work, idle);
            } else {
                gpu.runAndWait(work, idle);
            }
        } catch (WaitTimeoutException e) {
            throw Waiter.stuck(e, "waits for its kernels and copies on the GPU to end (the team of world PEs "
                    + t.start() + ", stride " + t.stride() + ", size " + t.size() + "): a member has not made the same"
                    + " call, or the GPU's work does not end");
        }
    }

    /** Whether a pull collective that brings a PE {@code bytes} in pieces of {@code piece} runs as one block. */
    private boolean oneBlock(long bytes, long piece) {
        return tuning.blocks(bytes, smShare) == 0 && tuning.copyEngineLanes(piece) == 0;
    }

    // ---------------------------------------------------------------- host-called (blocking)

    @Override
    public void sync(TeamLayout t) {
        barrier.sync(t.slot(), t.start(), t.stride(), t.size(), "Team.sync");
    }

    /** Host-called and rare: the copy collectives' form (the members' sources fetched and summed on the host). */
    @Override
    public void sumScan(TeamLayout t, DType type, long dest, long src, long nelems, boolean inclusive) {
        fallback.sumScan(t, type, dest, src, nelems, inclusive);
    }

    @Override
    public void broadcast(TeamLayout t, long dest, long src, long bytes, int root) {
        if (bytes > 0) {
            blocking(t, "Team.broadcast", oneBlock(bytes, bytes), s -> broadcastOnStream(t, dest, src, bytes, root, s));
        }
    }

    @Override
    public void fcollect(TeamLayout t, long dest, long src, long bytes) {
        if (bytes > 0) {
            blocking(t, "Team.fcollect", oneBlock(bytes * t.size(), bytes), s -> fcollectOnStream(t, dest, src, bytes, s));
        }
    }

    @Override
    public long collect(TeamLayout t, long dest, long destCapacity, long src, long bytes) {
        int n = t.size();
        long[] counts = n == 1 ? new long[] {bytes}
                : barrier.exchange(t.slot(), t.start(), t.stride(), t.size(), SYNC_AUX, bytes, "Team.collect");
        long total = 0;
        for (long c : counts) {
            total += c;
        }
        if (total > destCapacity) {
            if (n > 1) {
                sync(t);   // every member has read the counts before any rewrites its word
            }
            throw Collectives.collectTooSmall(counts, dest, destCapacity);
        }
        // no closing host sync needed for the counts: a member rewrites its word only in a later
        // collect, after this one's device exit sync, which every member passes after reading them
        if (total > 0) {
            blocking(t, "Team.collect", oneBlock(total, total / n), s -> collectOnStream(t, dest, src, counts, s));
        }
        return total;
    }

    @Override
    public void alltoall(TeamLayout t, long dest, long src, long bytesPerPe) {
        if (bytesPerPe > 0) {
            blocking(t, "Team.alltoall", oneBlock(bytesPerPe * t.size(), bytesPerPe),
                    s -> alltoallOnStream(t, dest, src, bytesPerPe, s));
        }
    }

    @Override
    public void reduce(TeamLayout t, ReduceOp op, DType type, long dest, long src, long nelems) {
        if (nelems == 0) {
            return;
        }
        if (!aligned(type, dest, src)) {
            fallback.reduce(t, op, type, dest, src, nelems);   // same decision on every member: symmetric offsets
            return;
        }
        blocking(t, "Team.reduce", tuning.reduceLowLatency(t.size(), nelems * type.byteSize()),
                s -> reduceOnStream(t, op, type, dest, src, nelems, s));
    }

    @Override
    public void reduceScatter(TeamLayout t, ReduceOp op, DType type, long dest, long src, long nelemsPerPe) {
        if (nelemsPerPe == 0) {
            return;
        }
        if (!aligned(type, dest, src)) {
            fallback.reduceScatter(t, op, type, dest, src, nelemsPerPe);
            return;
        }
        blocking(t, "Team.reduceScatter", s -> reduceScatterOnStream(t, op, type, dest, src, nelemsPerPe, s));
    }

    private static boolean aligned(DType type, long dest, long src) {
        return dest % type.byteSize() == 0 && src % type.byteSize() == 0;
    }

    // ---------------------------------------------------------------- on a stream

    /** Like {@link #reduce}, queued on {@code stream}; dest and src must be aligned to the element size. */
    @Override
    public void reduceOnStream(TeamLayout t, ReduceOp op, DType type, long dest, long src, long nelems,
                               MemorySegment stream) {
        StreamCollectives.requireAligned("reduction", type, dest, src);
        if (nelems == 0) {
            return;
        }
        long bytes = nelems * type.byteSize();
        ReduceShape shape = tuning.reduceLowLatency(t.size(), bytes) ? ReduceShape.LOW_LATENCY
                : tuning.reduceTwoShot(t.size(), bytes, dest == src) ? ReduceShape.TWO_SHOT : ReduceShape.ONE_SHOT;
        int blocks = tuning.blocks(bytes, smShare);
        boolean rotated = shape == ReduceShape.TWO_SHOT && blocks > 0 && tuning.reduceRotated(t.size(), bytes);
        int ceLanes = shape == ReduceShape.TWO_SHOT ? tuning.reduceCopyEngineLanes(t.size(), bytes) : 0;
        Shim.collReduce(t.slot(), type.ordinal(), op.ordinal(), at(dest), at(src), nelems, shape.ordinal(), blocks,
                ceLanes, rotated, stream);
    }

    /** Like {@link #reduceScatter}, queued on {@code stream}; dest and src must be aligned to the element size. */
    @Override
    public void reduceScatterOnStream(TeamLayout t, ReduceOp op, DType type, long dest, long src, long nelemsPerPe,
                                      MemorySegment stream) {
        StreamCollectives.requireAligned("reduce-scatter", type, dest, src);
        if (nelemsPerPe == 0) {
            return;
        }
        long block = nelemsPerPe * type.byteSize();
        // the kernel reads every member's block: size its grid by the n blocks it brings in
        int blocks = tuning.blocks(block * t.size(), smShare);
        boolean rotated = blocks > 0 && tuning.reduceRotated(t.size(), block * t.size());
        Shim.collReduceScatter(t.slot(), type.ordinal(), op.ordinal(), at(dest), at(src), nelemsPerPe, blocks,
                tuning.reduceScatterCopyEngineLanes(block), rotated, stream);
    }

    /** Like {@link #fcollect}, queued on {@code stream}. */
    @Override
    public void fcollectOnStream(TeamLayout t, long dest, long src, long bytes, MemorySegment stream) {
        if (bytes == 0) {
            return;
        }
        Shim.collFcollect(t.slot(), at(dest), at(src), bytes, tuning.blocks(bytes * t.size(), smShare),
                tuning.copyEngineLanes(bytes), tuning.cePush(), stream);
    }

    /**
     * Like {@link #collect}, queued on {@code stream}, with every member's byte count given
     * ({@code bytesPerMember[i]} for team PE i, the same array on every member).
     */
    @Override
    public void collectOnStream(TeamLayout t, long dest, long src, long[] bytesPerMember, MemorySegment stream) {
        int n = t.size();
        long total = 0;
        for (long c : bytesPerMember) {
            total += c;
        }
        if (total == 0) {
            return;
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment offsets = a.allocate(JAVA_LONG, n + 1);
            long sum = 0;
            for (int i = 0; i < n; i++) {
                offsets.setAtIndex(JAVA_LONG, i, sum);
                sum += bytesPerMember[i];
            }
            offsets.setAtIndex(JAVA_LONG, n, sum);
            Shim.collCollect(t.slot(), at(dest), at(src), offsets, tuning.blocks(total, smShare),
                    tuning.copyEngineLanes(total / n), tuning.cePush(), stream);
        }
    }

    /**
     * Copy engines: every block is one {@code memcpyAsync} and one
     * stream write of its signal, so a consumer kernel on another stream starts on block i while
     * the later ones are still in flight, and no SM is taken from it.
     */
    @Override
    public void collectSignalOnStream(TeamLayout t, long dest, long src, long[] bytesPerMember, long signals,
                                      long signal, boolean ownBlock, MemorySegment stream) {
        int n = t.size(), me = t.myIndex();
        long[] at = new long[n + 1];
        for (int i = 0; i < n; i++) {
            at[i + 1] = at[i] + bytesPerMember[i];
        }
        boolean inPlace = src == dest + at[me];   // then every member's block is in its own dest
        for (int k = 1; k <= (ownBlock ? n : n - 1); k++) {   // the others from the next member on, its own last
            int i = (me + k) % n;
            long bytes = bytesPerMember[i];
            if (bytes > 0 && i != me) {
                Shim.memcpyAsync(at(dest + at[i]), gpu.address(t.worldPe(i), inPlace ? dest + at[i] : src), bytes,
                        stream);
            } else if (bytes > 0 && !inPlace) {
                Shim.memcpyAsync(at(dest + at[i]), at(src), bytes, stream);
            }
            Shim.streamWriteValue(stream, at(signals + (long) i * Long.BYTES), signal, Long.BYTES);
        }
    }

    /** Like {@link #alltoall}, queued on {@code stream}. */
    @Override
    public void alltoallOnStream(TeamLayout t, long dest, long src, long bytesPerPe, MemorySegment stream) {
        if (bytesPerPe == 0) {
            return;
        }
        Shim.collAlltoall(t.slot(), at(dest), at(src), bytesPerPe, tuning.blocks(bytesPerPe * t.size(), smShare),
                tuning.copyEngineLanes(bytesPerPe), tuning.cePush(), stream);
    }

    /** Like {@link #broadcast}, queued on {@code stream}. */
    @Override
    public void broadcastOnStream(TeamLayout t, long dest, long src, long bytes, int root, MemorySegment stream) {
        if (bytes == 0) {
            return;
        }
        Shim.collBroadcast(t.slot(), at(dest), at(src), bytes, root, tuning.blocks(bytes, smShare),
                tuning.copyEngineLanes(bytes), stream);
    }

    /** A barrier of the team on {@code stream}: the stream's earlier work is complete on every member first. */
    @Override
    public void barrierOnStream(TeamLayout t, MemorySegment stream) {
        gpu.barrierOnStream(t.slot(), stream);
    }

    /** A synchronisation of the team on {@code stream}. */
    @Override
    public void syncOnStream(TeamLayout t, MemorySegment stream) {
        gpu.syncOnStream(t.slot(), stream);
    }
}
