package org.jshmem.gemm;

import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

import java.lang.foreign.MemorySegment;
import org.jshmem.DType;

/**
 * Deterministic test matrices: element (r, c) of a matrix with {@code cols} columns is a value in
 * [-1, 1) hashed from {@code r * cols + c} and a seed (splitmix64), rounded to the element type. The
 * GPU's {@code jgemm_fill} computes the same values, so any PE can make any shard, or the whole matrix.
 * B is the k x n matrix of {@link #SEED_B}, or with {@link BLayout#N_BY_K} the transpose of the n x k one.
 */
public final class TestMatrices {
    /** Seeds of A and B. */
    public static final long SEED_A = 0x5EED_A000L;
    public static final long SEED_B = 0x5EED_B000L;

    private TestMatrices() {
    }

    /** The value of element {@code index} of the matrix named by {@code seed}, before rounding. */
    public static float value(long seed, long index) {
        long z = seed ^ (index * 0x9E3779B97F4A7C15L);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z ^= z >>> 31;
        return (float) (z >>> 40) * (1.0f / 8388608.0f) - 1.0f;
    }

    /** The element, rounded to {@code type} and widened back. */
    public static float rounded(long seed, long index, DType type) {
        return Elements.toFloat(Elements.fromFloat(value(seed, index), type), type);
    }

    /** Writes the block at (row0, col0) of a matrix with globalCols columns into {@code x} (rows x cols, ld). */
    public static void fill(MemorySegment x, int rows, int cols, long ld, int row0, int col0, long globalCols,
                            long seed, DType type) {
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                long g = (long) (r + row0) * globalCols + c + col0;
                x.setAtIndex(JAVA_SHORT_UNALIGNED, r * ld + c, Elements.fromFloat(value(seed, g), type));
            }
        }
    }

    /**
     * ||C - A x B|| / ||A x B|| for C (m x n, row-major, {@code type}) against the product of the whole
     * test matrices computed in double; NaN if C holds a non-finite element.
     */
    public static double relativeError(MemorySegment c, GemmShape shape, DType type) {
        return relativeError(c, shape, type, BLayout.K_BY_N, new ShardLayout.Window(0, shape.m(), 0, shape.n()));
    }

    /**
     * Like {@link #relativeError(MemorySegment, GemmShape, DType)} for C holding window w of the product
     * (dense), B the test matrix in {@code bLayout}.
     */
    public static double relativeError(MemorySegment c, GemmShape shape, DType type, BLayout bLayout,
                                       ShardLayout.Window w) {
        int n = shape.n(), k = shape.k();
        long ldb = bLayout.rowLength(shape);   // the whole B as stored
        double[] b = new double[k * w.cols()];
        for (int kk = 0; kk < k; kk++) {
            for (int j = 0; j < w.cols(); j++) {
                b[kk * w.cols() + j] = rounded(SEED_B, bLayout.index(kk, w.col0() + j, 0, 0, ldb), type);
            }
        }
        double d2 = 0, r2 = 0;
        double[] row = new double[w.cols()];
        for (int i = 0; i < w.rows(); i++) {
            java.util.Arrays.fill(row, 0);
            for (int kk = 0; kk < k; kk++) {
                double a = rounded(SEED_A, (long) (w.row0() + i) * k + kk, type);
                int off = kk * w.cols();
                for (int j = 0; j < w.cols(); j++) {
                    row[j] += a * b[off + j];
                }
            }
            for (int j = 0; j < w.cols(); j++) {
                float got = Elements.toFloat(c.getAtIndex(JAVA_SHORT_UNALIGNED, (long) i * w.cols() + j), type);
                if (!Float.isFinite(got)) {
                    return Double.NaN;
                }
                d2 += (got - row[j]) * (got - row[j]);
                r2 += row[j] * row[j];
            }
        }
        return Math.sqrt(d2 / r2);
    }

    /**
     * The relative error a correct result stays under: 4 units of rounding of the output type (fp32
     * accumulation; the output, and all-reduce partials, rounded once each).
     */
    public static double errorBound(DType type) {
        return type == DType.BF16 ? 4 * Math.scalb(1.0, -8) : 4 * Math.scalb(1.0, -11);
    }
}
