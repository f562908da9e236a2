package org.jshmem;

/**
 * Comparisons of {@code waitUntil}, {@code test} and {@code signalWaitUntil} (OpenSHMEM {@code SHMEM_CMP_*}).
 *
 * <p>Signals are unsigned 64-bit words, as OpenSHMEM 1.5 defines them ({@code uint64_t}), so the
 * signal waits compare unsigned ({@link #testUnsigned}): a signal of 2<sup>64</sup>-1, which Java
 * reads as the long -1, is greater than 0. The waits and tests on symmetric variables compare as
 * their Java type, signed ({@link #test}).
 */
public enum Cmp {
    /** Equal. */
    EQ,
    /** Not equal. */
    NE,
    /** Greater than. */
    GT,
    /** Greater than or equal. */
    GE,
    /** Less than. */
    LT,
    /** Less than or equal. */
    LE;

    /** Whether {@code value cmp operand} holds, for signed 64-bit values (the ivar waits and tests). */
    public boolean test(long value, long operand) {
        return switch (this) {
            case EQ -> value == operand;
            case NE -> value != operand;
            case GT -> value > operand;
            case GE -> value >= operand;
            case LT -> value < operand;
            case LE -> value <= operand;
        };
    }

    /** Whether {@code value cmp operand} holds, for unsigned 64-bit values (the signal waits). */
    public boolean testUnsigned(long value, long operand) {
        return test(Long.compareUnsigned(value, operand), 0);
    }

    /** The value the device header and the native shim use for this comparison. */
    public int code() {
        return ordinal();
    }
}
