package org.jshmem.runtime;

import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.Map;
import org.jshmem.AtomicOp;
import org.jshmem.Cmp;
import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.SignalOp;
import org.jshmem.spi.StreamCapability;
import org.jshmem.spi.StreamCollectives;
import org.jshmem.spi.TeamLayout;
import org.jshmem.trace.Trace;

/**
 * The streams of a PE that records a trace: every operation it queues (copies, puts with signal,
 * signal waits, atomics, barriers, collectives, graph launches) becomes a span on its stream's track,
 * timed on the GPU, with its peer, size and team. Barriers, syncs and collectives whose kernels time
 * themselves ({@link StreamCapability#kernelsTimeTaggedOperations}) are tagged and spanned from their
 * kernels' spans ({@link TaggedOperations}); the rest are timed with events ({@link StreamTimer}).
 * Only recording PEs have this layer.
 */
public final class TracedStreams implements StreamCapability, AutoCloseable {
    private final StreamCapability inner;
    private final StreamTimer timer;
    private final TaggedOperations tagged;
    private final boolean kernelsTimeThemselves;
    private final StreamCollectives collectives;
    private final Map<Long, Integer> streamNumbers = new HashMap<>();
    private long lastStream = -1;
    private int lastNumber;
    private final int me;

    public TracedStreams(StreamCapability inner, Trace trace, int myPe) {
        this.inner = inner;
        this.timer = new StreamTimer(inner, trace, this::streamNumber);
        this.tagged = new TaggedOperations(trace);
        this.kernelsTimeThemselves = inner.kernelsTimeTaggedOperations();
        this.collectives = new Collectives(inner.collectives());
        this.me = myPe;
    }

    /** Reads the event timings still pending into the trace (waiting for the streams). */
    public void drain() {
        timer.drain();
    }

    /** A span that one block of a kernel of tagged operation {@code op} recorded, on this PE's clock. */
    public void kernelSpan(int op, long start, long end) {
        tagged.kernelSpan(op, start, end);
    }

    /** Writes the tagged operations' spans, once their kernels' spans have come ({@link #kernelSpan}). */
    public void writeTagged() {
        tagged.write();
    }

    @Override
    public void close() {
        timer.close();
    }

    /** The stream's number on its track's name, in the order of the PE's first traced operation on each. */
    private synchronized int streamNumber(MemorySegment stream) {
        if (stream.address() != lastStream) {   // most calls queue on the stream of the call before
            lastStream = stream.address();
            lastNumber = streamNumbers.computeIfAbsent(lastStream, k -> streamNumbers.size() + 1);
        }
        return lastNumber;
    }

    /** Queues {@code op} on {@code stream} between two timing events, and records it. */
    private void timed(String name, String category, int peer, long bytes, int team, MemorySegment stream, Runnable op) {
        StreamTimer.Start start = timer.begin(stream);
        op.run();
        timer.end(start, stream, name, category, peer, bytes, team);
    }

    /** Queues {@code op}, whose kernels time themselves when tagged, and records it (else as {@link #timed}). */
    private void tagged(String name, String category, int peer, long bytes, int team, MemorySegment stream, Runnable op) {
        if (!kernelsTimeThemselves) {
            timed(name, category, peer, bytes, team, stream, op);
            return;
        }
        int tag = tagged.begin(name, category, streamNumber(stream), peer, bytes, team);
        if (tag == 0) {   // past the limit: untimed, counted as lost
            op.run();
            return;
        }
        inner.tagKernels(tag);
        try {
            op.run();
        } finally {
            if (inner.tagKernels(0) == 0) {
                tagged.drop(tag);
            }
        }
    }

    @Override
    public void copyOnStream(int dstPe, long dstOffset, int srcPe, long srcOffset, long bytes, MemorySegment stream) {
        boolean get = dstPe == me && srcPe != me;
        timed(get ? "getOnStream" : "putOnStream", "rma", get ? srcPe : dstPe, bytes, -1, stream,
                () -> inner.copyOnStream(dstPe, dstOffset, srcPe, srcOffset, bytes, stream));
    }

