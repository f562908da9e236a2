package org.jshmem;

/** How {@code putSignal} updates the signal word (OpenSHMEM {@code SHMEM_SIGNAL_SET / _ADD}). */
public enum SignalOp {
    /** The signal word becomes the given value. */
    SET,
    /** The given value is added atomically to the signal word. */
    ADD;

    /** The value the device header and the native shim use for this operation. */
    public int code() {
        return ordinal();
    }
}
