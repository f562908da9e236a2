package org.jshmem.collectives;

import org.jshmem.host.ControlDescriptor;

/**
 * Where the host collectives switch algorithm, in bytes; read from the environment by
 * {@link org.jshmem.ShmemConfig} ({@code JSHMEM_COLL_STAGED_MAX}, {@code JSHMEM_REDUCE_ONESHOT_MAX}).
 *
 * @param stagedMax        collectives whose per-PE contribution is at most this many bytes copy it
 *                         into the team's staging buffer and need one synchronisation instead of
 *                         two; capped by {@link #STAGE_CAPACITY}; 0 turns staging off
 * @param reduceOneShotMax reductions of at most this many bytes (and not in place) have every PE
 *                         reduce all of it from every member's source (one-shot); larger ones
 *                         reduce a 1/n slice each and then gather the slices (two-shot)
 */
public record CollectiveThresholds(long stagedMax, long reduceOneShotMax) {
    /** Bytes of a staging buffer that hold data. */
    public static final long STAGE_CAPACITY = ControlDescriptor.STAGE_BUFFER - ControlDescriptor.STAGE_HEADER;

    /** Defaults, measured on the 2-core development machine with 2 and 4 PEs (see the collectives note). */
    public static final CollectiveThresholds DEFAULT = new CollectiveThresholds(4096, 64 << 10);

    public CollectiveThresholds {
        if (stagedMax < 0 || reduceOneShotMax < 0) {
            throw new IllegalArgumentException("collective thresholds must not be negative: staged max " + stagedMax
                    + ", reduce one-shot max " + reduceOneShotMax);
        }
        stagedMax = Math.min(stagedMax, STAGE_CAPACITY);
    }
}
