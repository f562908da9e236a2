package org.jshmem.gemm;

/**
 * How a global GEMM is split over {@code nPes} PEs for a collective: which part of A, B and C each
 * PE holds, and how B is stored ({@code bLayout}). A split size that does not divide evenly gives the
 * first {@code size % nPes} PEs one more.
 *
 * <ul>
 *   <li>{@link GemmCollective#NONE}: every PE computes the whole GEMM.</li>
 *   <li>{@link GemmCollective#ALL_SCATTER}: PE p gets n_p columns of B and of C, from column off_p.</li>
 *   <li>{@link GemmCollective#ALL_REDUCE}: PE p gets k_p columns of A (rows of B), from off_p.</li>
 *   <li>{@link GemmCollective#ALL_GATHER_GEMM}: PE p gets n_p columns of B and C (from off_p) and
 *       m_p rows of A (from rowOffset(p)); it computes all m rows of its columns.</li>
 *   <li>{@link GemmCollective#GEMM_REDUCE_SCATTER}: PE p gets k_p columns of A (rows of B), from
 *       off_p, and ends with m_p rows of C, from rowOffset(p).</li>
 * </ul>
 */
public record ShardLayout(GemmCollective collective, GemmShape global, int nPes, BLayout bLayout) {
    /** B stored k x n ({@link BLayout#K_BY_N}). */
    public ShardLayout(GemmCollective collective, GemmShape global, int nPes) {
        this(collective, global, nPes, BLayout.K_BY_N);
    }

    public ShardLayout {
        java.util.Objects.requireNonNull(bLayout, "B layout is null");
        if (nPes <= 0) {
            throw new IllegalArgumentException("PE count " + nPes + " must be positive");
        }
        if (collective != GemmCollective.NONE) {
            need(collective, splitsN(collective) ? "n" : "k", splitsN(collective) ? global.n() : global.k(), nPes,
                    splitsN(collective) ? "column" : "row of B");
        }
        if (splitsRows(collective)) {
            need(collective, "m", global.m(), nPes, collective == GemmCollective.ALL_GATHER_GEMM ? "row of A" : "row of C");
        }
    }

    private static void need(GemmCollective c, String what, int size, int nPes, String unit) {
        if (size < nPes) {
            throw new IllegalArgumentException(c.cliName() + " over " + nPes + " PEs needs " + what + " >= " + nPes
                    + " (each PE gets at least one " + unit + "); got " + what + " = " + size);
        }
    }

    /** Whether the collective splits n (B's and C's columns); the others that split, split k. */
    private static boolean splitsN(GemmCollective c) {
        return c == GemmCollective.ALL_SCATTER || c == GemmCollective.ALL_GATHER_GEMM;
    }

    /** Whether the collective also splits m: A's rows (all-gather + GEMM) or C's (GEMM + reduce-scatter). */
    static boolean splitsRows(GemmCollective c) {
        return c == GemmCollective.ALL_GATHER_GEMM || c == GemmCollective.GEMM_REDUCE_SCATTER;
    }

    /** PE pe's GEMM: its A is m x k, its B k x n (sharded sizes), its C m x n of its own part. */
    public GemmShape local(int pe) {
        if (collective == GemmCollective.NONE) {
            return global;
        }
        return splitsN(collective) ? new GemmShape(global.m(), share(global.n(), pe), global.k())
                : new GemmShape(global.m(), global.n(), share(global.k(), pe));
    }

    /** First column (of C and global B: all-scatter, all-gather + GEMM) or first k (the others) of PE pe's shard; 0 for NONE. */
    public int offset(int pe) {
        if (collective == GemmCollective.NONE) {
            return 0;
        }
        return start(splitsN(collective) ? global.n() : global.k(), pe);
    }

    /** Rows of A (all-gather + GEMM) or of C (GEMM + reduce-scatter) PE pe holds; m for the others. */
    public int rows(int pe) {
        return splitsRows(collective) ? share(global.m(), pe) : global.m();
    }

    /** First of PE pe's {@link #rows}; 0 for collectives that do not split m. */
    public int rowOffset(int pe) {
        return splitsRows(collective) ? rowBlockStart(pe) : 0;
    }

