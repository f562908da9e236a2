package org.jshmem.collectives;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jshmem.ReduceOp;

/** Reduces {@code byte} elements (signed, wrapping on overflow). */
final class ByteReducer extends ElementwiseReducer {
    private static final ValueLayout.OfByte E = ValueLayout.JAVA_BYTE;

    ByteReducer(ReduceOp op) {
        super(op, 1);
    }

    @Override
    void combine(MemorySegment d, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long n) {
        long end = n;
        switch (op) {
            case SUM -> {
                for (long i = 0; i < end; i++) {
                    byte x = a.get(E, aOff + i), y = b.get(E, bOff + i);
                    d.set(E, dOff + i, (byte) (x + y));
                }
            }
            case PROD -> {
                for (long i = 0; i < end; i++) {
                    byte x = a.get(E, aOff + i), y = b.get(E, bOff + i);
                    d.set(E, dOff + i, (byte) (x * y));
                }
            }
            case MIN -> {
                for (long i = 0; i < end; i++) {
                    byte x = a.get(E, aOff + i), y = b.get(E, bOff + i);
                    d.set(E, dOff + i, (byte) (Math.min(x, y)));
                }
            }
            case MAX -> {
                for (long i = 0; i < end; i++) {
                    byte x = a.get(E, aOff + i), y = b.get(E, bOff + i);
                    d.set(E, dOff + i, (byte) (Math.max(x, y)));
                }
            }
            case AND -> {
                for (long i = 0; i < end; i++) {
                    byte x = a.get(E, aOff + i), y = b.get(E, bOff + i);
                    d.set(E, dOff + i, (byte) (x & y));
                }
            }
            case OR -> {
                for (long i = 0; i < end; i++) {
                    byte x = a.get(E, aOff + i), y = b.get(E, bOff + i);
                    d.set(E, dOff + i, (byte) (x | y));
                }
            }
            case XOR -> {
                for (long i = 0; i < end; i++) {
                    byte x = a.get(E, aOff + i), y = b.get(E, bOff + i);
                    d.set(E, dOff + i, (byte) (x ^ y));
                }
            }
        }
    }
}
