package org.jshmem;

import java.lang.foreign.MemorySegment;
import org.jshmem.spi.StreamCapability;

/**
 * Operations queued on a GPU stream (NVSHMEM's {@code nvshmemx_*_on_stream}): they run in the
 * stream's order, after the kernels and copies queued before them, and the host does not wait.
 * Only on GPU heaps ({@code JSHMEM_BACKEND=cuda|hip}); on the host backend they throw
 * {@link ShmemStateException}. Sources and destinations are symmetric segments; the local side of
 * a put or get may also be a {@link RegisteredBuffer} (device memory outside the heap).
 */
public sealed interface StreamOperations permits Shmem {

    /** A new stream on this PE's device. */
    default ShmemStream createStream() {
        Shmem s = (Shmem) this;
        StreamCapability streams = s.streams("createStream");
        return new ShmemStream(s, streams, streams.streamCreate());
    }

    /** A new event, able to time ({@link ShmemEvent#elapsedMillisSince}). */
    default ShmemEvent createEvent() {
        Shmem s = (Shmem) this;
        StreamCapability streams = s.streams("createEvent");
        return new ShmemEvent(s, streams, streams.eventCreate(true));
    }

    /**
     * Queues a copy of {@code bytes} of this PE's {@code src} to {@code dest} on PE {@code pe}. On GPU heaps it runs on
     * a copy engine, or as a kernel on this PE's SMs where that was faster: within one GPU up to
     * {@code JSHMEM_SM_COPY_MAX}, and to another GPU from 1 MiB to 4 MiB when no GPU is shared by several PEs.
     * {@code JSHMEM_SM_COPY_MAX=0} keeps every on-stream copy on the copy engines, leaving the SMs to kernels.
     */
    default void putOnStream(SymmetricSegment dest, long destOffset, SymmetricSegment src, long srcOffset, long bytes,
                             int pe, ShmemStream stream) {
        Args.nonNull("putOnStream", "dest", dest, "src", src);
        Shmem s = (Shmem) this;
        StreamCapability gpu = s.streams("putOnStream");
        Args.nonNull("putOnStream", "stream", stream);   // after the GPU check: no stream exists on a host heap
        long d = s.target("putOnStream", dest, destOffset, bytes, pe);
        long f = s.target("putOnStream", src, srcOffset, bytes, s.myPe());
        gpu.copyOnStream(pe, d, s.myPe(), f, bytes, stream.handle("putOnStream"));
    }

    /**
     * Queues a copy of {@code bytes} of {@code src} on PE {@code pe} into this PE's {@code dest}. Engines as for
     * {@link #putOnStream}, except that a get from another GPU runs on the SMs from 256 KiB.
     */
    default void getOnStream(SymmetricSegment dest, long destOffset, SymmetricSegment src, long srcOffset, long bytes,
                             int pe, ShmemStream stream) {
        Args.nonNull("getOnStream", "dest", dest, "src", src);
        Shmem s = (Shmem) this;
        StreamCapability gpu = s.streams("getOnStream");
        Args.nonNull("getOnStream", "stream", stream);   // after the GPU check: no stream exists on a host heap
        long d = s.target("getOnStream", dest, destOffset, bytes, s.myPe());
        long f = s.target("getOnStream", src, srcOffset, bytes, pe);
        gpu.copyOnStream(s.myPe(), d, pe, f, bytes, stream.handle("getOnStream"));
    }

    /**
     * Queues a block-strided copy to PE {@code pe} (OpenSHMEM 1.6's {@code shmem_ibput} on a stream,
     * in bytes): {@code nblocks} blocks of {@code blockBytes}, block i from this PE's {@code src} at
     * {@code srcOffset + i * srcStride} to {@code dest} at {@code destOffset + i * destStride}. A
     * rectangle of a row-major matrix is one call: rows as blocks, the row pitches as strides. Between
     * GPUs it is one copy-engine transfer ({@code cudaMemcpy2DAsync}), which leaves the SMs to kernels.
     *
     * @throws IllegalArgumentException if a stride is smaller than the block (blocks would overlap),
     *         or a count is negative
     */
    default void ibputOnStream(SymmetricSegment dest, long destOffset, long destStride, SymmetricSegment src,
                               long srcOffset, long srcStride, long blockBytes, long nblocks, int pe,
                               ShmemStream stream) {
        Args.nonNull("ibputOnStream", "dest", dest, "src", src);
        Shmem s = (Shmem) this;
        StreamCapability gpu = s.streams("ibputOnStream");
        Args.nonNull("ibputOnStream", "stream", stream);   // after the GPU check: no stream exists on a host heap
        if (blockBytes < 0 || nblocks < 0 || destStride < blockBytes || srcStride < blockBytes) {
            throw new IllegalArgumentException("ibputOnStream: " + nblocks + " blocks of " + blockBytes + " bytes, "
                    + destStride + " bytes apart in dest and " + srcStride + " in src: counts must be >= 0 and each"
                    + " stride at least the block size (blocks must not overlap)");
        }
        long destSpan = nblocks == 0 ? 0 : (nblocks - 1) * destStride + blockBytes;
        long srcSpan = nblocks == 0 ? 0 : (nblocks - 1) * srcStride + blockBytes;
        long d = s.target("ibputOnStream", dest, destOffset, destSpan, pe);
        long f = s.target("ibputOnStream", src, srcOffset, srcSpan, s.myPe());
        if (destSpan > 0) {
            gpu.copy2dOnStream(pe, d, destStride, s.myPe(), f, srcStride, blockBytes, nblocks,
                    stream.handle("ibputOnStream"));
        }
    }

