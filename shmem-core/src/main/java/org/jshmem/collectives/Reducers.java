package org.jshmem.collectives;

import org.jshmem.DType;
import org.jshmem.ReduceOp;

/** Every {@link Reducer}, made once: they are stateless, so every collective shares them ({@link Reducer#of}). */
final class Reducers {
    /** By {@code type.ordinal() * ReduceOp.values().length + op.ordinal()}; null for bitwise operations on floating-point types. */
    static final Reducer[] ALL = new Reducer[DType.values().length * ReduceOp.values().length];

    static {
        for (DType type : DType.values()) {
            for (ReduceOp op : ReduceOp.values()) {
                if (type.isInteger() || !op.isBitwise()) {
                    ALL[type.ordinal() * ReduceOp.values().length + op.ordinal()] = make(type, op);
                }
            }
        }
    }

    private Reducers() {
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
