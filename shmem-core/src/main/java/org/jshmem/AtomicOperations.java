package org.jshmem;

import java.lang.foreign.MemorySegment;

/**
 * Atomic memory operations on 4-byte ints and 8-byte longs of any PE's symmetric heap
 * (OpenSHMEM 1.5 section 9.7), fetch/set/swap on floats and doubles (the extended AMOs), and the
 * non-blocking fetching forms ({@code ...Nbi}, the old value written to a {@link MemorySegment}). The target must be naturally aligned (offset a multiple of the
 * width), else {@link MisalignedAtomicException}. Fetching operations return the value before
 * the operation and are sequentially consistent; non-fetching ones are ordered by
 * {@link Shmem#fence()} and completed by {@link Shmem#quiet()}. Atomics of different widths on
 * the same bytes are not atomic with respect to each other.
 *
 * <p>The typed overloads repeat one shape per Java type on purpose (OpenSHMEM's typed API, as
 * {@code shmem_long_put} etc.): each is a one-line default method the JIT inlines into a direct
 * call with a constant element layout.
 */
public sealed interface AtomicOperations permits Shmem, ShmemContext {

    /** Returns the value of the int at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default int atomicFetchInt(SymmetricSegment dest, long offset, int pe) {
        Args.nonNull("atomicFetchInt", "dest", dest);
        return Endpoint.of(this).atomicInt("atomicFetchInt", AtomicOp.FETCH, dest, offset, 0, 0, pe);
    }

    /** Sets the value to {@code value} of the int at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default void atomicSetInt(SymmetricSegment dest, long offset, int value, int pe) {
        Args.nonNull("atomicSetInt", "dest", dest);
        Endpoint.of(this).atomicInt("atomicSetInt", AtomicOp.SET, dest, offset, value, 0, pe);
    }

    /** Sets the value to {@code value} and returns the old one of the int at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default int atomicSwapInt(SymmetricSegment dest, long offset, int value, int pe) {
        Args.nonNull("atomicSwapInt", "dest", dest);
        return Endpoint.of(this).atomicInt("atomicSwapInt", AtomicOp.SWAP, dest, offset, value, 0, pe);
    }

    /** Adds {@code value} of the int at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default void atomicAddInt(SymmetricSegment dest, long offset, int value, int pe) {
        Args.nonNull("atomicAddInt", "dest", dest);
        Endpoint.of(this).atomicInt("atomicAddInt", AtomicOp.ADD, dest, offset, value, 0, pe);
    }

    /** Adds {@code value} and returns the old value of the int at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default int atomicFetchAddInt(SymmetricSegment dest, long offset, int value, int pe) {
        Args.nonNull("atomicFetchAddInt", "dest", dest);
        return Endpoint.of(this).atomicInt("atomicFetchAddInt", AtomicOp.FETCH_ADD, dest, offset, value, 0, pe);
    }

    /** Adds one of the int at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default void atomicIncInt(SymmetricSegment dest, long offset, int pe) {
        Args.nonNull("atomicIncInt", "dest", dest);
        Endpoint.of(this).atomicInt("atomicIncInt", AtomicOp.ADD, dest, offset, 1, 0, pe);
    }

    /** Adds one and returns the old value of the int at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default int atomicFetchIncInt(SymmetricSegment dest, long offset, int pe) {
        Args.nonNull("atomicFetchIncInt", "dest", dest);
        return Endpoint.of(this).atomicInt("atomicFetchIncInt", AtomicOp.FETCH_ADD, dest, offset, 1, 0, pe);
    }

    /** Bitwise-ands {@code value} in of the int at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default void atomicAndInt(SymmetricSegment dest, long offset, int value, int pe) {
        Args.nonNull("atomicAndInt", "dest", dest);
        Endpoint.of(this).atomicInt("atomicAndInt", AtomicOp.AND, dest, offset, value, 0, pe);
    }

    /** Bitwise-ands {@code value} in and returns the old value of the int at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default int atomicFetchAndInt(SymmetricSegment dest, long offset, int value, int pe) {
        Args.nonNull("atomicFetchAndInt", "dest", dest);
        return Endpoint.of(this).atomicInt("atomicFetchAndInt", AtomicOp.FETCH_AND, dest, offset, value, 0, pe);
    }

    /** Bitwise-ors {@code value} in of the int at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default void atomicOrInt(SymmetricSegment dest, long offset, int value, int pe) {
        Args.nonNull("atomicOrInt", "dest", dest);
        Endpoint.of(this).atomicInt("atomicOrInt", AtomicOp.OR, dest, offset, value, 0, pe);
    }

    /** Bitwise-ors {@code value} in and returns the old value of the int at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default int atomicFetchOrInt(SymmetricSegment dest, long offset, int value, int pe) {
        Args.nonNull("atomicFetchOrInt", "dest", dest);
        return Endpoint.of(this).atomicInt("atomicFetchOrInt", AtomicOp.FETCH_OR, dest, offset, value, 0, pe);
    }

    /** Bitwise-xors {@code value} in of the int at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default void atomicXorInt(SymmetricSegment dest, long offset, int value, int pe) {
        Args.nonNull("atomicXorInt", "dest", dest);
        Endpoint.of(this).atomicInt("atomicXorInt", AtomicOp.XOR, dest, offset, value, 0, pe);
    }

    /** Bitwise-xors {@code value} in and returns the old value of the int at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default int atomicFetchXorInt(SymmetricSegment dest, long offset, int value, int pe) {
        Args.nonNull("atomicFetchXorInt", "dest", dest);
        return Endpoint.of(this).atomicInt("atomicFetchXorInt", AtomicOp.FETCH_XOR, dest, offset, value, 0, pe);
    }

    /** If the int at byte {@code offset} of {@code dest} on PE {@code pe} equals {@code expected}, sets it to {@code value}; returns the old value. */
    default int atomicCompareSwapInt(SymmetricSegment dest, long offset, int expected, int value, int pe) {
        Args.nonNull("atomicCompareSwapInt", "dest", dest);
        return Endpoint.of(this).atomicInt("atomicCompareSwapInt", AtomicOp.COMPARE_SWAP, dest, offset, value, expected, pe);
    }

