package org.jshmem.gpu;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;
import java.util.function.IntUnaryOperator;
import org.jshmem.AtomicOp;
import org.jshmem.SignalOp;
import org.jshmem.gpu.shim.Shim;
import org.jshmem.spi.BackendContext;

/**
 * One ordered channel of host-called operations on a GPU heap: a stream of its own (copy engine
 * for data, stream writes for 4- and 8-byte stores and signal SETs, one-thread kernels for atomics
 * and signal ADDs), pinned staging for Java arrays and strided elements, and a scratch word for
 * atomics' results. The backend's default channel carries the calls made on {@code Shmem}; each
 * {@code ShmemContext} gets another, so its quiet synchronises its own stream alone. The blocking
 * operations wait for the stream; quiet waits only when something was queued since the last wait.
 * One lock per channel.
 */
final class GpuChannel implements BackendContext, AutoCloseable {
    private final GpuBackend backend;
    private final MemorySegment stream;
    private final Staging staging = new Staging();
    private final MemorySegment scratch = Shim.hostAlloc(64);
    /**
     * Whether work was queued since the stream was last waited for. A quiet after blocking calls
     * then returns at once: waiting even for an idle stream is a driver call, a large part of a
     * small put's latency.
     */
    private boolean queued;

    /** A channel on {@code stream}, which it owns and destroys on {@link #close()}. */
    GpuChannel(GpuBackend backend, MemorySegment stream) {
        this.backend = backend;
        this.stream = stream;
    }

    MemorySegment stream() {
        return stream;
    }

    /** Whether nothing was queued since the stream was last waited for. */
    synchronized boolean idle() {
        return !queued;
    }

    /** Queues {@code work} on the stream and waits for it by polling, calling {@code idle} between polls. */
    synchronized void runAndPoll(Consumer<MemorySegment> work, IntUnaryOperator idle) {
        work.accept(stream);
        for (int n = 0; !Shim.streamQuery(stream, scratch); ) {
            n = idle.applyAsInt(n);
        }
    }

    /** Queues {@code work} on the stream and waits for it. */
    synchronized void runAndSync(Consumer<MemorySegment> work) {
        work.accept(stream);
        synchronize();
    }

    /** Copies host memory to a device address and waits. */
    synchronized void upload(MemorySegment deviceDst, MemorySegment hostSrc) {
        toDevice(deviceDst, hostSrc, false);
    }

    @Override
    public synchronized void put(int pe, long offset, MemorySegment src) {
        toDevice(backend.address(pe, offset), src, false);
    }

    @Override
    public synchronized void putNbi(int pe, long offset, MemorySegment src) {
        toDevice(backend.address(pe, offset), src, true);
    }

    @Override
    public synchronized void get(MemorySegment dst, int pe, long offset) {
        fromDevice(dst, backend.address(pe, offset), false);
    }

    @Override
    public synchronized void getNbi(MemorySegment dst, int pe, long offset) {
        fromDevice(dst, backend.address(pe, offset), true);
    }

    @Override
    public synchronized void copy(int dstPe, long dstOffset, int srcPe, long srcOffset, long bytes, boolean nbi) {
        Shim.memcpyAsync(backend.address(dstPe, dstOffset), backend.address(srcPe, srcOffset), bytes, stream);
        finish(nbi);
    }

    /** One kernel moves every element (either side may be a peer's heap as this process maps it). */
    @Override
    public synchronized void copyStrided(int dstPe, long dstOffset, long dstPitch, int srcPe, long srcOffset, long srcPitch,
                                         long elemBytes, long nelems) {
        Shim.copyStridedAsync(backend.address(dstPe, dstOffset), dstPitch, backend.address(srcPe, srcOffset), srcPitch,
                elemBytes, nelems, stream);
        synchronize();
    }

    /**
     * Host memory to device. A native segment goes straight to the copy engine; a Java array
     * through the pinned staging halves (the runtime cannot read the Java heap), so it is
     * reusable on return. {@code nbi} leaves the copies queued for {@link #quiet()}: a native
     * source must then stay untouched until the quiet, as OpenSHMEM's put_nbi says.
     */
    private void toDevice(MemorySegment dst, MemorySegment src, boolean nbi) {
        long n = src.byteSize();
        if (src.isNative()) {
            Shim.memcpyAsync(dst, src, n, stream);
        } else {
            for (long done = 0; done < n; done += Staging.HALF_BYTES) {
                long chunk = Math.min(Staging.HALF_BYTES, n - done);
                int h = staging.acquire();
                MemorySegment.copy(src, done, staging.half(h), 0, chunk);
                Shim.memcpyAsync(MemorySegment.ofAddress(dst.address() + done), staging.half(h), chunk, stream);
                staging.submit(h, stream);
            }
        }
        finish(nbi);
    }

