package org.jshmem;

import java.lang.management.ManagementFactory;
import org.jshmem.spi.Backend;

/**
 * What the symmetric heap can promise: the largest alignment {@link Shmem#align} meets (the
 * alignment of the heap's base address on every PE, agreed at start-up by
 * {@link org.jshmem.runtime.ShmemRuntime}), and the
 * largest heap a {@code JSHMEM_SYMMETRIC_SIZE} suggestion may name (the memory of the machine or
 * of the GPU).
 */
final class HeapLimits {
    private HeapLimits() {
    }

    /**
     * The message of an align whose alignment is above {@code agreed}, the alignment of the heap's
     * base address on every PE: no block of the heap can be promised it. A heap of at least
     * {@code alignment + bytes} would be aligned enough, unless the backend never aligns a heap that
     * far ({@code maxAligned}).
     */
    static String alignmentAboveBase(String call, int pe, long alignment, long bytes, long agreed, long maxAligned) {
        String why = call + " on PE " + pe + ": no block of the symmetric heap is at a multiple of "
                + Shmem.sizeText(alignment) + " on every PE: the heap's base address is " + Shmem.sizeText(agreed)
                + "-aligned on every PE (a heap is placed at a multiple of the largest power of two not above its"
                + " size" + (maxAligned < 1L << 62 ? ", at most " + Shmem.sizeText(maxAligned) + " here" : "") + "). ";
        if (alignment > maxAligned) {
            return why + "Use an alignment of at most " + Shmem.sizeText(maxAligned) + ".";
        }
        long needed = Math.min(1L << 62, alignment + Math.max(bytes, 0));
        return why + "Use a smaller alignment, or a larger heap (at least " + needed + " bytes), e.g."
                + " JSHMEM_SYMMETRIC_SIZE=" + Shmem.sizeText(suggestedSize(needed, 0)) + ".";
    }

    /**
     * The memory a heap of this backend can at most come from: the GPU's memory on a GPU heap,
     * else the machine's physical memory (0 when it cannot be read).
     */
    static long memoryOf(Backend backend) {
        if (backend.memoryBytes() > 0) {
            return backend.memoryBytes();
        }
        try {
            return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                    .getTotalMemorySize();
        } catch (RuntimeException | LinkageError e) {
            return 0;
        }
    }

    /**
     * The advice of a {@link HeapExhaustedException}: the {@code JSHMEM_SYMMETRIC_SIZE} that would
     * hold {@code asked} more bytes, or, when no heap on this machine could (more than
     * {@code memory} bytes), that the request itself is unreasonable.
     */
    static String advice(long asked, long current, long memory) {
        long needed = current + Math.min(asked, 1L << 62);
        if (memory > 0 && (asked >= memory || needed > memory)) {
            return "The request itself is too large: " + asked + " bytes is more than this machine can give one PE"
                    + " (" + Shmem.sizeText(roundDown(memory)) + (memory % (1L << 20) == 0 ? "" : " or so")
                    + " of memory); check the size passed (an overflow, or a count used as bytes?).";
        }
        return "Free segments you no longer need, or raise JSHMEM_SYMMETRIC_SIZE (now " + Shmem.sizeText(current)
                + "), e.g. JSHMEM_SYMMETRIC_SIZE=" + Shmem.sizeText(suggestedSize(needed, memory)) + ".";
    }

    private static long roundDown(long memory) {
        return memory >= 1L << 20 ? memory & -(1L << 20) : memory;
    }

    /** The next power of two (from 1 MiB) at or above {@code needed}, capped at {@code memory} when known. */
    private static long suggestedSize(long needed, long memory) {
        long s = 1L << 20;
        while (s < needed && s < 1L << 62) {
            s <<= 1;
        }
        return memory > 0 && s > memory ? roundDown(memory) : s;
    }
}
