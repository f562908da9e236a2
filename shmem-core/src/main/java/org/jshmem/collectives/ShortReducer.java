package org.jshmem.collectives;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jshmem.ReduceOp;

/** Reduces {@code short} elements (signed, wrapping on overflow). */
final class ShortReducer extends ElementwiseReducer {
    private static final ValueLayout.OfShort E = ValueLayout.JAVA_SHORT_UNALIGNED;

    ShortReducer(ReduceOp op) {
        super(op, 2);
    }

    @Override
    void combine(MemorySegment d, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long n) {
        long end = n * 2;
        switch (op) {
            case SUM -> {
                for (long i = 0; i < end; i += 2) {
                    short x = a.get(E, aOff + i), y = b.get(E, bOff + i);
                    d.set(E, dOff + i, (short) (x + y));
                }
            }
            case PROD -> {
                for (long i = 0; i < end; i += 2) {
                    short x = a.get(E, aOff + i), y = b.get(E, bOff + i);
                    d.set(E, dOff + i, (short) (x * y));
                }
            }
            case MIN -> {
                for (long i = 0; i < end; i += 2) {
                    short x = a.get(E, aOff + i), y = b.get(E, bOff + i);
                    d.set(E, dOff + i, (short) (Math.min(x, y)));
                }
            }
            case MAX -> {
                for (long i = 0; i < end; i += 2) {
                    short x = a.get(E, aOff + i), y = b.get(E, bOff + i);
                    d.set(E, dOff + i, (short) (Math.max(x, y)));
                }
            }
            case AND -> {
                for (long i = 0; i < end; i += 2) {
                    short x = a.get(E, aOff + i), y = b.get(E, bOff + i);
                    d.set(E, dOff + i, (short) (x & y));
                }
            }
            case OR -> {
                for (long i = 0; i < end; i += 2) {
                    short x = a.get(E, aOff + i), y = b.get(E, bOff + i);
                    d.set(E, dOff + i, (short) (x | y));
                }
            }
            case XOR -> {
                for (long i = 0; i < end; i += 2) {
                    short x = a.get(E, aOff + i), y = b.get(E, bOff + i);
                    d.set(E, dOff + i, (short) (x ^ y));
                }
            }
        }
    }
}
