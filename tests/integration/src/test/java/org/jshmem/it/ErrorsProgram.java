package org.jshmem.it;

import static org.jshmem.it.PeProgram.report;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jshmem.Shmem;
import org.jshmem.SignalOp;
import org.jshmem.SymmetricSegment;

/**
 * Every error a call can make, on every PE: each is caught and reported as
 * {@code err.<case> <ExceptionClass> | <message>}; then each PE counts the bytes around the targets
 * that are no longer the sentinel (none may be: an error touches no memory) and shows that the
 * heap still works.
 */
public final class ErrorsProgram {
    static final byte SENTINEL = (byte) 0xA5;

    interface Call {
        void run();
    }

    static void attempt(int me, String name, Call call) {
        try {
            call.run();
            report(me, "err." + name, "no exception");
        } catch (RuntimeException e) {
            report(me, "err." + name, e.getClass().getSimpleName() + " | " + e.getMessage());
        }
    }

    public static void main(String[] args) {
        attempt(-1, "beforeInit", Shmem::current);            // no PE number yet: reported as PE -1
        Shmem s = Shmem.init();
        int me = s.myPe();
        int n = s.nPes();
        int right = (me + 1) % n;
        SymmetricSegment before = s.malloc(256);
        SymmetricSegment target = s.malloc(256);
        SymmetricSegment after = s.malloc(256);
        // the three blocks are adjacent ("layout"): together the 768 bytes around the target, written
        // and read through this PE's own puts and gets, so that this works on any heap
        SymmetricSegment[] around = {before, target, after};
        report(me, "layout", (target.heapOffset() - before.heapOffset()) + " " + (after.heapOffset() - target.heapOffset()));
        report(me, "target", target.heapOffset());
        for (SymmetricSegment seg : around) {
            LocalCopy.fill(s, seg, SENTINEL);
        }
        s.barrierAll();

        attempt(me, "peTooHigh", () -> s.put(target, 0, new long[] {1}, 0, 1, n));
        attempt(me, "peNegative", () -> s.pInt(target, 0, 1, -1));
        attempt(me, "peAtomic", () -> s.atomicFetchAddLong(target, 0, 1, n + 5));
        attempt(me, "peQuiet", () -> s.peQuiet(right, n));
        attempt(me, "pastEnd", () -> s.put(target, 252, new long[] {1}, 0, 1, right));
        attempt(me, "negativeOffset", () -> s.get(new long[1], 0, 1, target, -8, right));
        attempt(me, "atomicPastEnd", () -> s.atomicAddLong(target, 256, 1, right));
        attempt(me, "stridedPastEnd", () -> s.iput(target, 0, 100, new int[] {1, 2, 3}, 0, 1, 3, right));
        attempt(me, "blocksPastEnd", () -> s.ibput(target, 0, 40, MemorySegment.ofArray(new int[6]), 2,
                ValueLayout.JAVA_INT, 2, 3, right));
        attempt(me, "blocksOverlap", () -> s.ibput(target, 0, 1, MemorySegment.ofArray(new int[4]), 2,
                ValueLayout.JAVA_INT, 2, 2, right));
        attempt(me, "symmetricPastEnd", () -> s.put(target, 0, after, 0, 512, right));
        attempt(me, "misalignedLong", () -> s.atomicFetchAddLong(target, 4, 1, right));
        attempt(me, "misalignedInt", () -> s.atomicCompareSwapInt(target, 2, 0, 1, right));
        attempt(me, "misalignedSignal", () -> s.putSignal(target, 0, MemorySegment.ofArray(new long[] {1, 2}),
                target, 129, 1, SignalOp.SET, right));
        long heap = s.heapSize();
        attempt(me, "exhausted", () -> s.malloc(heap));
        report(me, "heapFreeAfterExhausted", s.heapFree() == heap - 768);
        SymmetricSegment freed = s.malloc(64);
        s.free(freed);
        attempt(me, "afterFree", () -> s.pLong(freed, 0, 1, right));
        attempt(me, "doubleFree", () -> s.free(freed));

        s.barrierAll();
        long bad = 0;
        for (SymmetricSegment seg : around) {
            MemorySegment bytes = LocalCopy.read(s, seg);
            for (long i = 0; i < bytes.byteSize(); i++) {
                bad += bytes.get(ValueLayout.JAVA_BYTE, i) == SENTINEL ? 0 : 1;
            }
        }
        report(me, "sentinel.bad", bad);

        SymmetricSegment ok = s.calloc(1, 8);            // the heap still works
        s.pLong(ok, 0, 4200 + me, right);
        s.barrierAll();
        report(me, "afterErrors", LocalCopy.readLong(s, ok, 0));
        report(me, "pid", ProcessHandle.current().pid());
        s.close();
        attempt(me, "afterClose", () -> s.pLong(ok, 0, 1, right));
        attempt(me, "currentAfterClose", Shmem::current);
    }
}