    /**
     * Device to host memory. A native segment is written by the copy engine ({@code nbi}: queued,
     * landed by {@link #quiet()}); a Java array through the staging halves, draining one while the
     * other fills, so it is complete on return even for {@code nbi}.
     */
    private void fromDevice(MemorySegment dst, MemorySegment src, boolean nbi) {
        long n = dst.byteSize();
        if (dst.isNative()) {
            Shim.memcpyAsync(dst, src, n, stream);
            finish(nbi);
            return;
        }
        long chunks = (n + Staging.HALF_BYTES - 1) / Staging.HALF_BYTES;
        int first = 0;   // the half of chunk 0; the halves alternate, so chunk c went to (first + c) % 2
        for (long c = 0; c <= chunks; c++) {   // queue chunk c, then drain chunk c - 1 while it moves
            if (c < chunks) {
                long at = c * Staging.HALF_BYTES;
                int h = staging.acquire();
                Shim.memcpyAsync(staging.half(h), MemorySegment.ofAddress(src.address() + at),
                        Math.min(Staging.HALF_BYTES, n - at), stream);
                staging.submit(h, stream);
                first = c == 0 ? h : first;
            }
            if (c > 0) {
                long at = (c - 1) * Staging.HALF_BYTES;
                int h = (int) ((first + c - 1) & 1);
                staging.await(h);
                MemorySegment.copy(staging.half(h), 0, dst, at, Math.min(Staging.HALF_BYTES, n - at));
            }
        }
    }

    /**
     * Strided put: the elements are packed into a staging half on the host (one typed loop, or
     * one bulk copy when the source is dense) and go on from there while the host packs the next
     * half: to a dense destination with the copy engine, else with a kernel that writes them to
     * their strided places reading the pinned half directly (zero-copy reads are slower than DMA).
     */
    @Override
    public synchronized void iput(int pe, long offset, long destPitch, MemorySegment src, long srcPitch, long elemBytes,
                                  long nelems) {
        if (elemBytes > Staging.HALF_BYTES) {
            BackendContext.super.iput(pe, offset, destPitch, src, srcPitch, elemBytes, nelems);
            return;
        }
        long perChunk = Staging.HALF_BYTES / elemBytes;
        for (long i = 0; i < nelems; i += perChunk) {
            long count = Math.min(perChunk, nelems - i);
            int h = staging.acquire();
            Staging.copyStrided(src, i * srcPitch, srcPitch, staging.half(h), 0, elemBytes, elemBytes, count);
            MemorySegment at = backend.address(pe, offset + i * destPitch);
            if (destPitch == elemBytes) {
                Shim.memcpyAsync(at, staging.half(h), count * elemBytes, stream);
            } else {
                Shim.copyStridedAsync(at, destPitch, staging.half(h), elemBytes, elemBytes, count, stream);
            }
            staging.submit(h, stream);
        }
        synchronize();
    }

    /**
     * Strided get: the elements go into a staging half (the copy engine for a dense source, else a
     * kernel that packs them), and the host unpacks it while the next one fills.
     */
    @Override
    public synchronized void iget(MemorySegment dst, long dstPitch, int pe, long offset, long srcPitch, long elemBytes,
                                  long nelems) {
        if (elemBytes > Staging.HALF_BYTES) {
            BackendContext.super.iget(dst, dstPitch, pe, offset, srcPitch, elemBytes, nelems);
            return;
        }
        long perChunk = Staging.HALF_BYTES / elemBytes;
        long chunks = (nelems + perChunk - 1) / perChunk;
        int first = 0;
        for (long c = 0; c <= chunks; c++) {   // a kernel packs chunk c, the host unpacks chunk c - 1 meanwhile
            if (c < chunks) {
                long i = c * perChunk;
                int h = staging.acquire();
                MemorySegment from = backend.address(pe, offset + i * srcPitch);
                long count = Math.min(perChunk, nelems - i);
                if (srcPitch == elemBytes) {
                    Shim.memcpyAsync(staging.half(h), from, count * elemBytes, stream);
                } else {
                    Shim.copyStridedAsync(staging.half(h), elemBytes, from, srcPitch, elemBytes, count, stream);
                }
                staging.submit(h, stream);
                first = c == 0 ? h : first;
            }
            if (c > 0) {
                long i = (c - 1) * perChunk;
                int h = (int) ((first + c - 1) & 1);
                staging.await(h);
                Staging.copyStrided(staging.half(h), 0, elemBytes, dst, i * dstPitch, dstPitch, elemBytes,
                        Math.min(perChunk, nelems - i));
            }
        }
    }