    @Override
    public void copy2dOnStream(int dstPe, long dstOffset, long dstPitch, int srcPe, long srcOffset, long srcPitch,
                               long width, long rows, MemorySegment stream) {
        timed("ibputOnStream", "rma", dstPe, width * rows, -1, stream,
                () -> inner.copy2dOnStream(dstPe, dstOffset, dstPitch, srcPe, srcOffset, srcPitch, width, rows, stream));
    }

    @Override
    public void copyExternalOnStream(int pe, long heapOffset, MemorySegment external, boolean toHeap, long bytes,
                                     MemorySegment stream) {
        timed(toHeap ? "putOnStream" : "getOnStream", "rma", pe, bytes, -1, stream,
                () -> inner.copyExternalOnStream(pe, heapOffset, external, toHeap, bytes, stream));
    }

    @Override
    public void putSignalOnStream(int pe, long dstOffset, long srcOffset, long bytes, long sigOffset, long signal,
                                  SignalOp op, MemorySegment stream) {
        timed("putSignalOnStream", "rma", pe, bytes, -1, stream,
                () -> inner.putSignalOnStream(pe, dstOffset, srcOffset, bytes, sigOffset, signal, op, stream));
    }

    @Override
    public void signalWaitOnStream(long sigOffset, Cmp cmp, long value, MemorySegment stream) {
        timed("signalWaitUntilOnStream", "wait", -1, -1, -1, stream,
                () -> inner.signalWaitOnStream(sigOffset, cmp, value, stream));
    }

    @Override
    public void atomicOnStream(AtomicOp op, int pe, long offset, int width, long value, MemorySegment stream) {
        timed("atomicOnStream", "rma", pe, width, -1, stream,
                () -> inner.atomicOnStream(op, pe, offset, width, value, stream));
    }

    @Override
    public void barrierOnStream(int teamSlot, MemorySegment stream) {
        tagged("barrierOnStream", "barrier", -1, -1, teamSlot, stream, () -> inner.barrierOnStream(teamSlot, stream));
    }

    @Override
    public void syncOnStream(int teamSlot, MemorySegment stream) {
        tagged("syncOnStream", "barrier", -1, -1, teamSlot, stream, () -> inner.syncOnStream(teamSlot, stream));
    }

    @Override
    public void graphLaunch(MemorySegment graph, MemorySegment stream) {
        timed("graphLaunch", "graph", -1, -1, -1, stream, () -> inner.graphLaunch(graph, stream));
    }

    @Override
    public StreamCollectives collectives() {
        return collectives;
    }

    /** The on-stream collectives, each a span of category "collective" (barrier and sync: "barrier"). */
    private final class Collectives implements StreamCollectives {
        private final StreamCollectives inner;

        Collectives(StreamCollectives inner) {
            this.inner = inner;
        }

        /** A reduction: on a team of one PE a plain copy, which no kernel times. */
        private void reduction(TeamLayout team, String name, long bytes, MemorySegment stream, Runnable op) {
            if (team.size() == 1) {
                timed(name, "collective", -1, bytes, team.slot(), stream, op);
            } else {
                tagged(name, "collective", -1, bytes, team.slot(), stream, op);
            }
        }

        @Override
        public void reduceOnStream(TeamLayout team, ReduceOp op, DType type, long dest, long src, long nelems,
                                   MemorySegment stream) {
            reduction(team, "reduceOnStream", nelems * type.byteSize(), stream,
                    () -> inner.reduceOnStream(team, op, type, dest, src, nelems, stream));
        }

        @Override
        public void reduceScatterOnStream(TeamLayout team, ReduceOp op, DType type, long dest, long src,
                                          long nelemsPerPe, MemorySegment stream) {
            reduction(team, "reduceScatterOnStream", nelemsPerPe * type.byteSize() * team.size(), stream,
                    () -> inner.reduceScatterOnStream(team, op, type, dest, src, nelemsPerPe, stream));
        }

