package org.jshmem;

/** How {@code putSignal} updates the signal word (OpenSHMEM {@code SHMEM_SIGNAL_SET / _ADD}). */
public enum SignalOp {
    /** The signal word becomes the given value. */
    SET,
    /** The given value is added atomically to the signal word. */
    ADD;

    /** The atomic that applies this update to the signal word: SET or ADD. */
    public AtomicOp atomicOp() {
        return this == SET ? AtomicOp.SET : AtomicOp.ADD;
    }

    /** The value the device header and the native shim use for this operation. */
    public int code() {
        return ordinal();
    }
}
