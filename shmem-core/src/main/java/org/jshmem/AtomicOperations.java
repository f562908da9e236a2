package org.jshmem;

/**
 * Atomic memory operations on 4-byte ints and 8-byte longs of any PE's symmetric heap
 * (OpenSHMEM 1.5 section 9.7). The target must be naturally aligned (offset a multiple of the
 * width), else {@link MisalignedAtomicException}. Fetching operations return the value before
 * the operation and are sequentially consistent; non-fetching ones are ordered by
 * {@link Shmem#fence()} and completed by {@link Shmem#quiet()}. Atomics of different widths on
 * the same bytes are not atomic with respect to each other.
 *
 * <p>The typed overloads repeat one shape per Java type on purpose (OpenSHMEM's typed API, as
 * {@code shmem_long_put} etc.): each is a one-line default method the JIT inlines into a direct
 * call with a constant element layout; issue 16 kept them written out rather than generated.
 */
public sealed interface AtomicOperations permits Shmem {

    /** Returns the value of the int at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default int atomicFetchInt(SymmetricSegment dest, long offset, int pe) {
        Args.nonNull("atomicFetchInt", "dest", dest);
        return ((Shmem) this).atomicInt("atomicFetchInt", AtomicOp.FETCH, dest, offset, 0, 0, pe);
    }

    /** Sets the value to {@code value} of the int at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default void atomicSetInt(SymmetricSegment dest, long offset, int value, int pe) {
        Args.nonNull("atomicSetInt", "dest", dest);
        ((Shmem) this).atomicInt("atomicSetInt", AtomicOp.SET, dest, offset, value, 0, pe);
    }

    /** Sets the value to {@code value} and returns the old one of the int at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default int atomicSwapInt(SymmetricSegment dest, long offset, int value, int pe) {
        Args.nonNull("atomicSwapInt", "dest", dest);
        return ((Shmem) this).atomicInt("atomicSwapInt", AtomicOp.SWAP, dest, offset, value, 0, pe);
    }

    /** Adds {@code value} of the int at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default void atomicAddInt(SymmetricSegment dest, long offset, int value, int pe) {
        Args.nonNull("atomicAddInt", "dest", dest);
        ((Shmem) this).atomicInt("atomicAddInt", AtomicOp.ADD, dest, offset, value, 0, pe);
    }

    /** Adds {@code value} and returns the old value of the int at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default int atomicFetchAddInt(SymmetricSegment dest, long offset, int value, int pe) {
        Args.nonNull("atomicFetchAddInt", "dest", dest);
        return ((Shmem) this).atomicInt("atomicFetchAddInt", AtomicOp.FETCH_ADD, dest, offset, value, 0, pe);
    }

    /** Adds one of the int at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default void atomicIncInt(SymmetricSegment dest, long offset, int pe) {
        Args.nonNull("atomicIncInt", "dest", dest);
        ((Shmem) this).atomicInt("atomicIncInt", AtomicOp.ADD, dest, offset, 1, 0, pe);
    }

    /** Adds one and returns the old value of the int at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default int atomicFetchIncInt(SymmetricSegment dest, long offset, int pe) {
        Args.nonNull("atomicFetchIncInt", "dest", dest);
        return ((Shmem) this).atomicInt("atomicFetchIncInt", AtomicOp.FETCH_ADD, dest, offset, 1, 0, pe);
    }

    /** Bitwise-ands {@code value} in of the int at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default void atomicAndInt(SymmetricSegment dest, long offset, int value, int pe) {
        Args.nonNull("atomicAndInt", "dest", dest);
        ((Shmem) this).atomicInt("atomicAndInt", AtomicOp.AND, dest, offset, value, 0, pe);
    }

    /** Bitwise-ands {@code value} in and returns the old value of the int at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default int atomicFetchAndInt(SymmetricSegment dest, long offset, int value, int pe) {
        Args.nonNull("atomicFetchAndInt", "dest", dest);
        return ((Shmem) this).atomicInt("atomicFetchAndInt", AtomicOp.FETCH_AND, dest, offset, value, 0, pe);
    }

    /** Bitwise-ors {@code value} in of the int at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default void atomicOrInt(SymmetricSegment dest, long offset, int value, int pe) {
        Args.nonNull("atomicOrInt", "dest", dest);
        ((Shmem) this).atomicInt("atomicOrInt", AtomicOp.OR, dest, offset, value, 0, pe);
    }

    /** Bitwise-ors {@code value} in and returns the old value of the int at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default int atomicFetchOrInt(SymmetricSegment dest, long offset, int value, int pe) {
        Args.nonNull("atomicFetchOrInt", "dest", dest);
        return ((Shmem) this).atomicInt("atomicFetchOrInt", AtomicOp.FETCH_OR, dest, offset, value, 0, pe);
    }

    /** Bitwise-xors {@code value} in of the int at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default void atomicXorInt(SymmetricSegment dest, long offset, int value, int pe) {
        Args.nonNull("atomicXorInt", "dest", dest);
        ((Shmem) this).atomicInt("atomicXorInt", AtomicOp.XOR, dest, offset, value, 0, pe);
    }

    /** Bitwise-xors {@code value} in and returns the old value of the int at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default int atomicFetchXorInt(SymmetricSegment dest, long offset, int value, int pe) {
        Args.nonNull("atomicFetchXorInt", "dest", dest);
        return ((Shmem) this).atomicInt("atomicFetchXorInt", AtomicOp.FETCH_XOR, dest, offset, value, 0, pe);
    }

    /** If the int at byte {@code offset} of {@code dest} on PE {@code pe} equals {@code expected}, sets it to {@code value}; returns the old value. */
    default int atomicCompareSwapInt(SymmetricSegment dest, long offset, int expected, int value, int pe) {
        Args.nonNull("atomicCompareSwapInt", "dest", dest);
        return ((Shmem) this).atomicInt("atomicCompareSwapInt", AtomicOp.COMPARE_SWAP, dest, offset, value, expected, pe);
    }

