package org.jshmem.gemm;

import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

import java.lang.foreign.MemorySegment;
import org.jshmem.DType;

/** fp16/bf16 matrices in host memory as fp32 arrays, for the CPU paths: widening, transposing, storing. */
final class HostMatrices {
    private HostMatrices() {
    }

    /** Elements {@code first .. first + count - 1} of {@code seg}, widened to fp32. */
    static float[] widen(MemorySegment seg, long first, long count, DType type) {
        float[] out = new float[Math.toIntExact(count)];
        for (int i = 0; i < out.length; i++) {
            out[i] = Elements.toFloat(seg.getAtIndex(JAVA_SHORT_UNALIGNED, first + i), type);
        }
        return out;
    }

    /** Widens elements {@code first .. first + count - 1} of {@code seg} into the same places of {@code out}. */
    static void widenInto(float[] out, MemorySegment seg, long first, long count, DType type) {
        for (long i = first; i < first + count; i++) {
            out[(int) i] = Elements.toFloat(seg.getAtIndex(JAVA_SHORT_UNALIGNED, i), type);
        }
    }

    /** The cols x rows transpose of a rows x cols matrix. */
    static float[] transpose(float[] x, int rows, int cols) {
        float[] t = new float[x.length];
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                t[c * rows + r] = x[r * cols + c];
            }
        }
        return t;
    }

    /** A PE's B of shape {@code sh} as k x n fp32, whichever way it is stored. */
    static float[] bByRowsOfK(MemorySegment b, GemmShape sh, BLayout layout, DType type) {
        float[] bf = widen(b, 0, (long) sh.k() * sh.n(), type);
        return layout == BLayout.N_BY_K ? transpose(bf, sh.n(), sh.k()) : bf;
    }

    /** The m x n product of m x k {@code a} and k x n {@code b} (row-major), accumulated in fp32, rows in parallel. */
    static float[] multiply(float[] a, float[] b, int m, int n, int k) {
        float[] c = new float[m * n];
        java.util.stream.IntStream.range(0, m).parallel().forEach(i -> {
            for (int kk = 0; kk < k; kk++) {
                float av = a[i * k + kk];
                for (int j = 0; j < n; j++) {
                    c[i * n + j] += av * b[kk * n + j];
                }
            }
        });
        return c;
    }

    /** Stores {@code c} into {@code dest} from element 0, each element rounded once to {@code type}. */
    static void store(float[] c, MemorySegment dest, DType type) {
        for (int i = 0; i < c.length; i++) {
            dest.setAtIndex(JAVA_SHORT_UNALIGNED, i, Elements.fromFloat(c[i], type));
        }
    }
}
