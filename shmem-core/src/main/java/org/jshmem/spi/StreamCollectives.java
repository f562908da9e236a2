package org.jshmem.spi;

import java.lang.foreign.MemorySegment;
import org.jshmem.DType;
import org.jshmem.ReduceOp;

/**
 * The {@code ...OnStream} forms of the collectives (NVSHMEM's {@code nvshmemx_*_on_stream}), for
 * a backend with a {@link StreamCapability}: each queues the collective on {@code stream} and
 * returns. Arguments are checked by the core as for {@link Collectives} (heap offsets, sizes, no
 * overlap); a backend may reject what its kernels cannot do (e.g. misaligned reductions) with
 * {@link IllegalArgumentException}.
 */
public interface StreamCollectives {

    /** {@link Collectives#reduce}, queued on {@code stream}. */
    void reduceOnStream(TeamLayout team, ReduceOp op, DType type, long dest, long src, long nelems,
                        MemorySegment stream);

    /** {@link Collectives#reduceScatter}, queued on {@code stream}. */
    void reduceScatterOnStream(TeamLayout team, ReduceOp op, DType type, long dest, long src, long nelemsPerPe,
                               MemorySegment stream);

    /** {@link Collectives#fcollect}, queued on {@code stream}. */
    void fcollectOnStream(TeamLayout team, long dest, long src, long bytes, MemorySegment stream);

    /** {@link Collectives#collect} with every member's byte count given ({@code bytesPerMember}, team order), queued. */
    void collectOnStream(TeamLayout team, long dest, long src, long[] bytesPerMember, MemorySegment stream);

    /**
     * An all-gather with no SM work and a signal per arriving block: this PE pulls member i's {@code bytesPerMember[i]} bytes of {@code src} into {@code dest} (members'
     * blocks concatenated in team order) with copy-engine copies, the others' blocks in rotated
     * order from the next member on and its own block last (a consumer has it in src), and after block i lands sets the 8-byte signal at
     * {@code signals + 8 i} on this PE to {@code signal} (a stream write, ordered after the copy).
     * An own block already in place is not copied; without {@code ownBlock} it is neither copied nor
     * signalled. No barrier: the core queues one before (the members' src is written) and after (they
     * may rewrite it).
     */
    void collectSignalOnStream(TeamLayout team, long dest, long src, long[] bytesPerMember, long signals, long signal,
                               boolean ownBlock, MemorySegment stream);

    /** {@link Collectives#alltoall}, queued on {@code stream}. */
    void alltoallOnStream(TeamLayout team, long dest, long src, long bytesPerPe, MemorySegment stream);

    /** {@link Collectives#broadcast}, queued on {@code stream}. */
    void broadcastOnStream(TeamLayout team, long dest, long src, long bytes, int root, MemorySegment stream);

    /** A barrier of the team queued on {@code stream}: earlier work complete on every member first. */
    void barrierOnStream(TeamLayout team, MemorySegment stream);

    /** A synchronisation of the team queued on {@code stream}. */
    void syncOnStream(TeamLayout team, MemorySegment stream);

    /**
     * The on-stream reductions' rule on GPU heaps: {@code dest} and {@code src} aligned to the
     * element size, else an {@link IllegalArgumentException} naming {@code what} (every implementation
     * refuses the same arguments, whether kernels or the host carry the reduction).
     */
    static void requireAligned(String what, DType type, long dest, long src) {
        if (dest % type.byteSize() != 0 || src % type.byteSize() != 0) {
            throw new IllegalArgumentException(what + " on a stream: dest (heap offset " + dest + ") and src (" + src
                    + ") must be aligned to the element size of " + type + " (" + type.byteSize() + " bytes) on a GPU heap");
        }
    }
}
