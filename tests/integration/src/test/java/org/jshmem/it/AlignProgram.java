package org.jshmem.it;

import static org.jshmem.it.PeProgram.report;

import org.jshmem.Shmem;
import org.jshmem.SymmetricSegment;

/**
 * align() on every PE: for alignments 256 B .. 2 MiB, whether the address of the block (local()
 * on host heaps, deviceAddress() on GPU heaps) is a multiple of the alignment; and what align
 * above 2 MiB throws.
 */
public final class AlignProgram {
    public static void main(String[] args) {
        try (Shmem s = Shmem.init()) {
            int me = s.myPe();
            s.malloc(100);
            StringBuilder bad = new StringBuilder();
            for (long a = 256; a <= 2L << 20; a <<= 1) {
                SymmetricSegment seg = s.align(a, 100);
                long address = s.describe().contains("GPU") ? s.deviceAddress(seg, 0).address() : seg.local().address();
                if (address % a != 0) {
                    bad.append(a).append(" at 0x").append(Long.toHexString(address)).append("; ");
                }
            }
            report(me, "misaligned", bad.isEmpty() ? "none" : bad.toString());
            try {
                s.align(4L << 20, 100);
                report(me, "align4M", "accepted");
            } catch (IllegalArgumentException e) {
                report(me, "align4M", e.getMessage());
            }
        }
    }
}