    /**
     * Queues a copy of {@code bytes} of this PE's registered device buffer {@code src}
     * ({@link Shmem#registerBuffer}) to {@code dest} on PE {@code pe}.
     */
    default void putOnStream(SymmetricSegment dest, long destOffset, RegisteredBuffer src, long srcOffset, long bytes,
                             int pe, ShmemStream stream) {
        Args.nonNull("putOnStream", "dest", dest, "src", src);
        externalCopyOnStream("putOnStream", dest, destOffset, src, srcOffset, bytes, pe, true, stream);
    }

    /**
     * Queues a copy of {@code bytes} of {@code src} on PE {@code pe} into this PE's registered
     * device buffer {@code dest} ({@link Shmem#registerBuffer}).
     */
    default void getOnStream(RegisteredBuffer dest, long destOffset, SymmetricSegment src, long srcOffset, long bytes,
                             int pe, ShmemStream stream) {
        Args.nonNull("getOnStream", "dest", dest, "src", src);
        externalCopyOnStream("getOnStream", src, srcOffset, dest, destOffset, bytes, pe, false, stream);
    }

    /** A copy between {@code pe}'s {@code heapSide} and this PE's registered {@code local} buffer, after the checks. */
    private void externalCopyOnStream(String call, SymmetricSegment heapSide, long heapOffset, RegisteredBuffer local,
                                      long localOffset, long bytes, int pe, boolean toHeap, ShmemStream stream) {
        Shmem s = (Shmem) this;
        StreamCapability gpu = s.streams(call);
        Args.nonNull(call, "stream", stream);   // after the GPU check: no stream exists on a host heap
        long at = s.target(call, heapSide, heapOffset, bytes, pe);
        MemorySegment buffer = local.slice(call, s, localOffset, bytes);
        gpu.copyExternalOnStream(pe, at, buffer, toHeap, bytes, stream.handle(call));
    }

    /** Queues a put-with-signal: the data, then the signal update, both on PE {@code pe}. */
    default void putSignalOnStream(SymmetricSegment dest, long destOffset, SymmetricSegment src, long srcOffset,
                                   long bytes, SymmetricSegment signal, long signalOffset, long value, SignalOp op,
                                   int pe, ShmemStream stream) {
        Args.nonNull("putSignalOnStream", "dest", dest, "src", src, "signal", signal);
        Args.nonNull("putSignalOnStream", "op", op);
        Shmem s = (Shmem) this;
        StreamCapability gpu = s.streams("putSignalOnStream");
        Args.nonNull("putSignalOnStream", "stream", stream);   // after the GPU check: no stream exists on a host heap
        long d = s.target("putSignalOnStream", dest, destOffset, bytes, pe);
        long f = s.target("putSignalOnStream", src, srcOffset, bytes, s.myPe());
        long g = s.target("putSignalOnStream", signal, signalOffset, Long.BYTES, pe, Long.BYTES);
        gpu.putSignalOnStream(pe, d, f, bytes, g, value, op, stream.handle("putSignalOnStream"));
    }

    /**
     * Makes the stream wait until this PE's signal satisfies {@code cmp value}, compared unsigned as
     * in {@link Shmem#signalWaitUntil}. EQ, and GE of 0 or of a power of two, wait in the stream
     * itself, exactly; so do the other GEs of values below 2<sup>63</sup>, with the stream's own test,
     * {@code signal - value >= 0} as a signed 64-bit number, which agrees with the unsigned order
     * unless the signal is 2<sup>63</sup> or more above {@code value}. A wait in the stream needs no
     * SM, so a kernel that holds every SM (a GEMM) does not hold it back. The other comparisons run a
     * one-thread kernel that compares unsigned.
     */
    default void signalWaitUntilOnStream(SymmetricSegment signal, long signalOffset, Cmp cmp, long value,
                                         ShmemStream stream) {
        Args.nonNull("signalWaitUntilOnStream", "signal", signal, "cmp", cmp);
        Shmem s = (Shmem) this;
        StreamCapability gpu = s.streams("signalWaitUntilOnStream");
        Args.nonNull("signalWaitUntilOnStream", "stream", stream);   // after the GPU check: no stream exists on a host heap
        long g = s.target("signalWaitUntilOnStream", signal, signalOffset, Long.BYTES, s.myPe(), Long.BYTES);
        gpu.signalWaitOnStream(g, cmp, value, stream.handle("signalWaitUntilOnStream"));
    }

