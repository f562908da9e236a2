package org.jshmem.runtime;

import java.lang.foreign.MemorySegment;
import org.jshmem.AtomicOp;
import org.jshmem.SignalOp;
import org.jshmem.spi.BackendContext;
import org.jshmem.trace.Trace;

/**
 * A traced PE's channel of data movement: each transfer is recorded with its peer and size
 * ({@link Trace#transfer}: small ones, single stores and loads, atomics and fences counted, not
 * timed), quiet as a span. Only traced PEs
 * have this layer.
 */
public final class TracedChannel implements BackendContext {
    private final BackendContext inner;
    private final Trace trace;
    private final int me;

    public TracedChannel(BackendContext inner, Trace trace, int myPe) {
        this.inner = inner;
        this.trace = trace;
        this.me = myPe;
    }

    @Override
    public void put(int pe, long offset, MemorySegment src) {
        long t = trace.beginTransfer(src.byteSize());
        inner.put(pe, offset, src);
        trace.transfer("put", t, pe, src.byteSize());
    }

    @Override
    public void putNbi(int pe, long offset, MemorySegment src) {
        long t = trace.beginTransfer(src.byteSize());
        inner.putNbi(pe, offset, src);
        trace.transfer("putNbi", t, pe, src.byteSize());
    }

    @Override
    public void get(MemorySegment dst, int pe, long offset) {
        long t = trace.beginTransfer(dst.byteSize());
        inner.get(dst, pe, offset);
        trace.transfer("get", t, pe, dst.byteSize());
    }

    @Override
    public void getNbi(MemorySegment dst, int pe, long offset) {
        long t = trace.beginTransfer(dst.byteSize());
        inner.getNbi(dst, pe, offset);
        trace.transfer("getNbi", t, pe, dst.byteSize());
    }

    @Override
    public void iput(int pe, long offset, long destPitch, MemorySegment src, long srcPitch, long elemBytes, long nelems) {
        long t = trace.beginTransfer(elemBytes * nelems);
        inner.iput(pe, offset, destPitch, src, srcPitch, elemBytes, nelems);
        trace.transfer("iput", t, pe, elemBytes * nelems);
    }

    @Override
    public void iget(MemorySegment dst, long dstPitch, int pe, long offset, long srcPitch, long elemBytes, long nelems) {
        long t = trace.beginTransfer(elemBytes * nelems);
        inner.iget(dst, dstPitch, pe, offset, srcPitch, elemBytes, nelems);
        trace.transfer("iget", t, pe, elemBytes * nelems);
    }

    @Override
    public void copy(int dstPe, long dstOffset, int srcPe, long srcOffset, long bytes, boolean nbi) {
        long t = trace.beginTransfer(bytes);
        inner.copy(dstPe, dstOffset, srcPe, srcOffset, bytes, nbi);
        boolean put = srcPe == me;
        trace.transfer(put ? (nbi ? "putNbi" : "put") : (nbi ? "getNbi" : "get"), t, put ? dstPe : srcPe, bytes);
    }

    @Override
    public void copyStrided(int dstPe, long dstOffset, long dstPitch, int srcPe, long srcOffset, long srcPitch,
                            long elemBytes, long nelems) {
        long t = trace.beginTransfer(elemBytes * nelems);
        inner.copyStrided(dstPe, dstOffset, dstPitch, srcPe, srcOffset, srcPitch, elemBytes, nelems);
        boolean put = srcPe == me;
        trace.transfer(put ? "iput" : "iget", t, put ? dstPe : srcPe, elemBytes * nelems);
    }

    @Override
    public void putSignal(int pe, long offset, MemorySegment src, long sigOffset, long signal, SignalOp op, boolean nbi) {
        long t = trace.beginTransfer(src.byteSize());
        inner.putSignal(pe, offset, src, sigOffset, signal, op, nbi);
        trace.transfer(nbi ? "putSignalNbi" : "putSignal", t, pe, src.byteSize());
    }

    @Override
    public void copySignal(int pe, long offset, int srcPe, long srcOffset, long bytes, long sigOffset, long signal,
                           SignalOp op, boolean nbi) {
        long t = trace.beginTransfer(bytes);
        inner.copySignal(pe, offset, srcPe, srcOffset, bytes, sigOffset, signal, op, nbi);
        trace.transfer(nbi ? "putSignalNbi" : "putSignal", t, pe, bytes);
    }

    @Override
    public void store(int pe, long offset, int width, long bits) {
        inner.store(pe, offset, width, bits);
        trace.transfer("p", 0, pe, width);
    }

    @Override
    public long load(int pe, long offset, int width) {
        long v = inner.load(pe, offset, width);
        trace.transfer("g", 0, pe, width);
        return v;
    }

    @Override
    public int atomicInt(AtomicOp op, int pe, long offset, int value, int comparand) {
        int v = inner.atomicInt(op, pe, offset, value, comparand);
        trace.transfer("atomic", 0, pe, Integer.BYTES);
        return v;
    }

    @Override
    public long atomicLong(AtomicOp op, int pe, long offset, long value, long comparand) {
        long v = inner.atomicLong(op, pe, offset, value, comparand);
        trace.transfer("atomic", 0, pe, Long.BYTES);
        return v;
    }

    @Override
    public void fence() {
        inner.fence();
        trace.transfer("fence", 0, me, 0);
    }

    @Override
    public void quiet() {
        long t = trace.begin("quiet");
        inner.quiet();
        trace.end("quiet", "rma", t);
    }
}