    /** Waits for everything queued on the internal stream; the staging halves are free after it. */
    private void synchronize() {
        Shim.streamSynchronize(stream);
        staging.idle();
        queued = false;
    }

    /** After queuing an operation: waits for it, or with {@code nbi} leaves it for the quiet. */
    private void finish(boolean nbi) {
        if (nbi) {
            queued = true;
        } else {
            synchronize();
        }
    }

    @Override
    public synchronized void putSignal(int pe, long offset, MemorySegment src, long sigOffset, long signal, SignalOp op,
                                       boolean nbi) {
        toDevice(backend.address(pe, offset), src, true);
        signalAsync(pe, sigOffset, signal, op);
        finish(nbi);
    }

    @Override
    public synchronized void copySignal(int pe, long offset, int srcPe, long srcOffset, long bytes, long sigOffset,
                                        long signal, SignalOp op, boolean nbi) {
        Shim.putSignalAsync(backend.address(pe, offset), backend.address(srcPe, srcOffset), bytes, backend.address(pe, sigOffset), signal,
                op.code(), stream);
        finish(nbi);
    }

    /** A SET is a stream write (after the data in stream order, its writes visible first); an ADD a one-thread kernel. */
    private void signalAsync(int pe, long sigOffset, long signal, SignalOp op) {
        MemorySegment sig = backend.address(pe, sigOffset);
        if (op == SignalOp.SET) {
            Shim.streamWriteValue(stream, sig, signal, Long.BYTES);
        } else {
            Shim.putSignalAsync(sig, MemorySegment.NULL, 0, sig, signal, op.code(), stream);
        }
    }

    /**
     * A 4- or 8-byte store at its alignment is a stream write carrying the value (quicker than a copy
     * from pinned memory, which the copy engine has to fetch); other widths and alignments copy from
     * the scratch word.
     */
    @Override
    public synchronized void store(int pe, long offset, int width, long bits) {
        MemorySegment at = backend.address(pe, offset);
        if ((width == Integer.BYTES || width == Long.BYTES) && at.address() % width == 0) {
            Shim.streamWriteValue(stream, at, bits, width);
        } else {
            scratch.set(JAVA_LONG, 0, bits);   // little-endian: the low `width` bytes come first
            Shim.memcpyAsync(at, scratch, width, stream);
        }
        synchronize();
    }

    @Override
    public synchronized long load(int pe, long offset, int width) {
        scratch.set(JAVA_LONG, 0, 0);
        Shim.memcpyAsync(scratch, backend.address(pe, offset), width, stream);
        synchronize();
        return scratch.get(JAVA_LONG, 0) & (width == 8 ? -1L : (1L << (8 * width)) - 1);
    }

    @Override
    public synchronized int atomicInt(AtomicOp op, int pe, long offset, int value, int comparand) {
        Shim.amo(backend.address(pe, offset), Integer.BYTES, op.code(), value & 0xFFFF_FFFFL, comparand & 0xFFFF_FFFFL,
                scratch, stream);
        return scratch.get(JAVA_INT, 0);
    }

    @Override
    public synchronized long atomicLong(AtomicOp op, int pe, long offset, long value, long comparand) {
        Shim.amo(backend.address(pe, offset), Long.BYTES, op.code(), value, comparand, scratch, stream);
        return scratch.get(JAVA_LONG, 0);
    }

    @Override
    public void fence() {
        // every operation of the channel runs in order on its stream
    }

    @Override
    public synchronized void quiet() {
        if (queued && !backend.failed()) {   // after a failure the stream may hold a kernel that waits forever for a dead PE
            synchronize();
        }
    }

    /** Finishes the channel's work (unless the backend failed) and releases its stream, staging and scratch. */
    @Override
    public synchronized void close() {
        RuntimeException first = null;
        for (Runnable step : new Runnable[] {
            () -> {
                if (!backend.failed()) {
                    Shim.streamSynchronize(stream);
                }
            },
            () -> Shim.streamDestroy(stream),
            staging::close,
            () -> Shim.hostFree(scratch)}) {
            try {
                step.run();
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
