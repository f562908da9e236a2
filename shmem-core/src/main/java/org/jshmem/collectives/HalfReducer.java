package org.jshmem.collectives;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jshmem.DType;
import org.jshmem.ReduceOp;

/**
 * Reduces 16-bit floating-point elements ({@link DType#FP16}, {@link DType#BF16}) in
 * {@code float} precision: a chunk of every source is widened to {@code float} and combined
 * into a {@code float} accumulator, which is rounded to nearest-even once, into the destination.
 */
final class HalfReducer implements Reducer {
    private static final ValueLayout.OfShort E = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final int CHUNK = 4096;

    private final boolean bf16;
    private final ReduceOp op;

    HalfReducer(DType type, ReduceOp op) {
        if (op.isBitwise()) {
            throw new IllegalArgumentException(op + " is not defined for " + type);
        }
        this.bf16 = type == DType.BF16;
        this.op = op;
    }

    @Override
    public void reduce(MemorySegment dst, long dstOffset, MemorySegment[] srcs, long[] srcOffsets, int count, long n) {
        float[] acc = new float[(int) Math.min(n, CHUNK)];
        for (long done = 0; done < n; done += CHUNK) {
            int m = (int) Math.min(CHUNK, n - done);
            long at = done * 2;
            load(acc, srcs[0], srcOffsets[0] + at, m);
            for (int k = 1; k < count; k++) {
                combine(acc, srcs[k], srcOffsets[k] + at, m);
            }
            store(acc, dst, dstOffset + at, m);
        }
    }

    private void load(float[] acc, MemorySegment s, long off, int m) {
        if (bf16) {
            for (int i = 0; i < m; i++) {
                acc[i] = DType.bf16ToFloat(s.get(E, off + 2L * i));
            }
        } else {
            for (int i = 0; i < m; i++) {
                acc[i] = Float.float16ToFloat(s.get(E, off + 2L * i));
            }
        }
    }

    private void combine(float[] acc, MemorySegment s, long off, int m) {
        switch (op) {
            case SUM -> {
                for (int i = 0; i < m; i++) {
                    acc[i] += element(s, off + 2L * i);
                }
            }
            case PROD -> {
                for (int i = 0; i < m; i++) {
                    acc[i] *= element(s, off + 2L * i);
                }
            }
            case MIN -> {
                for (int i = 0; i < m; i++) {
                    acc[i] = Math.min(acc[i], element(s, off + 2L * i));
                }
            }
            case MAX -> {
                for (int i = 0; i < m; i++) {
                    acc[i] = Math.max(acc[i], element(s, off + 2L * i));
                }
            }
            default -> throw new IllegalStateException(op.toString());
        }
    }

    private float element(MemorySegment s, long at) {
        short bits = s.get(E, at);
        return bf16 ? DType.bf16ToFloat(bits) : Float.float16ToFloat(bits);
    }

    private void store(float[] acc, MemorySegment d, long off, int m) {
        if (bf16) {
            for (int i = 0; i < m; i++) {
                d.set(E, off + 2L * i, DType.floatToBf16(acc[i]));
            }
        } else {
            for (int i = 0; i < m; i++) {
                d.set(E, off + 2L * i, Float.floatToFloat16(acc[i]));
            }
        }
    }
}
