package org.jshmem;

/**
 * Reduction operations (OpenSHMEM 1.5 section 9.9.7). Every element of the result is
 * {@code src_0[i] op src_1[i] op ... op src_{n-1}[i]}, combined from left to right in team PE
 * order, so that floating-point results are the same on every PE and from run to run.
 * {@link #MIN} and {@link #MAX} of floating-point values follow {@link Math#min(float, float)}
 * (a NaN wins; -0.0 is below 0.0).
 */
public enum ReduceOp {
    SUM,
    PROD,
    MIN,
    MAX,
    /** Bitwise and: integer types only. */
    AND,
    /** Bitwise or: integer types only. */
    OR,
    /** Bitwise exclusive or: integer types only. */
    XOR;

    /** Whether this is a bitwise operation, defined for integer {@link DType}s only. */
    public boolean isBitwise() {
        return this == AND || this == OR || this == XOR;
    }
}