    /** Returns the value of the long at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default long atomicFetchLong(SymmetricSegment dest, long offset, int pe) {
        Args.nonNull("atomicFetchLong", "dest", dest);
        return Endpoint.of(this).atomicLong("atomicFetchLong", AtomicOp.FETCH, dest, offset, 0, 0, pe);
    }

    /** Sets the value to {@code value} of the long at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default void atomicSetLong(SymmetricSegment dest, long offset, long value, int pe) {
        Args.nonNull("atomicSetLong", "dest", dest);
        Endpoint.of(this).atomicLong("atomicSetLong", AtomicOp.SET, dest, offset, value, 0, pe);
    }

    /** Sets the value to {@code value} and returns the old one of the long at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default long atomicSwapLong(SymmetricSegment dest, long offset, long value, int pe) {
        Args.nonNull("atomicSwapLong", "dest", dest);
        return Endpoint.of(this).atomicLong("atomicSwapLong", AtomicOp.SWAP, dest, offset, value, 0, pe);
    }

    /** Adds {@code value} of the long at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default void atomicAddLong(SymmetricSegment dest, long offset, long value, int pe) {
        Args.nonNull("atomicAddLong", "dest", dest);
        Endpoint.of(this).atomicLong("atomicAddLong", AtomicOp.ADD, dest, offset, value, 0, pe);
    }

    /** Adds {@code value} and returns the old value of the long at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default long atomicFetchAddLong(SymmetricSegment dest, long offset, long value, int pe) {
        Args.nonNull("atomicFetchAddLong", "dest", dest);
        return Endpoint.of(this).atomicLong("atomicFetchAddLong", AtomicOp.FETCH_ADD, dest, offset, value, 0, pe);
    }

    /** Adds one of the long at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default void atomicIncLong(SymmetricSegment dest, long offset, int pe) {
        Args.nonNull("atomicIncLong", "dest", dest);
        Endpoint.of(this).atomicLong("atomicIncLong", AtomicOp.ADD, dest, offset, 1, 0, pe);
    }

    /** Adds one and returns the old value of the long at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default long atomicFetchIncLong(SymmetricSegment dest, long offset, int pe) {
        Args.nonNull("atomicFetchIncLong", "dest", dest);
        return Endpoint.of(this).atomicLong("atomicFetchIncLong", AtomicOp.FETCH_ADD, dest, offset, 1, 0, pe);
    }

    /** Bitwise-ands {@code value} in of the long at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default void atomicAndLong(SymmetricSegment dest, long offset, long value, int pe) {
        Args.nonNull("atomicAndLong", "dest", dest);
        Endpoint.of(this).atomicLong("atomicAndLong", AtomicOp.AND, dest, offset, value, 0, pe);
    }

    /** Bitwise-ands {@code value} in and returns the old value of the long at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default long atomicFetchAndLong(SymmetricSegment dest, long offset, long value, int pe) {
        Args.nonNull("atomicFetchAndLong", "dest", dest);
        return Endpoint.of(this).atomicLong("atomicFetchAndLong", AtomicOp.FETCH_AND, dest, offset, value, 0, pe);
    }

    /** Bitwise-ors {@code value} in of the long at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default void atomicOrLong(SymmetricSegment dest, long offset, long value, int pe) {
        Args.nonNull("atomicOrLong", "dest", dest);
        Endpoint.of(this).atomicLong("atomicOrLong", AtomicOp.OR, dest, offset, value, 0, pe);
    }

    /** Bitwise-ors {@code value} in and returns the old value of the long at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default long atomicFetchOrLong(SymmetricSegment dest, long offset, long value, int pe) {
        Args.nonNull("atomicFetchOrLong", "dest", dest);
        return Endpoint.of(this).atomicLong("atomicFetchOrLong", AtomicOp.FETCH_OR, dest, offset, value, 0, pe);
    }

    /** Bitwise-xors {@code value} in of the long at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default void atomicXorLong(SymmetricSegment dest, long offset, long value, int pe) {
        Args.nonNull("atomicXorLong", "dest", dest);
        Endpoint.of(this).atomicLong("atomicXorLong", AtomicOp.XOR, dest, offset, value, 0, pe);
    }

    /** Bitwise-xors {@code value} in and returns the old value of the long at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default long atomicFetchXorLong(SymmetricSegment dest, long offset, long value, int pe) {
        Args.nonNull("atomicFetchXorLong", "dest", dest);
        return Endpoint.of(this).atomicLong("atomicFetchXorLong", AtomicOp.FETCH_XOR, dest, offset, value, 0, pe);
    }

    /** If the long at byte {@code offset} of {@code dest} on PE {@code pe} equals {@code expected}, sets it to {@code value}; returns the old value. */
    default long atomicCompareSwapLong(SymmetricSegment dest, long offset, long expected, long value, int pe) {
        Args.nonNull("atomicCompareSwapLong", "dest", dest);
        return Endpoint.of(this).atomicLong("atomicCompareSwapLong", AtomicOp.COMPARE_SWAP, dest, offset, value, expected, pe);
    }

