package org.jshmem.node;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import org.jshmem.AtomicOp;

/**
 * Loads, stores and atomics on the words of shared memory, as CPU atomics: what the host backend
 * does for the PEs of its node, and the remote transport's request server for PEs of other nodes,
 * so that both are atomic with each other. Stores release, loads acquire.
 */
public final class SharedWords {
    private static final VarHandle BYTE = ValueLayout.JAVA_BYTE.varHandle();
    private static final VarHandle SHORT = ValueLayout.JAVA_SHORT.varHandle();
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private SharedWords() {
    }

    /** Stores the low {@code width} (1, 2, 4, 8) bytes of {@code bits} at {@code at}, with release order. */
    public static void store(MemorySegment memory, long at, int width, long bits) {
        switch (width) {
            case 1 -> BYTE.setRelease(memory, at, (byte) bits);
            case 2 -> SHORT.setRelease(memory, at, (short) bits);
            case 4 -> INT.setRelease(memory, at, (int) bits);
            default -> LONG.setRelease(memory, at, bits);
        }
    }

    /** Loads {@code width} (1, 2, 4, 8) bytes at {@code at}, zero-extended, with acquire order. */
    public static long load(MemorySegment memory, long at, int width) {
        return switch (width) {
            case 1 -> (byte) BYTE.getAcquire(memory, at) & 0xFFL;
            case 2 -> (short) SHORT.getAcquire(memory, at) & 0xFFFFL;
            case 4 -> (int) INT.getAcquire(memory, at) & 0xFFFF_FFFFL;
            default -> (long) LONG.getAcquire(memory, at);
        };
    }

    /** {@code op} on the int at {@code at}: the old value (0 for SET). */
    public static int atomicInt(MemorySegment memory, long at, AtomicOp op, int value, int comparand) {
        return switch (op) {
            case FETCH -> (int) INT.getAcquire(memory, at);
            case SET -> {
                INT.setRelease(memory, at, value);
                yield 0;
            }
            case SWAP -> (int) INT.getAndSet(memory, at, value);
            case COMPARE_SWAP -> (int) INT.compareAndExchange(memory, at, comparand, value);
            case ADD, FETCH_ADD -> (int) INT.getAndAdd(memory, at, value);
            case AND, FETCH_AND -> (int) INT.getAndBitwiseAnd(memory, at, value);
            case OR, FETCH_OR -> (int) INT.getAndBitwiseOr(memory, at, value);
            case XOR, FETCH_XOR -> (int) INT.getAndBitwiseXor(memory, at, value);
        };
    }

    /** {@code op} on the long at {@code at}: the old value (0 for SET). */
    public static long atomicLong(MemorySegment memory, long at, AtomicOp op, long value, long comparand) {
        return switch (op) {
            case FETCH -> (long) LONG.getAcquire(memory, at);
            case SET -> {
                LONG.setRelease(memory, at, value);
                yield 0;
            }
            case SWAP -> (long) LONG.getAndSet(memory, at, value);
            case COMPARE_SWAP -> (long) LONG.compareAndExchange(memory, at, comparand, value);
            case ADD, FETCH_ADD -> (long) LONG.getAndAdd(memory, at, value);
            case AND, FETCH_AND -> (long) LONG.getAndBitwiseAnd(memory, at, value);
            case OR, FETCH_OR -> (long) LONG.getAndBitwiseOr(memory, at, value);
            case XOR, FETCH_XOR -> (long) LONG.getAndBitwiseXor(memory, at, value);
        };
    }
}
