package org.jshmem.collectives;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jshmem.ReduceOp;

/** Reduces {@code int} elements (signed, wrapping on overflow). */
final class IntReducer extends ElementwiseReducer {
    private static final ValueLayout.OfInt E = ValueLayout.JAVA_INT_UNALIGNED;

    IntReducer(ReduceOp op) {
        super(op, 4);
    }

    @Override
    void combine(MemorySegment d, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long n) {
        long end = n * 4;
        switch (op) {
            case SUM -> {
                for (long i = 0; i < end; i += 4) {
                    int x = a.get(E, aOff + i), y = b.get(E, bOff + i);
                    d.set(E, dOff + i, x + y);
                }
            }
            case PROD -> {
                for (long i = 0; i < end; i += 4) {
                    int x = a.get(E, aOff + i), y = b.get(E, bOff + i);
                    d.set(E, dOff + i, x * y);
                }
            }
            case MIN -> {
                for (long i = 0; i < end; i += 4) {
                    int x = a.get(E, aOff + i), y = b.get(E, bOff + i);
                    d.set(E, dOff + i, Math.min(x, y));
                }
            }
            case MAX -> {
                for (long i = 0; i < end; i += 4) {
                    int x = a.get(E, aOff + i), y = b.get(E, bOff + i);
                    d.set(E, dOff + i, Math.max(x, y));
                }
            }
            case AND -> {
                for (long i = 0; i < end; i += 4) {
                    int x = a.get(E, aOff + i), y = b.get(E, bOff + i);
                    d.set(E, dOff + i, x & y);
                }
            }
            case OR -> {
                for (long i = 0; i < end; i += 4) {
                    int x = a.get(E, aOff + i), y = b.get(E, bOff + i);
                    d.set(E, dOff + i, x | y);
                }
            }
            case XOR -> {
                for (long i = 0; i < end; i += 4) {
                    int x = a.get(E, aOff + i), y = b.get(E, bOff + i);
                    d.set(E, dOff + i, x ^ y);
                }
            }
        }
    }
}
