package org.jshmem.gemm;

/**
 * The communication fused into the GEMM, for C = A x B with the weights B sharded over the PEs
 * and C replicated (the Stream-K + SHMEM seed's two algorithms).
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
    ALL_REDUCE;

    /** The command-line name: {@code none}, {@code all_scatter}, {@code all_reduce}. */
    public String cliName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
