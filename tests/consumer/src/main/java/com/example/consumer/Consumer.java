package com.example.consumer;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jshmem.Cmp;
import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.Shmem;
import org.jshmem.SignalOp;
import org.jshmem.SymmetricSegment;

/**
 * Uses jshmem's public API only: a ring put-with-signal and an all-reduce on the world team.
 * Prints "consumer OK" on every PE, or throws.
 */
public final class Consumer {
    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            int me = shmem.myPe(), n = shmem.nPes(), right = (me + 1) % n;
            SymmetricSegment data = shmem.calloc(1, Long.BYTES);
            SymmetricSegment flag = shmem.calloc(1, Long.BYTES);
            shmem.putSignal(data, 0, MemorySegment.ofArray(new long[] {100 + me}), flag, 0, 1, SignalOp.SET, right);
            shmem.signalWaitUntil(flag, 0, Cmp.EQ, 1);
            long[] got = new long[1];
            shmem.get(MemorySegment.ofArray(got), data, 0, me);
            long left = (me + n - 1) % n;
            if (got[0] != 100 + left) {
                throw new AssertionError("PE " + me + ": got " + got[0] + " from the left, expected " + (100 + left));
            }
            SymmetricSegment src = shmem.malloc(Long.BYTES);
            SymmetricSegment dst = shmem.malloc(Long.BYTES);
            shmem.put(src, 0, MemorySegment.ofArray(new long[] {me + 1}), me);
            shmem.barrierAll();
            shmem.teamWorld().reduce(ReduceOp.SUM, DType.LONG, dst, src, 1);
            shmem.get(MemorySegment.ofArray(got), dst, 0, me);
            if (got[0] != (long) n * (n + 1) / 2) {
                throw new AssertionError("PE " + me + ": sum " + got[0] + ", expected " + (long) n * (n + 1) / 2);
            }
            System.out.println("consumer OK on PE " + me + " of " + n + " (" + shmem.describe() + ")");
        }
    }
}
