package org.jshmem.gemm;

/**
 * How B of C[m x n] = A[m x k] x B[k x n] is stored (every matrix row-major). A PE's shard of B is
 * the block {@link ShardLayout#bWindow} of the k x n matrix either way; with {@link #N_BY_K} it is
 * stored transposed, as that block's columns x rows.
 */
public enum BLayout {
    /** B as k x n rows (cuBLAS's row-major {@code op(B) = N}); rows of n elements. */
    K_BY_N,
    /**
     * B's transpose, n x k rows: C = A x W^T for a weight W stored n x k, as PyTorch's
     * {@code nn.Linear} stores it (cuBLAS's row-major {@code op(B) = T}); rows of k elements.
     */
    N_BY_K;

    /** Elements per row of a k x n B stored in this layout: n, or k. */
    int rowLength(GemmShape shape) {
        return this == K_BY_N ? shape.n() : shape.k();
    }

    /**
     * Where element (kk, j) of a k x n B lies in a block stored in this layout whose first element is
     * (row0, col0) of B: rows of {@code ld} elements.
     */
    long index(int kk, int j, int row0, int col0, long ld) {
        return this == K_BY_N ? (long) (kk - row0) * ld + (j - col0) : (long) (j - col0) * ld + (kk - row0);
    }
}
