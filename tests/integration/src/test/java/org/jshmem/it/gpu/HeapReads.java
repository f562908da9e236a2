package org.jshmem.it.gpu;

import org.jshmem.Shmem;
import org.jshmem.SymmetricSegment;

/** A PE's own copy of a symmetric buffer read back to the host, whole: what the GPU programs report. */
final class HeapReads {
    private HeapReads() {
    }

    static byte[] bytes(Shmem shmem, SymmetricSegment s) {
        byte[] b = new byte[Math.toIntExact(s.byteSize())];
        shmem.get(b, 0, b.length, s, 0, shmem.myPe());
        return b;
    }

    static int[] ints(Shmem shmem, SymmetricSegment s) {
        int[] v = new int[Math.toIntExact(s.byteSize() / Integer.BYTES)];
        shmem.get(v, 0, v.length, s, 0, shmem.myPe());
        return v;
    }

    static long[] longs(Shmem shmem, SymmetricSegment s) {
        long[] v = new long[Math.toIntExact(s.byteSize() / Long.BYTES)];
        shmem.get(v, 0, v.length, s, 0, shmem.myPe());
        return v;
    }
}
