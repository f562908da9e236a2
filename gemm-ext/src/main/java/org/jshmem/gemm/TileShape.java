package org.jshmem.gemm;

/**
 * The output tile a work-group computes ({@code m x n}) and the K-step of one iteration.
 *
 * @throws IllegalArgumentException when a size is not positive
 */
public record TileShape(int m, int n, int k) {
    public TileShape {
        if (m <= 0 || n <= 0 || k <= 0) {
            throw new IllegalArgumentException("tile " + m + "x" + n + "x" + k + ": every size must be positive");
        }
    }

    @Override
    public String toString() {
        return m + "x" + n + "x" + k;
    }
}
