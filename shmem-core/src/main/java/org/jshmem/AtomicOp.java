package org.jshmem;

/** The atomic memory operations a backend performs; the {@code FETCH_*} forms return the old value. */
public enum AtomicOp {
    /** Read the value (acquire). */
    FETCH,
    /** Write the value (release). */
    SET,
    /** Write the value, return the old one. */
    SWAP,
    /** Write the value if the old one equals the comparand; return the old one. */
    COMPARE_SWAP,
    ADD, FETCH_ADD,
    AND, FETCH_AND,
    OR, FETCH_OR,
    XOR, FETCH_XOR;

    /** The value the native shim uses for this operation. */
    public int code() {
        return ordinal();
    }
}
