package org.jshmem.perf;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.Shmem;
import org.jshmem.SymmetricSegment;

/**
 * The value 1 in each element type, and what a reduction of ones over n PEs gives: the collectives'
 * sources and check (ones keep floating-point reductions on normal numbers, where the bytes of the
 * default fill would make subnormals).
 */
public final class Ones {
    private Ones() {
    }

    /** The bytes of 1 in {@code type}, little-endian as the heaps hold them. */
    static byte[] of(DType type) {
        ByteBuffer b = ByteBuffer.allocate(type.byteSize()).order(ByteOrder.LITTLE_ENDIAN);
        switch (type) {
            case BYTE -> b.put((byte) 1);
            case SHORT -> b.putShort((short) 1);
            case INT -> b.putInt(1);
            case LONG -> b.putLong(1L);
            case FLOAT -> b.putFloat(1f);
            case DOUBLE -> b.putDouble(1d);
            case FP16 -> b.putShort(Float.floatToFloat16(1f));
            case BF16 -> b.putShort(DType.floatToBf16(1f));
        }
        return b.array();
    }

    /** Sets every element of this PE's {@code seg} (host or GPU heap) to 1 of {@code type}, with puts, then quiet. */
    public static void fill(Shmem shmem, SymmetricSegment seg, DType type) {
        PerfContext.putRepeated(shmem, seg, of(type));
    }

    /** {@code op} over n ones: n for sum, n mod 2 for xor, 1 for the rest. */
    static double reduced(ReduceOp op, int n) {
        return switch (op) {
            case SUM -> n;
            case XOR -> n % 2;
            default -> 1;
        };
    }

    /** Element {@code index} of this PE's {@code seg}, as a double. */
    static double read(Shmem shmem, SymmetricSegment seg, long index, DType type) {
        byte[] raw = new byte[type.byteSize()];
        shmem.get(raw, 0, raw.length, seg, index * type.byteSize(), shmem.myPe());
        ByteBuffer b = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
        return switch (type) {
            case BYTE -> b.get();
            case SHORT -> b.getShort();
            case INT -> b.getInt();
            case LONG -> b.getLong();
            case FLOAT -> b.getFloat();
            case DOUBLE -> b.getDouble();
            case FP16 -> Float.float16ToFloat(b.getShort());
            case BF16 -> DType.bf16ToFloat(b.getShort());
        };
    }
}
