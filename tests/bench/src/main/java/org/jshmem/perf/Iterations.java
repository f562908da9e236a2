package org.jshmem.perf;

/**
 * Default iterations per repetition, the same as the anchors' (shared/anchors/oshmem_anchor.c)
 * so that the figures compare: {@code --iters} overrides them.
 */
public final class Iterations {
    private Iterations() {
    }

    /** Transfers: 20000 below 64 KB, 500 below 4 MB, 20 from 4 MB (the anchor's put/get loop). */
    public static long transfer(long size) {
        return size < 65536 ? 20_000 : size < (1 << 22) ? 500 : 20;
    }

    /** Scalar operations (p/g, atomics, ping-pongs): 100000, as the anchor's p/wait and fetch-add loops. */
    public static long scalar(long size) {
        return 100_000;
    }

    /** Collectives: 5000 below 64 KB, else 50, as the anchor's sum_to_all and fcollect loops. */
    public static long collective(long size) {
        return size < 65536 ? 5000 : 50;
    }

    /** Barriers: 20000, as the anchor's barrier_all loop. */
    public static long barrier(long size) {
        return 20_000;
    }
}
