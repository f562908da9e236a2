package org.jshmem.gemm;

/**
 * How a global GEMM is split over {@code nPes} PEs for a collective: which part of A and B each PE
 * holds. A split size that does not divide evenly gives the first {@code size % nPes} PEs one more.
 *
 * <ul>
 *   <li>{@link GemmCollective#NONE}: every PE computes the whole GEMM.</li>
 *   <li>{@link GemmCollective#ALL_SCATTER}: PE p gets n_p columns of B and of C, from column off_p.</li>
 *   <li>{@link GemmCollective#ALL_REDUCE}: PE p gets k_p columns of A (rows of B), from off_p.</li>
 * </ul>
 */
public record ShardLayout(GemmCollective collective, GemmShape global, int nPes) {
    public ShardLayout {
        if (nPes <= 0) {
            throw new IllegalArgumentException("PE count " + nPes + " must be positive");
        }
        int split = switch (collective) {
            case ALL_SCATTER -> global.n();
            case ALL_REDUCE -> global.k();
            case NONE -> Integer.MAX_VALUE;
        };
        if (split < nPes) {
            String what = collective == GemmCollective.ALL_SCATTER ? "n" : "k";
            throw new IllegalArgumentException(collective.cliName() + " over " + nPes + " PEs needs " + what + " >= "
                    + nPes + " (each PE gets at least one " + (what.equals("n") ? "column" : "row of B") + "); got "
                    + what + " = " + split);
        }
    }

    /** PE pe's GEMM: its A is m x k, its B k x n (sharded sizes), its C m x n of its own part. */
    public GemmShape local(int pe) {
        return switch (collective) {
            case NONE -> global;
            case ALL_SCATTER -> new GemmShape(global.m(), share(global.n(), pe), global.k());
            case ALL_REDUCE -> new GemmShape(global.m(), global.n(), share(global.k(), pe));
        };
    }

    /** First column (all-scatter: of C and global B) or first k (all-reduce) of PE pe's shard; 0 for NONE. */
    public int offset(int pe) {
        if (collective == GemmCollective.NONE) {
            return 0;
        }
        int size = collective == GemmCollective.ALL_SCATTER ? global.n() : global.k();
        return pe * (size / nPes) + Math.min(pe, size % nPes);
    }

    private int share(int size, int pe) {
        return size / nPes + (pe < size % nPes ? 1 : 0);
    }
}