        @Override
        public void fcollectOnStream(TeamLayout team, long dest, long src, long bytes, MemorySegment stream) {
            tagged("fcollectOnStream", "collective", -1, bytes, team.slot(), stream,
                    () -> inner.fcollectOnStream(team, dest, src, bytes, stream));
        }

        @Override
        public void collectOnStream(TeamLayout team, long dest, long src, long[] bytesPerMember, MemorySegment stream) {
            tagged("collectOnStream", "collective", -1, bytesPerMember[team.myIndex()], team.slot(), stream,
                    () -> inner.collectOnStream(team, dest, src, bytesPerMember, stream));
        }

        @Override
        public void collectSignalOnStream(TeamLayout team, long dest, long src, long[] bytesPerMember, long signals,
                                          long signal, boolean ownBlock, MemorySegment stream) {
            timed("collectSignalOnStream", "collective", -1, bytesPerMember[team.myIndex()], team.slot(), stream,
                    () -> inner.collectSignalOnStream(team, dest, src, bytesPerMember, signals, signal, ownBlock, stream));
        }

        @Override
        public void alltoallOnStream(TeamLayout team, long dest, long src, long bytesPerPe, MemorySegment stream) {
            tagged("alltoallOnStream", "collective", -1, bytesPerPe * team.size(), team.slot(), stream,
                    () -> inner.alltoallOnStream(team, dest, src, bytesPerPe, stream));
        }

        @Override
        public void broadcastOnStream(TeamLayout team, long dest, long src, long bytes, int root, MemorySegment stream) {
            tagged("broadcastOnStream", "collective", team.worldPe(root), bytes, team.slot(), stream,
                    () -> inner.broadcastOnStream(team, dest, src, bytes, root, stream));
        }

        @Override
        public void barrierOnStream(TeamLayout team, MemorySegment stream) {
            tagged("barrierOnStream", "barrier", -1, -1, team.slot(), stream, () -> inner.barrierOnStream(team, stream));
        }

        @Override
        public void syncOnStream(TeamLayout team, MemorySegment stream) {
            tagged("syncOnStream", "barrier", -1, -1, team.slot(), stream, () -> inner.syncOnStream(team, stream));
        }
    }

    // ---------------------------------------------------------------- passed through untimed

    @Override
    public MemorySegment streamCreate() {
        return inner.streamCreate();
    }

    @Override
    public void streamDestroy(MemorySegment stream) {
        inner.streamDestroy(stream);
    }

    @Override
    public void streamSynchronize(MemorySegment stream) {
        inner.streamSynchronize(stream);
    }

    @Override
    public void streamWaitEvent(MemorySegment stream, MemorySegment event) {
        inner.streamWaitEvent(stream, event);
    }

    @Override
    public MemorySegment eventCreate(boolean timing) {
        return inner.eventCreate(timing);
    }

    @Override
    public void eventDestroy(MemorySegment event) {
        inner.eventDestroy(event);
    }

    @Override
    public void eventRecord(MemorySegment event, MemorySegment stream) {
        inner.eventRecord(event, stream);
    }

    @Override
    public void eventSynchronize(MemorySegment event) {
        inner.eventSynchronize(event);
    }

    @Override
    public float eventElapsedMillis(MemorySegment start, MemorySegment end) {
        return inner.eventElapsedMillis(start, end);
    }

    @Override
    public void beginCapture(MemorySegment stream) {
        inner.beginCapture(stream);
    }

    @Override
    public Graph endCapture(MemorySegment stream) {
        return inner.endCapture(stream);
    }

    @Override
    public boolean capturing(MemorySegment stream) {
        return inner.capturing(stream);
    }

    @Override
    public void graphDestroy(MemorySegment graph) {
        inner.graphDestroy(graph);
    }

    @Override
    public void checkExternalBuffer(String call, MemorySegment memory) {
        inner.checkExternalBuffer(call, memory);
    }

    @Override
    public MemorySegment address(int pe, long offset) {
        return inner.address(pe, offset);
    }
}
