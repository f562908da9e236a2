package org.jshmem.gemm;

import org.jshmem.DType;
import org.jshmem.Shmem;
import org.jshmem.SymmetricSegment;

/**
 * The symmetric buffers of the reference path (GEMM, then jshmem's collective), on either heap:
 * {@code partial}, this PE's GEMM before the collective (all-reduce, GEMM + reduce-scatter: m x n;
 * all-scatter: m x n_p); {@code gathered}, the collective's output before it is placed (all-scatter:
 * every PE's columns, PE by PE; all-gather + GEMM: all of A); {@code reduced}, the whole sum of a
 * GEMM + reduce-scatter whose m does not split into equal row blocks (then reduce, not
 * reduce-scatter). Null where the collective needs none.
 */
record ReferenceBuffers(SymmetricSegment partial, SymmetricSegment gathered, SymmetricSegment reduced) {

    /** Collective: allocates the buffers of {@code layout}'s collective. */
    static ReferenceBuffers allocate(Shmem shmem, ShardLayout layout, DType type) {
        GemmShape g = layout.global();
        long es = type.byteSize();
        long widest = layout.local(0).n();   // PE 0 has the widest shard
        SymmetricSegment partial = switch (layout.collective()) {
            case NONE, ALL_GATHER_GEMM -> null;
            case ALL_REDUCE, GEMM_REDUCE_SCATTER -> shmem.malloc((long) g.m() * g.n() * es);
            case ALL_SCATTER -> shmem.malloc((long) g.m() * widest * es);
        };
        SymmetricSegment gathered = switch (layout.collective()) {
            case ALL_SCATTER -> shmem.malloc((long) g.m() * g.n() * es);
            case ALL_GATHER_GEMM -> shmem.malloc((long) g.m() * g.k() * es);
            default -> null;
        };
        boolean unequalBlocks = layout.collective() == GemmCollective.GEMM_REDUCE_SCATTER && g.m() % shmem.nPes() != 0;
        return new ReferenceBuffers(partial, gathered, unequalBlocks ? shmem.malloc((long) g.m() * g.n() * es) : null);
    }

    /** Elements each PE contributes to the collect of {@code layout}'s collective (all-scatter, all-gather + GEMM). */
    static long[] collectCounts(ShardLayout layout, int nPes) {
        GemmShape g = layout.global();
        long[] counts = new long[nPes];
        for (int pe = 0; pe < nPes; pe++) {
            counts[pe] = layout.collective() == GemmCollective.ALL_SCATTER ? (long) g.m() * layout.local(pe).n()
                    : (long) layout.rows(pe) * g.k();
        }
        return counts;
    }

    /** What the collective step is, for describe(): {@code onStream} names the on-stream forms. */
    String describe(GemmCollective collective, boolean onStream) {
        String s = onStream ? "OnStream" : "";
        return switch (collective) {
            case NONE -> "nothing";
            case ALL_REDUCE -> "reduce" + s + " (sum)";
            case ALL_SCATTER -> "collect" + s + " + column unpacking";
            case ALL_GATHER_GEMM -> "collect" + s + " of A before the GEMM";
            case GEMM_REDUCE_SCATTER -> reduced == null ? "reduceScatter" + s + " (sum)"
                    : "reduce" + s + " (sum) and a copy of the own rows (m is not a multiple of the PE count)";
        };
    }

    /** Collective: frees the buffers (after a barrier: no PE still reads them). */
    void free(Shmem shmem) {
        shmem.barrierAll();
        for (SymmetricSegment s : new SymmetricSegment[] {gathered, partial, reduced}) {
            if (s != null) {
                shmem.free(s);
            }
        }
    }
}
