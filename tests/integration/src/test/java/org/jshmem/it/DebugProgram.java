package org.jshmem.it;

import static org.jshmem.it.PeProgram.report;

import org.jshmem.CollectiveMismatchException;
import org.jshmem.Shmem;
import org.jshmem.SymmetricSegment;

/**
 * Symmetric allocation calls with arguments that differ between PEs, checked on every call
 * (without {@code JSHMEM_DEBUG}): the last PE mallocs another size; the odd PEs call align instead
 * of malloc; the last PE callocs another count; every PE frees a different block; PE 0 reallocs to
 * another size. Each mismatch must throw on every PE and leave the heap as it was; matching calls
 * still work.
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
            try {
                s.calloc(me == n - 1 ? 3 : 2, 8);
                report(me, "callocCount", "no exception");
            } catch (CollectiveMismatchException e) {
                report(me, "callocCount", e.getMessage());
            }
            report(me, "heapFreeAfterMismatches", s.heapFree() == s.heapSize());
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
            try {
                s.realloc(a, me == 0 ? 4096 : 8192);
                report(me, "reallocSize", "no exception");
            } catch (CollectiveMismatchException e) {
                report(me, "reallocSize", e.getMessage() + " | a usable: " + !a.isFreed());
            }
            s.free(a);
            s.free(b);
            report(me, "heapFreeAfter", s.heapFree() == s.heapSize());
        }
    }
}
