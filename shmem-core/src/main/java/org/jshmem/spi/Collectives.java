package org.jshmem.spi;

import org.jshmem.DType;
import org.jshmem.HeapBoundsException;
import org.jshmem.ReduceOp;

/**
 * The algorithms behind the collectives of {@link org.jshmem.Team}, one implementation per kind
 * of heap: {@code org.jshmem.host.HostCollectives} reads peers' heaps directly in host memory; a GPU heap brings
 * its own (kernels, copy engines). The core has checked every argument before a call: offsets
 * are heap offsets of ranges that lie in the heap, sizes fit, the root is a member, the type and
 * operation go together, and sources and destinations do not overlap except where allowed.
 * Every member of the team makes the same calls in the same order (with {@code JSHMEM_DEBUG=1}
 * the core has checked that too). Calls are blocking: they return when this PE's destination
 * holds the result and its source may be reused.
 */
public interface Collectives {

    /** Waits until every member of the team has called it. */
    void sync(TeamLayout team);

    /** Copies {@code bytes} of {@code src} on team PE {@code root} to {@code dest} on every member, the root included ({@code dest == src} allowed). */
    void broadcast(TeamLayout team, long dest, long src, long bytes, int root);

    /** Concatenates every member's {@code bytes} of {@code src}, in team order, into every member's {@code dest}. */
    void fcollect(TeamLayout team, long dest, long src, long bytes);

    /**
     * Like {@link #fcollect} with a size of each member's own; returns the total. Throws
     * {@link org.jshmem.HeapBoundsException} on every member if the total exceeds {@code destCapacity}.
     */
    long collect(TeamLayout team, long dest, long destCapacity, long src, long bytes);

    /** Block {@code j} (of {@code bytesPerPe}) of {@code src} on team PE {@code i} goes to block {@code i} of {@code dest} on team PE {@code j}. */
    void alltoall(TeamLayout team, long dest, long src, long bytesPerPe);

    /** {@code dest[k] = src_0[k] op ... op src_{n-1}[k]} over the members, for {@code k < nelems}; {@code dest == src} allowed. */
    void reduce(TeamLayout team, ReduceOp op, DType type, long dest, long src, long nelems);

    /**
     * Reduce-scatter: on team PE {@code i}, {@code dest[k] = src_0[i*nelemsPerPe + k] op ... op
     * src_{n-1}[i*nelemsPerPe + k]} for {@code k < nelemsPerPe}; {@code src} holds {@code n *
     * nelemsPerPe} elements, {@code dest} {@code nelemsPerPe}, and they do not overlap.
     */
    void reduceScatter(TeamLayout team, ReduceOp op, DType type, long dest, long src, long nelemsPerPe);

    /**
     * Prefix sum over the members in team order: on team PE {@code i}, {@code dest[k] = src_0[k] +
     * ... + src_i[k]} ({@code inclusive}) or {@code + ... + src_{i-1}[k]} (exclusive: zeros on team
     * PE 0), for {@code k < nelems}, with the rounding of {@link #reduce}; {@code dest == src} allowed.
     */
    void sumScan(TeamLayout team, DType type, long dest, long src, long nelems, boolean inclusive);

    /** One line about the algorithms and thresholds, for benchmark headers. */
    String describe();

    /** The error every member of a {@link #collect} throws when the destination is too small for {@code counts} (bytes per team PE). */
    static HeapBoundsException collectTooSmall(long[] counts, long dest, long destCapacity) {
        long total = java.util.Arrays.stream(counts).sum();
        return new HeapBoundsException("Team.collect: the members contribute " + total + " bytes in all, but the"
                + " destination has room for " + destCapacity + " (heap offset " + dest + "); bytes per team PE: "
                + java.util.Arrays.toString(counts) + ". Allocate a destination of at least the total.");
    }
}
