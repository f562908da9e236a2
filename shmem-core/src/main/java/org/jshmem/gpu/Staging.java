package org.jshmem.gpu;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

import java.lang.foreign.MemorySegment;
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
     * {@code dstPitch == elem}, unpacking from one with {@code srcPitch == elem}).
     */
    static void copyStrided(MemorySegment src, long srcAt, long srcPitch, MemorySegment dst, long dstAt, long dstPitch,
                            long elem, long n) {
        if (srcPitch == elem && dstPitch == elem) {
            MemorySegment.copy(src, srcAt, dst, dstAt, n * elem);
            return;
        }
        switch ((int) elem) {   // typed loops: one load and one store per element, no call per element
            case 8 -> {
                for (long i = 0; i < n; i++) {
                    dst.set(JAVA_LONG_UNALIGNED, dstAt + i * dstPitch, src.get(JAVA_LONG_UNALIGNED, srcAt + i * srcPitch));
                }
            }
            case 4 -> {
                for (long i = 0; i < n; i++) {
                    dst.set(JAVA_INT_UNALIGNED, dstAt + i * dstPitch, src.get(JAVA_INT_UNALIGNED, srcAt + i * srcPitch));
                }
            }
            case 2 -> {
                for (long i = 0; i < n; i++) {
                    dst.set(JAVA_SHORT_UNALIGNED, dstAt + i * dstPitch, src.get(JAVA_SHORT_UNALIGNED, srcAt + i * srcPitch));
                }
            }
            case 1 -> {
                for (long i = 0; i < n; i++) {
                    dst.set(JAVA_BYTE, dstAt + i * dstPitch, src.get(JAVA_BYTE, srcAt + i * srcPitch));
                }
            }
            default -> {
                for (long i = 0; i < n; i++) {
                    MemorySegment.copy(src, srcAt + i * srcPitch, dst, dstAt + i * dstPitch, elem);
                }
            }
        }
    }

    @Override
    public void close() {
        Shim.eventDestroy(done[0]);
        Shim.eventDestroy(done[1]);
        Shim.hostFree(buffer);
    }
}
