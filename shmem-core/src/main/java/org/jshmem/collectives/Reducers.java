package org.jshmem.collectives;

import org.jshmem.DType;
import org.jshmem.ReduceOp;

/** Every {@link Reducer}, made once: they are stateless, so every collective shares them ({@link Reducer#of}). */
final class Reducers {
    /** ReduceOp.values() copies its array on every call: counted once, off the reductions' path. */
    private static final int OPS = ReduceOp.values().length;
    /** By {@link #index}; null for bitwise operations on floating-point types. */
    private static final Reducer[] ALL = new Reducer[DType.values().length * OPS];

    static {
        for (DType type : DType.values()) {
            for (ReduceOp op : ReduceOp.values()) {
                if (type.isInteger() || !op.isBitwise()) {
                    ALL[index(type, op)] = make(type, op);
                }
            }
        }
    }

    private Reducers() {
    }

    /** The shared reducer of {@code op} on {@code type}; null for a bitwise operation on a floating-point type. */
    static Reducer get(DType type, ReduceOp op) {
        return ALL[index(type, op)];
    }

    private static int index(DType type, ReduceOp op) {
        return type.ordinal() * OPS + op.ordinal();
    }

    private static Reducer make(DType type, ReduceOp op) {
        return switch (type) {
            case BYTE -> new ByteReducer(op);
            case SHORT -> new ShortReducer(op);
            case INT -> new IntReducer(op);
            case LONG -> new LongReducer(op);
            case FLOAT -> new FloatReducer(op);
            case DOUBLE -> new DoubleReducer(op);
            case FP16, BF16 -> new HalfReducer(type, op);
        };
    }
}