    /** Returns the value of the float at byte {@code offset} of {@code dest} on PE {@code pe}, atomically (OpenSHMEM's extended AMOs). */
    default float atomicFetchFloat(SymmetricSegment dest, long offset, int pe) {
        Args.nonNull("atomicFetchFloat", "dest", dest);
        return Float.intBitsToFloat(Endpoint.of(this).atomicInt("atomicFetchFloat", AtomicOp.FETCH, dest, offset, 0, 0, pe));
    }

    /** Sets the float at byte {@code offset} of {@code dest} on PE {@code pe} to {@code value}, atomically. */
    default void atomicSetFloat(SymmetricSegment dest, long offset, float value, int pe) {
        Args.nonNull("atomicSetFloat", "dest", dest);
        Endpoint.of(this).atomicInt("atomicSetFloat", AtomicOp.SET, dest, offset, Float.floatToRawIntBits(value), 0, pe);
    }

    /** Sets the float at byte {@code offset} of {@code dest} on PE {@code pe} to {@code value} and returns the old one, atomically. */
    default float atomicSwapFloat(SymmetricSegment dest, long offset, float value, int pe) {
        Args.nonNull("atomicSwapFloat", "dest", dest);
        return Float.intBitsToFloat(Endpoint.of(this).atomicInt("atomicSwapFloat", AtomicOp.SWAP, dest, offset, Float.floatToRawIntBits(value), 0, pe));
    }

    /** Returns the value of the double at byte {@code offset} of {@code dest} on PE {@code pe}, atomically (OpenSHMEM's extended AMOs). */
    default double atomicFetchDouble(SymmetricSegment dest, long offset, int pe) {
        Args.nonNull("atomicFetchDouble", "dest", dest);
        return Double.longBitsToDouble(Endpoint.of(this).atomicLong("atomicFetchDouble", AtomicOp.FETCH, dest, offset, 0, 0, pe));
    }

    /** Sets the double at byte {@code offset} of {@code dest} on PE {@code pe} to {@code value}, atomically. */
    default void atomicSetDouble(SymmetricSegment dest, long offset, double value, int pe) {
        Args.nonNull("atomicSetDouble", "dest", dest);
        Endpoint.of(this).atomicLong("atomicSetDouble", AtomicOp.SET, dest, offset, Double.doubleToRawLongBits(value), 0, pe);
    }

