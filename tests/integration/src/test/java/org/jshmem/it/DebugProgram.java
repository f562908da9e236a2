package org.jshmem.it;

import static org.jshmem.it.PeProgram.report;

import org.jshmem.CollectiveMismatchException;
import org.jshmem.Shmem;
import org.jshmem.SymmetricSegment;

/**
 * Run with {@code JSHMEM_DEBUG=1}: collective calls with arguments that differ between PEs. The
 * last PE mallocs another size; then the odd PEs call align instead of malloc; then every PE
 * frees a different block. Each mismatch must throw on every PE; matching calls still work.
 */
public final class DebugProgram {
    public static void main(String[] args) {
        try (Shmem s = Shmem.init()) {
            int me = s.myPe();
            int n = s.nPes();
            try {
                s.malloc(me == n - 1 ? 2048 : 1024);
                report(me, "mallocSize", "no exception");
            } catch (CollectiveMismatchException e) {
                report(me, "mallocSize", e.getMessage());
            }
            try {
                SymmetricSegment x = me % 2 == 1 ? s.align(512, 100) : s.malloc(100);
                report(me, "mallocOrAlign", "no exception at " + x.heapOffset());
            } catch (CollectiveMismatchException e) {
                report(me, "mallocOrAlign", e.getMessage());
            }
            SymmetricSegment a = s.malloc(1024);
            SymmetricSegment b = s.malloc(1024);
            long start = LocalCopy.heapStart(s);   // the first offset the allocator hands out (more than 0 on GPU heaps)
            report(me, "heapStart", start);
            report(me, "matching", (a.heapOffset() - start) + " " + (b.heapOffset() - start));
            try {
                s.free(me == 0 ? a : b);
                report(me, "freeOther", "no exception");
            } catch (CollectiveMismatchException e) {
                report(me, "freeOther", e.getMessage());
            }
            s.free(a);
            s.free(b);
            report(me, "heapFreeAfter", s.heapFree() == s.heapSize());
        }
    }
}
