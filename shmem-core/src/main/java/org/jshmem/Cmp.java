package org.jshmem;

/** Comparisons of {@code waitUntil}, {@code test} and {@code signalWaitUntil} (OpenSHMEM {@code SHMEM_CMP_*}). */
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

    /** Whether {@code value cmp operand} holds, for signed 64-bit values. */
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

    /** The value the device header and the native shim use for this comparison. */
    public int code() {
        return ordinal();
    }
}
