package org.jshmem.gemm;

/**
 * The communication fused into the GEMM C = A x B, with the weights B sharded over the PEs: C
 * replicated (the Stream-K + SHMEM seed's two algorithms), or the tensor-parallel pair that shards
 * A's rows before (all-gather + GEMM) or C's rows after (GEMM + reduce-scatter).
 */
public enum GemmCollective {
    /** No communication: each PE computes its own C = A x B. */
    NONE,
    /**
     * B column-sharded: PE p holds A (m x k), its columns of B (k x n_p) and the whole C (m x n); it
     * computes C's columns {@code [off_p, off_p + n_p)} and writes every finished tile into every PE's C.
     */
    ALL_SCATTER,
    /**
     * B row-sharded and A column-sharded: PE p holds A_p (m x k_p) and B_p (k_p x n), computes the
     * partial C_p = A_p x B_p, and the partials are summed across PEs into every PE's C (m x n).
     */
    ALL_REDUCE,
    /**
     * A row-sharded, B column-sharded (seed 001): PE p holds rows {@code [rowOff_p, rowOff_p + m_p)}
     * of A (m_p x k) and its columns of B (k x n_p); the row blocks of A are gathered (copy
     * engines, a signal per block) while the GEMM consumes them as they arrive, its own block
     * first, into this PE's C (m x n_p).
     */
    ALL_GATHER_GEMM,
    /**
     * A column-sharded, B row-sharded, C row-sharded (seeds 003, 004): PE p holds A_p (m x k_p)
     * and B_p (k_p x n); the partial products are reduced as their tiles finish, each tile into
     * the PE owning its rows, so PE p ends with rows {@code [rowOff_p, rowOff_p + m_p)} of the sum
     * (m_p x n).
     */
    GEMM_REDUCE_SCATTER;

    /** The command-line name: {@code none}, {@code all_scatter}, {@code all_reduce}, {@code all_gather_gemm}, {@code gemm_reduce_scatter}. */
    public String cliName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