    /** Sets the double at byte {@code offset} of {@code dest} on PE {@code pe} to {@code value} and returns the old one, atomically. */
    default double atomicSwapDouble(SymmetricSegment dest, long offset, double value, int pe) {
        Args.nonNull("atomicSwapDouble", "dest", dest);
        return Double.longBitsToDouble(Endpoint.of(this).atomicLong("atomicSwapDouble", AtomicOp.SWAP, dest, offset, Double.doubleToRawLongBits(value), 0, pe));
    }

    // Non-blocking fetching atomics (OpenSHMEM 1.5's shmem_atomic_*_nbi): the old value is written to the
    // first bytes of {@code fetch} (host memory), complete after quiet(). jshmem runs them before returning.

    /** Non-blocking {@link #atomicFetchInt}: the old value goes to {@code fetch}. */
    default void atomicFetchIntNbi(MemorySegment fetch, SymmetricSegment dest, long offset, int pe) {
        Endpoint.of(this).atomicNbi("atomicFetchIntNbi", AtomicOp.FETCH, fetch, dest, offset, 4, 0, 0, pe);
    }

    /** Non-blocking {@link #atomicSwapInt}: the old value goes to {@code fetch}. */
    default void atomicSwapIntNbi(MemorySegment fetch, SymmetricSegment dest, long offset, int value, int pe) {
        Endpoint.of(this).atomicNbi("atomicSwapIntNbi", AtomicOp.SWAP, fetch, dest, offset, 4, value, 0, pe);
    }

    /** Non-blocking {@link #atomicCompareSwapInt}: the old value goes to {@code fetch}. */
    default void atomicCompareSwapIntNbi(MemorySegment fetch, SymmetricSegment dest, long offset, int expected, int value, int pe) {
        Endpoint.of(this).atomicNbi("atomicCompareSwapIntNbi", AtomicOp.COMPARE_SWAP, fetch, dest, offset, 4, value, expected, pe);
    }

    /** Non-blocking {@link #atomicFetchIncInt}: the old value goes to {@code fetch}. */
    default void atomicFetchIncIntNbi(MemorySegment fetch, SymmetricSegment dest, long offset, int pe) {
        Endpoint.of(this).atomicNbi("atomicFetchIncIntNbi", AtomicOp.FETCH_ADD, fetch, dest, offset, 4, 1, 0, pe);
    }

    /** Non-blocking {@link #atomicFetchAddInt}: the old value goes to {@code fetch}. */
    default void atomicFetchAddIntNbi(MemorySegment fetch, SymmetricSegment dest, long offset, int value, int pe) {
        Endpoint.of(this).atomicNbi("atomicFetchAddIntNbi", AtomicOp.FETCH_ADD, fetch, dest, offset, 4, value, 0, pe);
    }

    /** Non-blocking {@link #atomicFetchAndInt}: the old value goes to {@code fetch}. */
    default void atomicFetchAndIntNbi(MemorySegment fetch, SymmetricSegment dest, long offset, int value, int pe) {
        Endpoint.of(this).atomicNbi("atomicFetchAndIntNbi", AtomicOp.FETCH_AND, fetch, dest, offset, 4, value, 0, pe);
    }

    /** Non-blocking {@link #atomicFetchOrInt}: the old value goes to {@code fetch}. */
    default void atomicFetchOrIntNbi(MemorySegment fetch, SymmetricSegment dest, long offset, int value, int pe) {
        Endpoint.of(this).atomicNbi("atomicFetchOrIntNbi", AtomicOp.FETCH_OR, fetch, dest, offset, 4, value, 0, pe);
    }

    /** Non-blocking {@link #atomicFetchXorInt}: the old value goes to {@code fetch}. */
    default void atomicFetchXorIntNbi(MemorySegment fetch, SymmetricSegment dest, long offset, int value, int pe) {
        Endpoint.of(this).atomicNbi("atomicFetchXorIntNbi", AtomicOp.FETCH_XOR, fetch, dest, offset, 4, value, 0, pe);
    }

    /** Non-blocking {@link #atomicFetchLong}: the old value goes to {@code fetch}. */
    default void atomicFetchLongNbi(MemorySegment fetch, SymmetricSegment dest, long offset, int pe) {
        Endpoint.of(this).atomicNbi("atomicFetchLongNbi", AtomicOp.FETCH, fetch, dest, offset, 8, 0, 0, pe);
    }

