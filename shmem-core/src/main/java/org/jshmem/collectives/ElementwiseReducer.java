package org.jshmem.collectives;

import java.lang.foreign.MemorySegment;
import org.jshmem.ReduceOp;

/**
 * A reducer for types combined in their own precision: the first two sources are combined into
 * the destination, then each further source into it, a cache-sized chunk at a time so that the
 * partial result stays in cache while every source streams through once.
 *
 * <p>The per-type subclasses repeat one loop shape on purpose: each {@code combine} is a plain
 * counted loop over one {@code ValueLayout} constant and one operator, which C2 unrolls and
 * vectorises; a shared generic loop (a lambda or a layout parameter) would share one type profile
 * between all types and risk losing that.
 */
abstract sealed class ElementwiseReducer implements Reducer
        permits ByteReducer, ShortReducer, IntReducer, LongReducer, FloatReducer, DoubleReducer {
    /** Bytes of destination combined with every source before the next chunk. */
    static final long CHUNK_BYTES = 16 << 10;

    final ReduceOp op;
    private final int size;

    ElementwiseReducer(ReduceOp op, int size) {
        this.op = op;
        this.size = size;
    }

    /** {@code d[i] = a[i] op b[i]} for {@code i < n}; offsets in bytes. */
    abstract void combine(MemorySegment d, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long n);

    @Override
    public final void reduce(MemorySegment dst, long dstOffset, MemorySegment[] srcs, long[] srcOffsets, int count, long n) {
        if (count == 1) {
            if (srcs[0] != dst || srcOffsets[0] != dstOffset) {
                MemorySegment.copy(srcs[0], srcOffsets[0], dst, dstOffset, n * size);
            }
            return;
        }
        if (count == 2) {
            combine(dst, dstOffset, srcs[0], srcOffsets[0], srcs[1], srcOffsets[1], n);
            return;
        }
        // In place with a later source: that source's chunk is saved before the destination is written.
        int alias = -1;
        for (int k = 2; k < count; k++) {
            if (srcs[k] == dst && srcOffsets[k] == dstOffset) {
                alias = k;
            }
        }
        MemorySegment saved = alias < 0 ? null : MemorySegment.ofArray(new long[(int) (CHUNK_BYTES / Long.BYTES)]);
        long chunk = CHUNK_BYTES / size;
        for (long done = 0; done < n; done += chunk) {
            long m = Math.min(chunk, n - done);
            long at = done * size;
            if (saved != null) {
                MemorySegment.copy(dst, dstOffset + at, saved, 0, m * size);
            }
            combine(dst, dstOffset + at, srcs[0], srcOffsets[0] + at, srcs[1], srcOffsets[1] + at, m);
            for (int k = 2; k < count; k++) {
                if (k == alias) {
                    combine(dst, dstOffset + at, dst, dstOffset + at, saved, 0, m);
                } else {
                    combine(dst, dstOffset + at, dst, dstOffset + at, srcs[k], srcOffsets[k] + at, m);
                }
            }
        }
    }
}