    /**
     * First row of PE pe's row block, m split over the PEs whatever the collective ({@code pe} may be
     * nPes: then m). The rows a PE owns where partials are reduced by rows: its C (GEMM +
     * reduce-scatter) or the rows it sums for everyone (two-shot all-reduce).
     */
    public int rowBlockStart(int pe) {
        return start(global.m(), pe);
    }

    /** The PE whose row block ({@link #rowBlockStart}) holds global row {@code row}. */
    public int rowBlockOf(int row) {
        int base = global.m() / nPes, extra = global.m() % nPes, big = extra * (base + 1);
        return row < big ? row / (base + 1) : extra + (row - big) / base;
    }

    /** A block of a matrix: rows {@code [row0, row0 + rows)}, columns {@code [col0, col0 + cols)}. */
    public record Window(int row0, int rows, int col0, int cols) {
        public long elements() {
            return (long) rows * cols;
        }

        /** The same block of the transposed matrix. */
        public Window transposed() {
            return new Window(col0, cols, row0, rows);
        }
    }

    /**
     * The part of the global C that PE pe's C holds, stored row-major with {@code cols} elements a
     * row: all of it (all-scatter, all-reduce; no collective: PE pe's own GEMM), its columns
     * (all-gather + GEMM) or its rows (GEMM + reduce-scatter).
     */
    public Window cWindow(int pe) {
        return switch (collective) {
            case NONE -> new Window(0, global.m(), 0, global.n());
            case ALL_SCATTER, ALL_REDUCE -> new Window(0, global.m(), 0, global.n());
            case ALL_GATHER_GEMM -> new Window(0, global.m(), offset(pe), local(pe).n());
            case GEMM_REDUCE_SCATTER -> new Window(rowOffset(pe), rows(pe), 0, global.n());
        };
    }

    /** The part of the global A that PE pe holds (row-major, {@code cols} elements a row). */
    public Window aWindow(int pe) {
        return switch (collective) {
            case ALL_REDUCE, GEMM_REDUCE_SCATTER -> new Window(0, global.m(), offset(pe), local(pe).k());
            case ALL_GATHER_GEMM -> new Window(rowOffset(pe), rows(pe), 0, global.k());
            default -> new Window(0, global.m(), 0, global.k());
        };
    }

    /**
     * The part of the global k x n B that PE pe holds: stored row-major with {@code cols} elements a row
     * ({@link BLayout#K_BY_N}), or transposed, {@code rows} elements a row ({@link BLayout#N_BY_K}).
     */
    public Window bWindow(int pe) {
        GemmShape l = local(pe);
        return switch (collective) {
            case ALL_REDUCE, GEMM_REDUCE_SCATTER -> new Window(offset(pe), l.k(), 0, global.n());
            case ALL_SCATTER, ALL_GATHER_GEMM -> new Window(0, global.k(), offset(pe), l.n());
            case NONE -> new Window(0, global.k(), 0, global.n());
        };
    }

    /**
     * PE pe's B as stored: {@link #bWindow}, or with {@link BLayout#N_BY_K} its transpose, a block of the
     * n x k matrix (rows of n, columns of k).
     */
    public Window bStored(int pe) {
        Window w = bWindow(pe);
        return bLayout == BLayout.K_BY_N ? w : w.transposed();
    }

    /** Elements per row of PE pe's B as stored: its columns of B ({@link BLayout#K_BY_N}) or its k ({@link BLayout#N_BY_K}). */
    public long ldb(int pe) {
        return bStored(pe).cols();
    }

    /** Elements per row of PE pe's C. */
    public long ldc(int pe) {
        return cWindow(pe).cols();
    }

    /** Where PE pe's tiles go in the C they are stored to: its column offset for all-scatter, else 0. */
    public int cColumnOffset(int pe) {
        return collective == GemmCollective.ALL_SCATTER ? offset(pe) : 0;
    }

    private int start(int size, int pe) {
        return pe * (size / nPes) + Math.min(pe, size % nPes);
    }

    private int share(int size, int pe) {
        return size / nPes + (pe < size % nPes ? 1 : 0);
    }
}
