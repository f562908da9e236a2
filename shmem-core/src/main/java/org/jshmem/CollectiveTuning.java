package org.jshmem;

import java.util.Objects;
import org.jshmem.runtime.ShmemRuntime;

/**
 * Which collectives a PE uses and where the host collectives switch algorithm; read from the
 * environment by {@link org.jshmem.ShmemConfig} ({@code JSHMEM_COLLECTIVES},
 * {@code JSHMEM_COLL_STAGED_MAX}, {@code JSHMEM_REDUCE_ONESHOT_MAX}, {@code JSHMEM_COLL_HIERARCHY_MIN}).
 *
 * @param kind             {@link Kind#AUTO}: {@code org.jshmem.host.HostCollectives} where every heap is host
 *                         memory, {@code org.jshmem.collectives.HierarchicalCollectives} where PEs are on
 *                         several nodes, else {@code org.jshmem.collectives.CopyCollectives};
 *                         {@link Kind#COPY}: always the latter (one level)
 * @param stagedMax        bytes: collectives whose per-PE contribution is at most this copy it into
 *                         the team's staging buffer and need one synchronisation instead of two;
 *                         capped by {@link #STAGE_CAPACITY}; 0 turns staging off
 * @param reduceOneShotMax bytes: reductions of n PEs with {@code (n-1) x bytes} at most this (and
 *                         not in place) have every PE reduce all of it from every member's source
 *                         (one-shot); larger ones reduce a 1/n slice each and then gather the slices
 *                         (two-shot)
 * @param hierarchyMin     bytes: with PEs on several nodes, broadcast, fcollect, collect and integer
 *                         reductions whose per-PE contribution is at least this take two levels
 *                         ({@code org.jshmem.collectives.HierarchicalCollectives}); smaller ones one level
 */
public record CollectiveTuning(Kind kind, long stagedMax, long reduceOneShotMax, long hierarchyMin) {
    /** Bytes of a staging buffer that hold data. */
    public static final long STAGE_CAPACITY = ShmemRuntime.STAGE_CAPACITY;

    /**
     * Defaults: the single-node thresholds are explained in {@code HostCollectives}, the hierarchy's in
     * {@code HierarchicalCollectives} (docs/performance.md has the figures).
     */
    public static final CollectiveTuning DEFAULT = new CollectiveTuning(Kind.AUTO, 2 << 10, 8 << 10, 1 << 20);

    /** Which implementation of the collectives. */
    public enum Kind {
        /** Direct reads of peers' heaps where they are host memory, two levels across nodes, else the backend's copies. */
        AUTO,
        /** The backend's copies everywhere, in one level (what heaps Java cannot read get). */
        COPY
    }

    public CollectiveTuning {
        Objects.requireNonNull(kind, "kind");
        if (stagedMax < 0 || reduceOneShotMax < 0 || hierarchyMin < 0) {
            throw new IllegalArgumentException("collective thresholds must not be negative: staged max " + stagedMax
                    + ", reduce one-shot max " + reduceOneShotMax + ", hierarchy min " + hierarchyMin);
        }
        stagedMax = Math.min(stagedMax, STAGE_CAPACITY);
    }
}
