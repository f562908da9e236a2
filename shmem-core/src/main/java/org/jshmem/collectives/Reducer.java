package org.jshmem.collectives;

import java.lang.foreign.MemorySegment;
import org.jshmem.DType;
import org.jshmem.ReduceOp;

/**
 * Combines the same range of several buffers element by element: for {@code i < n},
 * {@code dst[i] = src_0[i] op src_1[i] op ... op src_{count-1}[i]}, from left to right, so the
 * result does not depend on which PE computes it. Offsets are in bytes; no alignment is needed.
 * {@code dst} may be one of the sources at the same offset (in place); other overlaps are not
 * allowed. Stateless and thread-safe.
 */
public interface Reducer {

    /** The reduction over {@code count} sources ({@code srcs[k]} at {@code srcOffsets[k]}) of {@code n} elements each. */
    void reduce(MemorySegment dst, long dstOffset, MemorySegment[] srcs, long[] srcOffsets, int count, long n);

    /** The reducer of {@code op} on {@code type} (one shared instance per pair); bitwise operations only on integer types. */
    static Reducer of(DType type, ReduceOp op) {
        if (op.isBitwise() && !type.isInteger()) {
            throw new IllegalArgumentException(op + " is a bitwise operation, defined only for integer types"
                    + " (BYTE, SHORT, INT, LONG); " + type + " is a floating-point type. Use SUM, PROD, MIN or MAX.");
        }
        return Reducers.get(type, op);
    }

    /** First element of member {@code i}'s slice of {@code nelems} split {@code n} ways (balanced): the slices of a two-shot reduction. */
    public static long sliceStart(long nelems, int i, int n) {
        return nelems / n * i + nelems % n * i / n;   // floor(nelems * i / n) without overflow
    }
}
