package org.jshmem.gemm;

/**
 * The sizes of C[m x n] = A[m x k] * B[k x n] (cuBLAS names; every matrix row-major).
 *
 * @throws IllegalArgumentException when a size is not positive
 */
public record GemmShape(int m, int n, int k) {
    public GemmShape {
        check("m", m);
        check("n", n);
        check("k", k);
    }

    private static void check(String name, int v) {
        if (v <= 0) {
            throw new IllegalArgumentException("GEMM size " + name + " = " + v + " must be positive (C[m x n] = A[m x k]"
                    + " * B[k x n])");
        }
    }

    /** Floating-point operations: 2mnk. */
    public double flops() {
        return 2.0 * m * n * k;
    }

    @Override
    public String toString() {
        return m + "x" + n + "x" + k;
    }
}
