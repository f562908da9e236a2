package org.jshmem;

import java.lang.foreign.MemorySegment;

/**
 * The signalling side of point-to-point synchronisation (OpenSHMEM 1.5 section 9.8): put-with-signal
 * and signal updates without data, on the PE's default context ({@link Shmem}) or on a
 * {@link ShmemContext}, whose {@code fence} and {@code quiet} then order and complete them. The
 * signal is an 8-byte, naturally aligned word in the target's symmetric heap; the waiting side is
 * {@link PointToPointSync}.
 *
 * <p>Ordering: a put-with-signal delivers its data before its signal, so a PE that sees the signal
 * sees the data.
 */
public sealed interface SignalOperations permits Shmem, ShmemContext {

    /**
     * Copies {@code src} to {@code dest} on PE {@code pe}, then updates the 8-byte signal at
     * {@code signalOffset} of {@code signal} on that PE ({@code op} SET or ADD of {@code value}).
     * Returns when {@code src} may be reused.
     */
    default void putSignal(SymmetricSegment dest, long destOffset, MemorySegment src, SymmetricSegment signal,
                           long signalOffset, long value, SignalOp op, int pe) {
        Args.nonNull("putSignal", "dest", dest, "src", src, "signal", signal);
        Args.nonNull("putSignal", "op", op);
        Endpoint.of(this).putSignal("putSignal", dest, destOffset, src, signal, signalOffset, value, op, pe, false);
    }

    /** Non-blocking {@link #putSignal(SymmetricSegment, long, MemorySegment, SymmetricSegment, long, long, SignalOp, int)}. */
    default void putSignalNbi(SymmetricSegment dest, long destOffset, MemorySegment src, SymmetricSegment signal,
                              long signalOffset, long value, SignalOp op, int pe) {
        Args.nonNull("putSignalNbi", "dest", dest, "src", src, "signal", signal);
        Args.nonNull("putSignalNbi", "op", op);
        Endpoint.of(this).putSignal("putSignalNbi", dest, destOffset, src, signal, signalOffset, value, op, pe, true);
    }

    /** Put-with-signal whose data is {@code bytes} of this PE's {@code src} at {@code srcOffset}. */
    default void putSignal(SymmetricSegment dest, long destOffset, SymmetricSegment src, long srcOffset, long bytes,
                           SymmetricSegment signal, long signalOffset, long value, SignalOp op, int pe) {
        Args.nonNull("putSignal", "dest", dest, "src", src, "signal", signal);
        Args.nonNull("putSignal", "op", op);
        Endpoint.of(this).putSignal("putSignal", dest, destOffset, src, srcOffset, bytes, signal, signalOffset, value,
                op, pe);
    }

    /**
     * Updates the 8-byte signal at {@code signalOffset} of {@code signal} on PE {@code pe} without
     * data ({@code op} SET or ADD of {@code value}), atomically: OpenSHMEM's {@code shmem_signal_set}
     * and {@code shmem_signal_add}, NVSHMEM's {@code nvshmemx_signal_op}. Ordered by {@code fence}
     * after earlier puts to the same PE.
     */
    default void signalOp(SymmetricSegment signal, long signalOffset, long value, SignalOp op, int pe) {
        Args.nonNull("signalOp", "signal", signal, "op", op);
        Endpoint.of(this).signalOp("signalOp", signal, signalOffset, value, op, pe);
    }

    /** Adds {@code value} to the signal on PE {@code pe}, without data: OpenSHMEM 1.6's {@code shmem_signal_add}. */
    default void signalAdd(SymmetricSegment signal, long signalOffset, long value, int pe) {
        Args.nonNull("signalAdd", "signal", signal);
        Endpoint.of(this).signalOp("signalAdd", signal, signalOffset, value, SignalOp.ADD, pe);
    }

    /** Sets the signal on PE {@code pe} to {@code value}, without data: OpenSHMEM 1.6's {@code shmem_signal_set}. */
    default void signalSet(SymmetricSegment signal, long signalOffset, long value, int pe) {
        Args.nonNull("signalSet", "signal", signal);
        Endpoint.of(this).signalOp("signalSet", signal, signalOffset, value, SignalOp.SET, pe);
    }
}