    /** Non-blocking {@link #atomicSwapLong}: the old value goes to {@code fetch}. */
    default void atomicSwapLongNbi(MemorySegment fetch, SymmetricSegment dest, long offset, long value, int pe) {
        Endpoint.of(this).atomicNbi("atomicSwapLongNbi", AtomicOp.SWAP, fetch, dest, offset, 8, value, 0, pe);
    }

    /** Non-blocking {@link #atomicCompareSwapLong}: the old value goes to {@code fetch}. */
    default void atomicCompareSwapLongNbi(MemorySegment fetch, SymmetricSegment dest, long offset, long expected, long value, int pe) {
        Endpoint.of(this).atomicNbi("atomicCompareSwapLongNbi", AtomicOp.COMPARE_SWAP, fetch, dest, offset, 8, value, expected, pe);
    }

    /** Non-blocking {@link #atomicFetchIncLong}: the old value goes to {@code fetch}. */
    default void atomicFetchIncLongNbi(MemorySegment fetch, SymmetricSegment dest, long offset, int pe) {
        Endpoint.of(this).atomicNbi("atomicFetchIncLongNbi", AtomicOp.FETCH_ADD, fetch, dest, offset, 8, 1, 0, pe);
    }

    /** Non-blocking {@link #atomicFetchAddLong}: the old value goes to {@code fetch}. */
    default void atomicFetchAddLongNbi(MemorySegment fetch, SymmetricSegment dest, long offset, long value, int pe) {
        Endpoint.of(this).atomicNbi("atomicFetchAddLongNbi", AtomicOp.FETCH_ADD, fetch, dest, offset, 8, value, 0, pe);
    }

    /** Non-blocking {@link #atomicFetchAndLong}: the old value goes to {@code fetch}. */
    default void atomicFetchAndLongNbi(MemorySegment fetch, SymmetricSegment dest, long offset, long value, int pe) {
        Endpoint.of(this).atomicNbi("atomicFetchAndLongNbi", AtomicOp.FETCH_AND, fetch, dest, offset, 8, value, 0, pe);
    }

    /** Non-blocking {@link #atomicFetchOrLong}: the old value goes to {@code fetch}. */
    default void atomicFetchOrLongNbi(MemorySegment fetch, SymmetricSegment dest, long offset, long value, int pe) {
        Endpoint.of(this).atomicNbi("atomicFetchOrLongNbi", AtomicOp.FETCH_OR, fetch, dest, offset, 8, value, 0, pe);
    }

    /** Non-blocking {@link #atomicFetchXorLong}: the old value goes to {@code fetch}. */
    default void atomicFetchXorLongNbi(MemorySegment fetch, SymmetricSegment dest, long offset, long value, int pe) {
        Endpoint.of(this).atomicNbi("atomicFetchXorLongNbi", AtomicOp.FETCH_XOR, fetch, dest, offset, 8, value, 0, pe);
    }

    /** Non-blocking {@link #atomicFetchFloat}: the old value's bits go to {@code fetch}. */
    default void atomicFetchFloatNbi(MemorySegment fetch, SymmetricSegment dest, long offset, int pe) {
        Endpoint.of(this).atomicNbi("atomicFetchFloatNbi", AtomicOp.FETCH, fetch, dest, offset, 4, 0, 0, pe);
    }

    /** Non-blocking {@link #atomicSwapFloat}: the old value's bits go to {@code fetch}. */
    default void atomicSwapFloatNbi(MemorySegment fetch, SymmetricSegment dest, long offset, float value, int pe) {
        Endpoint.of(this).atomicNbi("atomicSwapFloatNbi", AtomicOp.SWAP, fetch, dest, offset, 4, Float.floatToRawIntBits(value), 0, pe);
    }

    /** Non-blocking {@link #atomicFetchDouble}: the old value's bits go to {@code fetch}. */
    default void atomicFetchDoubleNbi(MemorySegment fetch, SymmetricSegment dest, long offset, int pe) {
        Endpoint.of(this).atomicNbi("atomicFetchDoubleNbi", AtomicOp.FETCH, fetch, dest, offset, 8, 0, 0, pe);
    }

    /** Non-blocking {@link #atomicSwapDouble}: the old value's bits go to {@code fetch}. */
    default void atomicSwapDoubleNbi(MemorySegment fetch, SymmetricSegment dest, long offset, double value, int pe) {
        Endpoint.of(this).atomicNbi("atomicSwapDoubleNbi", AtomicOp.SWAP, fetch, dest, offset, 8, Double.doubleToRawLongBits(value), 0, pe);
    }
}
