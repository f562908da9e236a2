package org.jshmem.gpu;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.IntStream;
import org.jshmem.gpu.shim.Shim;

/**
 * Pinned host memory through which data the device cannot reach directly (Java arrays, strided
 * elements) passes: two halves used in turn, each with an event marking when the stream work that
 * last used it is done. The host fills or drains one half while the device works on the other,
 * and a non-blocking put may leave a half in flight: the next user of that half waits for it, not
 * for the whole stream. Not thread-safe: the backend's lock covers it.
 */
final class Staging implements AutoCloseable {
    /** Bytes of each half. */
    static final long HALF_BYTES = 2L << 20;
    /** Strided copies from this many packed bytes are split across threads (one core's memory bandwidth bounds them). */
    static final long PARALLEL_MIN_BYTES = 512L << 10;
    /** Threads a strided copy uses at most: the caller and the common pool's workers. */
    private static final int COPY_THREADS = Math.min(4, ForkJoinPool.getCommonPoolParallelism() + 1);

    private final MemorySegment buffer = Shim.hostAlloc(2 * HALF_BYTES);
    private final MemorySegment[] halves = {buffer.asSlice(0, HALF_BYTES), buffer.asSlice(HALF_BYTES, HALF_BYTES)};
    private final MemorySegment[] done = {Shim.eventCreate(false), Shim.eventCreate(false)};
    private final boolean[] inFlight = new boolean[2];
    private int next;

    /** The next half, once the work that last used it is done; {@link #submit} after enqueueing its copy. */
    int acquire() {
        int h = next;
        await(h);
        return h;
    }

    /** The memory of half {@code h}. */
    MemorySegment half(int h) {
        return halves[h];
    }

    /** Marks half {@code h} in use by the work enqueued on {@code stream} so far; the next acquire takes the other half. */
    void submit(int h, MemorySegment stream) {
        Shim.eventRecord(done[h], stream);
        inFlight[h] = true;
        next = h ^ 1;
    }

    /** Waits until the work that last used half {@code h} is done (a copy into it has landed). */
    void await(int h) {
        if (inFlight[h]) {
            Shim.eventSynchronize(done[h]);
            inFlight[h] = false;
        }
    }

    /** After a synchronise of the stream: nothing is in flight. */
    void idle() {
        inFlight[0] = inFlight[1] = false;
    }

    /**
     * Copies {@code n} elements of {@code elem} bytes between host segments: element i from
     * {@code srcAt + i * srcPitch} to {@code dstAt + i * dstPitch} (packing into a half with
     * {@code dstPitch == elem}, unpacking from one with {@code srcPitch == elem}). A native loop
     * (the typed Java loop ran at a third of the copy engine's rate, and the host's packing bounds
     * a strided put), on up to {@link #COPY_THREADS} threads from {@link #PARALLEL_MIN_BYTES}: one
     * core's memory bandwidth was still the limit for a source larger than the caches.
     */
    static void copyStrided(MemorySegment src, long srcAt, long srcPitch, MemorySegment dst, long dstAt, long dstPitch,
                            long elem, long n) {
        if (n == 0) {
            return;
        }
        if (srcPitch == elem && dstPitch == elem) {
            MemorySegment.copy(src, srcAt, dst, dstAt, n * elem);
            return;
        }
        MemorySegment from = src.asSlice(srcAt, (n - 1) * srcPitch + elem);   // the bounds the native loop relies on
        MemorySegment to = dst.asSlice(dstAt, (n - 1) * dstPitch + elem);
        int parts = (int) Math.min(COPY_THREADS, n * elem / (PARALLEL_MIN_BYTES / 2));
        if (parts < 2) {
            Shim.copyStridedHost(to, dstPitch, from, srcPitch, elem, n);
            return;
        }
        long per = (n + parts - 1) / parts;
        IntStream.range(0, parts).parallel().forEach(part -> {
            long first = part * per;
            long count = Math.min(per, n - first);
            if (count > 0) {
                Shim.copyStridedHost(to.asSlice(first * dstPitch), dstPitch, from.asSlice(first * srcPitch), srcPitch,
                        elem, count);
            }
        });
    }

    @Override
    public void close() {
        Shim.eventDestroy(done[0]);
        Shim.eventDestroy(done[1]);
        Shim.hostFree(buffer);
    }
}
