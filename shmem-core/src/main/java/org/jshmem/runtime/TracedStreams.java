package org.jshmem.runtime;

import java.lang.foreign.MemorySegment;
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
 * timed on the GPU by {@link StreamTimer}, with its peer, size and team. Only recording PEs have this layer.
 */
public final class TracedStreams implements StreamCapability, AutoCloseable {
    private final StreamCapability inner;
    private final StreamTimer timer;
    private final StreamCollectives collectives;
    private final int me;

    public TracedStreams(StreamCapability inner, Trace trace, int myPe) {
        this.inner = inner;
        this.timer = new StreamTimer(inner, trace);
        this.collectives = new Collectives(inner.collectives());
        this.me = myPe;
    }

    /** Reads the timings still pending into the trace (waiting for the streams), before the trace is written. */
    public void drain() {
        timer.drain();
    }

    @Override
    public void close() {
        timer.close();
    }

    /** Queues {@code op} on {@code stream} between two timing events, and records it. */
    private void timed(String name, String category, int peer, long bytes, int team, MemorySegment stream, Runnable op) {
        StreamTimer.Start start = timer.begin(stream);
        op.run();
        timer.end(start, stream, name, category, peer, bytes, team);
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
        timed("barrierOnStream", "barrier", -1, -1, teamSlot, stream, () -> inner.barrierOnStream(teamSlot, stream));
    }

    @Override
    public void syncOnStream(int teamSlot, MemorySegment stream) {
        timed("syncOnStream", "barrier", -1, -1, teamSlot, stream, () -> inner.syncOnStream(teamSlot, stream));
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

        @Override
        public void reduceOnStream(TeamLayout team, ReduceOp op, DType type, long dest, long src, long nelems,
                                   MemorySegment stream) {
            timed("reduceOnStream", "collective", -1, nelems * type.byteSize(), team.slot(), stream,
                    () -> inner.reduceOnStream(team, op, type, dest, src, nelems, stream));
        }

        @Override
        public void reduceScatterOnStream(TeamLayout team, ReduceOp op, DType type, long dest, long src,
                                          long nelemsPerPe, MemorySegment stream) {
            timed("reduceScatterOnStream", "collective", -1, nelemsPerPe * type.byteSize() * team.size(), team.slot(),
                    stream, () -> inner.reduceScatterOnStream(team, op, type, dest, src, nelemsPerPe, stream));
        }

        @Override
        public void fcollectOnStream(TeamLayout team, long dest, long src, long bytes, MemorySegment stream) {
            timed("fcollectOnStream", "collective", -1, bytes, team.slot(), stream,
                    () -> inner.fcollectOnStream(team, dest, src, bytes, stream));
        }

        @Override
        public void collectOnStream(TeamLayout team, long dest, long src, long[] bytesPerMember, MemorySegment stream) {
            timed("collectOnStream", "collective", -1, bytesPerMember[team.myIndex()], team.slot(), stream,
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
            timed("alltoallOnStream", "collective", -1, bytesPerPe * team.size(), team.slot(), stream,
                    () -> inner.alltoallOnStream(team, dest, src, bytesPerPe, stream));
        }

        @Override
        public void broadcastOnStream(TeamLayout team, long dest, long src, long bytes, int root, MemorySegment stream) {
            timed("broadcastOnStream", "collective", team.worldPe(root), bytes, team.slot(), stream,
                    () -> inner.broadcastOnStream(team, dest, src, bytes, root, stream));
        }

        @Override
        public void barrierOnStream(TeamLayout team, MemorySegment stream) {
            timed("barrierOnStream", "barrier", -1, -1, team.slot(), stream, () -> inner.barrierOnStream(team, stream));
        }

        @Override
        public void syncOnStream(TeamLayout team, MemorySegment stream) {
            timed("syncOnStream", "barrier", -1, -1, team.slot(), stream, () -> inner.syncOnStream(team, stream));
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
