package org.jshmem.it;

import static org.jshmem.it.PeProgram.report;

import org.jshmem.HeapExhaustedException;
import org.jshmem.Shmem;
import org.jshmem.SymmetricSegment;

/**
 * align() on every PE: for alignments 256 B .. 32 MiB (a 64 MiB heap, whose base is 64 MiB-aligned),
 * whether the address of the block (local() on host heaps, deviceAddress() on GPU heaps) is a
 * multiple of the alignment, and the offset of the 32 MiB-aligned block; and what align of 128 MiB,
 * more than the heap's base is aligned to, throws.
 */
public final class AlignProgram {
    public static void main(String[] args) {
        try (Shmem s = Shmem.init()) {
            int me = s.myPe();
            s.malloc(100);
            StringBuilder bad = new StringBuilder();
            SymmetricSegment last = null;
            for (long a = 256; a <= 32L << 20; a <<= 1) {
                last = s.align(a, 100);
                long address = s.describe().contains("GPU") ? s.deviceAddress(last, 0).address() : last.local().address();
                if (address % a != 0) {
                    bad.append(a).append(" at 0x").append(Long.toHexString(address)).append("; ");
                }
            }
            report(me, "misaligned", bad.isEmpty() ? "none" : bad.toString());
            report(me, "offset32M", last.heapOffset());
            try {
                s.align(128L << 20, 100);
                report(me, "align128M", "accepted");
            } catch (HeapExhaustedException e) {
                report(me, "align128M", e.getMessage());
            }
        }
    }
}
