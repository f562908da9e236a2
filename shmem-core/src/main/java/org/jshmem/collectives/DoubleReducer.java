package org.jshmem.collectives;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jshmem.ReduceOp;

/** Reduces {@code double} elements ({@link Math#min}/{@link Math#max} semantics for MIN and MAX). */
final class DoubleReducer extends ElementwiseReducer {
    private static final ValueLayout.OfDouble E = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    DoubleReducer(ReduceOp op) {
        super(op, 8);
    }

    @Override
    void combine(MemorySegment d, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long n) {
        long end = n * 8;
        switch (op) {
            case SUM -> {
                for (long i = 0; i < end; i += 8) {
                    double x = a.get(E, aOff + i), y = b.get(E, bOff + i);
                    d.set(E, dOff + i, x + y);
                }
            }
            case PROD -> {
                for (long i = 0; i < end; i += 8) {
                    double x = a.get(E, aOff + i), y = b.get(E, bOff + i);
                    d.set(E, dOff + i, x * y);
                }
            }
            case MIN -> {
                for (long i = 0; i < end; i += 8) {
                    double x = a.get(E, aOff + i), y = b.get(E, bOff + i);
                    d.set(E, dOff + i, Math.min(x, y));
                }
            }
            case MAX -> {
                for (long i = 0; i < end; i += 8) {
                    double x = a.get(E, aOff + i), y = b.get(E, bOff + i);
                    d.set(E, dOff + i, Math.max(x, y));
                }
            }
            default -> throw new IllegalArgumentException(op + " is not defined for double");
        }
    }
}
