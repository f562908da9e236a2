package org.jshmem.collectives;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;
import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.spi.TeamLayout;

/**
 * The prefix sums of {@link org.jshmem.spi.Collectives#sumScan} for any heap: after a
 * synchronisation every member reads the sources of the members before it (and its own, if
 * inclusive) into host memory and adds them in team order; after a second one, when no member
 * reads a source any more, it writes its result, so {@code dest} may be its source.
 */
public final class PrefixSum {
    private PrefixSum() {
    }

    /** Copies team member {@code member}'s source into {@code into} (its size is the source's). */
    public interface Source {
        void read(int member, MemorySegment into);
    }

    /**
     * Runs this member's part: {@code sync} waits for the team, {@code source} reads a member's
     * source, {@code write} stores this member's result ({@code nelems} elements of {@code type}).
     */
    public static void run(TeamLayout t, DType type, long nelems, boolean inclusive, Runnable sync, Source source,
                           Consumer<MemorySegment> write) {
        int count = t.myIndex() + (inclusive ? 1 : 0);
        long bytes = nelems * type.byteSize();
        sync.run();   // every member's source is ready
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment sum = arena.allocate(Math.max(bytes, 1), 64);   // zeros: the sum of no member
            if (count > 0 && bytes > 0) {
                MemorySegment[] in = new MemorySegment[count];
                for (int k = 0; k < count; k++) {
                    in[k] = arena.allocate(bytes, 64);
                    source.read(k, in[k]);
                }
                Reducer.of(type, ReduceOp.SUM).reduce(sum, 0, in, new long[count], count, nelems);
            }
            sync.run();   // every member has read the sources it needs
            if (bytes > 0) {
                write.accept(sum.asSlice(0, bytes));
            }
        }
    }
}
