package org.jshmem.gpu;

import java.lang.foreign.MemorySegment;
import org.jshmem.AtomicOp;
import org.jshmem.SignalOp;
import org.jshmem.gpu.shim.Shim;
import org.jshmem.remote.RemoteTransport;
import org.jshmem.spi.BackendContext;

/**
 * A GPU channel for a job whose PEs span nodes: operations on PEs of this node go to the
 * {@link GpuChannel} (the peers' heaps are mapped here), those on PEs of other nodes to the
 * {@link RemoteTransport} as requests for the target's device heap ({@link RemoteTransport#DEVICE_HEAP}),
 * which that PE applies with its {@link GpuHeapTarget}. A copy between heaps with a side on another
 * node passes through pinned host memory, in pieces of {@link #STAGE_BYTES}: brought from its source
 * (GPU or transport), then sent to its destination; so it is complete on return, even when asked
 * non-blocking. Puts and gets of host memory go to the transport as they are (it stages what it must).
 * Order: each PE is reached by one path, which keeps the order of the operations on it.
 */
final class RemoteRouting implements BackendContext {
    static final long STAGE_BYTES = 1L << 20;

    private final GpuChannel local;
    private final RemoteTransport remote;
    private final boolean[] remotePe;
    private final MemorySegment stage = Shim.hostAlloc(STAGE_BYTES);   // pinned: the copy engines reach it directly

    RemoteRouting(GpuChannel local, RemoteTransport remote, boolean[] remotePe) {
        this.local = local;
        this.remote = remote;
        this.remotePe = remotePe;
    }

    /** The channel for this node's PEs. */
    GpuChannel local() {
        return local;
    }

    private static long heap(long offset) {
        return RemoteTransport.DEVICE_HEAP | offset;
    }

    @Override
    public void put(int pe, long offset, MemorySegment src) {
        if (remotePe[pe]) {
            remote.put(pe, heap(offset), src, false);
        } else {
            local.put(pe, offset, src);
        }
    }

    @Override
    public void putNbi(int pe, long offset, MemorySegment src) {
        if (remotePe[pe]) {
            remote.put(pe, heap(offset), src, true);
        } else {
            local.putNbi(pe, offset, src);
        }
    }

    @Override
    public void get(MemorySegment dst, int pe, long offset) {
        if (remotePe[pe]) {
            remote.get(dst, pe, heap(offset), false);
        } else {
            local.get(dst, pe, offset);
        }
    }

    @Override
    public void getNbi(MemorySegment dst, int pe, long offset) {
        if (remotePe[pe]) {
            remote.get(dst, pe, heap(offset), true);
        } else {
            local.getNbi(dst, pe, offset);
        }
    }

    @Override
    public synchronized void copy(int dstPe, long dstOffset, int srcPe, long srcOffset, long bytes, boolean nbi) {
        if (!remotePe[dstPe] && !remotePe[srcPe]) {
            local.copy(dstPe, dstOffset, srcPe, srcOffset, bytes, nbi);
            return;
        }
        for (long done = 0; done < bytes; done += STAGE_BYTES) {
            MemorySegment piece = stage.asSlice(0, Math.min(STAGE_BYTES, bytes - done));
            get(piece, srcPe, srcOffset + done);
            put(dstPe, dstOffset + done, piece);
        }
    }

    @Override
    public void copyStrided(int dstPe, long dstOffset, long dstPitch, int srcPe, long srcOffset, long srcPitch,
                            long elemBytes, long nelems) {
        if (!remotePe[dstPe] && !remotePe[srcPe]) {
            local.copyStrided(dstPe, dstOffset, dstPitch, srcPe, srcOffset, srcPitch, elemBytes, nelems);
            return;
        }
        for (long i = 0; i < nelems; i++) {
            copy(dstPe, dstOffset + i * dstPitch, srcPe, srcOffset + i * srcPitch, elemBytes, false);
        }
    }

    @Override
    public void iput(int pe, long offset, long destPitch, MemorySegment src, long srcPitch, long elemBytes, long nelems) {
        if (remotePe[pe]) {
            remote.putStrided(pe, heap(offset), destPitch, src, srcPitch, elemBytes, nelems);
        } else {
            local.iput(pe, offset, destPitch, src, srcPitch, elemBytes, nelems);
        }
    }

    @Override
    public void iget(MemorySegment dst, long dstPitch, int pe, long offset, long srcPitch, long elemBytes, long nelems) {
        if (remotePe[pe]) {
            remote.getStrided(dst, dstPitch, pe, heap(offset), srcPitch, elemBytes, nelems);
        } else {
            local.iget(dst, dstPitch, pe, offset, srcPitch, elemBytes, nelems);
        }
    }

    /** The data, then the signal: the target applies them in that order. */
    @Override
    public void putSignal(int pe, long offset, MemorySegment src, long sigOffset, long signal, SignalOp op, boolean nbi) {
        if (remotePe[pe]) {
            remote.put(pe, heap(offset), src, nbi);
            signal(pe, sigOffset, signal, op);
        } else {
            local.putSignal(pe, offset, src, sigOffset, signal, op, nbi);
        }
    }

    @Override
    public void copySignal(int pe, long offset, int srcPe, long srcOffset, long bytes, long sigOffset, long signal,
                           SignalOp op, boolean nbi) {
        if (!remotePe[pe] && !remotePe[srcPe]) {
            local.copySignal(pe, offset, srcPe, srcOffset, bytes, sigOffset, signal, op, nbi);
            return;
        }
        copy(pe, offset, srcPe, srcOffset, bytes, false);   // complete: the signal may follow on any path
        signal(pe, sigOffset, signal, op);
    }

    private void signal(int pe, long sigOffset, long signal, SignalOp op) {
        atomicLong(op.atomicOp(), pe, sigOffset, signal, 0);
    }

    @Override
    public void store(int pe, long offset, int width, long bits) {
        if (remotePe[pe]) {
            remote.store(pe, heap(offset), width, bits);
        } else {
            local.store(pe, offset, width, bits);
        }
    }

    @Override
    public long load(int pe, long offset, int width) {
        return remotePe[pe] ? remote.load(pe, heap(offset), width) : local.load(pe, offset, width);
    }

    @Override
    public int atomicInt(AtomicOp op, int pe, long offset, int value, int comparand) {
        return remotePe[pe] ? (int) remote.atomic(op, 4, pe, heap(offset), value, comparand)
                : local.atomicInt(op, pe, offset, value, comparand);
    }

    @Override
    public long atomicLong(AtomicOp op, int pe, long offset, long value, long comparand) {
        return remotePe[pe] ? remote.atomic(op, 8, pe, heap(offset), value, comparand)
                : local.atomicLong(op, pe, offset, value, comparand);
    }

    /** The transport keeps each target's order; the channel its stream's. */
    @Override
    public void fence() {
        local.fence();
    }

    @Override
    public void quiet() {
        local.quiet();
        remote.quiet();
    }

    /** Frees the staging buffer; the channel is its owner's to close. */
    void close() {
        Shim.hostFree(stage);
    }
}