    /** Returns the value of the long at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default long atomicFetchLong(SymmetricSegment dest, long offset, int pe) {
        Args.nonNull("atomicFetchLong", "dest", dest);
        return ((Shmem) this).atomicLong("atomicFetchLong", AtomicOp.FETCH, dest, offset, 0, 0, pe);
    }

    /** Sets the value to {@code value} of the long at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default void atomicSetLong(SymmetricSegment dest, long offset, long value, int pe) {
        Args.nonNull("atomicSetLong", "dest", dest);
        ((Shmem) this).atomicLong("atomicSetLong", AtomicOp.SET, dest, offset, value, 0, pe);
    }

    /** Sets the value to {@code value} and returns the old one of the long at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default long atomicSwapLong(SymmetricSegment dest, long offset, long value, int pe) {
        Args.nonNull("atomicSwapLong", "dest", dest);
        return ((Shmem) this).atomicLong("atomicSwapLong", AtomicOp.SWAP, dest, offset, value, 0, pe);
    }

    /** Adds {@code value} of the long at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default void atomicAddLong(SymmetricSegment dest, long offset, long value, int pe) {
        Args.nonNull("atomicAddLong", "dest", dest);
        ((Shmem) this).atomicLong("atomicAddLong", AtomicOp.ADD, dest, offset, value, 0, pe);
    }

    /** Adds {@code value} and returns the old value of the long at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default long atomicFetchAddLong(SymmetricSegment dest, long offset, long value, int pe) {
        Args.nonNull("atomicFetchAddLong", "dest", dest);
        return ((Shmem) this).atomicLong("atomicFetchAddLong", AtomicOp.FETCH_ADD, dest, offset, value, 0, pe);
    }

    /** Adds one of the long at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default void atomicIncLong(SymmetricSegment dest, long offset, int pe) {
        Args.nonNull("atomicIncLong", "dest", dest);
        ((Shmem) this).atomicLong("atomicIncLong", AtomicOp.ADD, dest, offset, 1, 0, pe);
    }

    /** Adds one and returns the old value of the long at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default long atomicFetchIncLong(SymmetricSegment dest, long offset, int pe) {
        Args.nonNull("atomicFetchIncLong", "dest", dest);
        return ((Shmem) this).atomicLong("atomicFetchIncLong", AtomicOp.FETCH_ADD, dest, offset, 1, 0, pe);
    }

    /** Bitwise-ands {@code value} in of the long at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default void atomicAndLong(SymmetricSegment dest, long offset, long value, int pe) {
        Args.nonNull("atomicAndLong", "dest", dest);
        ((Shmem) this).atomicLong("atomicAndLong", AtomicOp.AND, dest, offset, value, 0, pe);
    }

    /** Bitwise-ands {@code value} in and returns the old value of the long at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default long atomicFetchAndLong(SymmetricSegment dest, long offset, long value, int pe) {
        Args.nonNull("atomicFetchAndLong", "dest", dest);
        return ((Shmem) this).atomicLong("atomicFetchAndLong", AtomicOp.FETCH_AND, dest, offset, value, 0, pe);
    }

    /** Bitwise-ors {@code value} in of the long at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default void atomicOrLong(SymmetricSegment dest, long offset, long value, int pe) {
        Args.nonNull("atomicOrLong", "dest", dest);
        ((Shmem) this).atomicLong("atomicOrLong", AtomicOp.OR, dest, offset, value, 0, pe);
    }

    /** Bitwise-ors {@code value} in and returns the old value of the long at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default long atomicFetchOrLong(SymmetricSegment dest, long offset, long value, int pe) {
        Args.nonNull("atomicFetchOrLong", "dest", dest);
        return ((Shmem) this).atomicLong("atomicFetchOrLong", AtomicOp.FETCH_OR, dest, offset, value, 0, pe);
    }

    /** Bitwise-xors {@code value} in of the long at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default void atomicXorLong(SymmetricSegment dest, long offset, long value, int pe) {
        Args.nonNull("atomicXorLong", "dest", dest);
        ((Shmem) this).atomicLong("atomicXorLong", AtomicOp.XOR, dest, offset, value, 0, pe);
    }

    /** Bitwise-xors {@code value} in and returns the old value of the long at byte {@code offset} of {@code dest} on PE {@code pe}, atomically. */
    default long atomicFetchXorLong(SymmetricSegment dest, long offset, long value, int pe) {
        Args.nonNull("atomicFetchXorLong", "dest", dest);
        return ((Shmem) this).atomicLong("atomicFetchXorLong", AtomicOp.FETCH_XOR, dest, offset, value, 0, pe);
    }

    /** If the long at byte {@code offset} of {@code dest} on PE {@code pe} equals {@code expected}, sets it to {@code value}; returns the old value. */
    default long atomicCompareSwapLong(SymmetricSegment dest, long offset, long expected, long value, int pe) {
        Args.nonNull("atomicCompareSwapLong", "dest", dest);
        return ((Shmem) this).atomicLong("atomicCompareSwapLong", AtomicOp.COMPARE_SWAP, dest, offset, value, expected, pe);
    }
}