    /**
     * Completes the stream's earlier operations before its later ones. Operations queued on one
     * stream already complete in order, so this queues nothing; it exists for NVSHMEM parity.
     */
    default void quietOnStream(ShmemStream stream) {
        Shmem s = (Shmem) this;
        s.streams("quietOnStream");
        Args.nonNull("quietOnStream", "stream", stream);   // after the GPU check: no stream exists on a host heap
        stream.handle("quietOnStream");
    }

    /** Queues a barrier over all PEs: completes the stream's earlier operations, then waits for every PE's. */
    default void barrierAllOnStream(ShmemStream stream) {
        StreamCapability gpu = ((Shmem) this).streams("barrierAllOnStream");
        Args.nonNull("barrierAllOnStream", "stream", stream);   // after the GPU check: no stream exists on a host heap
        StreamOrder order = ((Shmem) this).teamWorld().streamOrder();   // the world team's cells
        order.before((Shmem) this, stream, "barrierAllOnStream");
        gpu.barrierOnStream(0, stream.handle("barrierAllOnStream"));
        order.after(stream, "barrierAllOnStream");
    }

    /** Queues a synchronisation of all PEs (no completion of earlier puts). */
    default void syncAllOnStream(ShmemStream stream) {
        StreamCapability gpu = ((Shmem) this).streams("syncAllOnStream");
        Args.nonNull("syncAllOnStream", "stream", stream);   // after the GPU check: no stream exists on a host heap
        StreamOrder order = ((Shmem) this).teamWorld().streamOrder();
        order.before((Shmem) this, stream, "syncAllOnStream");
        gpu.syncOnStream(0, stream.handle("syncAllOnStream"));
        order.after(stream, "syncAllOnStream");
    }

    /**
     * Queues a write of {@code value} to the int at byte {@code offset} of {@code dest} on PE
     * {@code pe} (OpenSHMEM's {@code p}, on a stream: an atomic store when the stream gets there; the
     * value is taken now).
     */
    default void pIntOnStream(SymmetricSegment dest, long offset, int value, int pe, ShmemStream stream) {
        atomicOnStream("pIntOnStream", AtomicOp.SET, dest, offset, Integer.BYTES, value & 0xFFFF_FFFFL, pe, stream);
    }

    /** {@link #pIntOnStream} for a long. */
    default void pLongOnStream(SymmetricSegment dest, long offset, long value, int pe, ShmemStream stream) {
        atomicOnStream("pLongOnStream", AtomicOp.SET, dest, offset, Long.BYTES, value, pe, stream);
    }

    /** {@link #pIntOnStream} for a float. */
    default void pFloatOnStream(SymmetricSegment dest, long offset, float value, int pe, ShmemStream stream) {
        atomicOnStream("pFloatOnStream", AtomicOp.SET, dest, offset, Integer.BYTES,
                Float.floatToRawIntBits(value) & 0xFFFF_FFFFL, pe, stream);
    }

    /** {@link #pIntOnStream} for a double. */
    default void pDoubleOnStream(SymmetricSegment dest, long offset, double value, int pe, ShmemStream stream) {
        atomicOnStream("pDoubleOnStream", AtomicOp.SET, dest, offset, Long.BYTES, Double.doubleToRawLongBits(value), pe,
                stream);
    }

    /**
     * Queues an update of the 8-byte signal at {@code signalOffset} of {@code signal} on PE {@code pe}
     * ({@code op} SET or ADD of {@code value}), after the stream's earlier work (NVSHMEM's
     * {@code nvshmemx_signal_op_on_stream}).
     */
    default void signalOpOnStream(SymmetricSegment signal, long signalOffset, long value, SignalOp op, int pe,
                                  ShmemStream stream) {
        Args.nonNull("signalOpOnStream", "signal", signal);
        Args.nonNull("signalOpOnStream", "op", op);
        atomicOnStream("signalOpOnStream", op.atomicOp(), signal, signalOffset,
                Long.BYTES, value, pe, stream);
    }

    private void atomicOnStream(String call, AtomicOp op, SymmetricSegment dest, long offset, int width, long value,
                                int pe, ShmemStream stream) {
        Args.nonNull(call, "dest", dest);
        Shmem s = (Shmem) this;
        StreamCapability gpu = s.streams(call);
        Args.nonNull(call, "stream", stream);   // after the GPU check: no stream exists on a host heap
        long at = s.target(call, dest, offset, width, pe, width);
        gpu.atomicOnStream(op, pe, at, width, value, stream.handle(call));
    }

    /**
     * The device address of this PE's copy of {@code segment} (plus {@code offset}), to pass to a
     * kernel. Only on GPU heaps; the address is not dereferenceable from Java.
     */
    default MemorySegment deviceAddress(SymmetricSegment segment, long offset) {
        Args.nonNull("deviceAddress", "segment", segment);
        Shmem s = (Shmem) this;
        StreamCapability gpu = s.streams("deviceAddress");
        return gpu.address(s.myPe(), s.target("deviceAddress", segment, offset, 0, s.myPe()));
    }
}
