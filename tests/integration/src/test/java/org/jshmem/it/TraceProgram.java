package org.jshmem.it;

import java.lang.foreign.MemorySegment;
import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.Shmem;
import org.jshmem.SymmetricSegment;
import org.jshmem.trace.Trace;

/**
 * Traced calls of every kind on each PE (run with JSHMEM_TRACE): allocation (a realloc too), barriers, a put of
 * 8 KiB and {@link #SMALL_PUTS} puts of 8 bytes to the right neighbour, a lock taken in turn, a wait,
 * a reduce and a broadcast, and a span of the program's own around them.
 */
public final class TraceProgram {
    static final int BARRIERS = 5;
    static final int SMALL_PUTS = 10;

    public static void main(String[] args) {
        try (Shmem s = Shmem.init()) {
            Trace trace = s.trace();
            long mine = trace.begin();
            int me = s.myPe();
            int right = (me + 1) % s.nPes();
            SymmetricSegment data = s.realloc(s.malloc(8 << 10), 16 << 10);
            SymmetricSegment flag = s.calloc(1, 8);
            for (int i = 0; i < BARRIERS; i++) {
                s.barrierAll();
            }
            s.put(data, 0, MemorySegment.ofArray(new byte[8 << 10]), right);
            for (int i = 0; i < SMALL_PUTS; i++) {
                s.put(data, 8192 + 8L * i, MemorySegment.ofArray(new long[] {i}), right);
            }
            SymmetricSegment lock = s.calloc(1, 8);
            s.setLock(lock, 0);
            s.clearLock(lock, 0);
            s.barrierAll();
            s.free(lock);
            s.atomicSetLong(flag, 0, 1, right);
            s.waitUntilLong(flag, 0, org.jshmem.Cmp.EQ, 1);
            s.teamWorld().reduce(ReduceOp.SUM, DType.INT, data.asSlice(1024, 64), data.asSlice(0, 64), 16);
            s.teamWorld().broadcast(data.asSlice(2048, 64), data.asSlice(1024, 64), 16, 1, DType.INT);
            s.barrierAll();
            s.free(flag);
            s.free(data);
            trace.end("program", "app", mine);
        }
    }
}
