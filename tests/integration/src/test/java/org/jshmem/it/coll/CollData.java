package org.jshmem.it.coll;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;
import org.jshmem.DType;

/**
 * The inputs of the collective tests, the same on the PEs (which fill their sources with them)
 * and in JUnit (which computes the expected results from them): element {@code k} of the data
 * that world PE {@code pe} contributes under {@code seed}. Integers are random bits. float and double
 * values are small binary fractions, whose sums and products over up to 8 PEs are exact in any
 * order: the reductions that take the members in rotated order (the GPU's two-shot of 3 or more PEs)
 * give the same bits as team order. fp16 and bf16 values are thousandths in [-2, 2] (products of
 * four stay in range), rounded to the type: their sums round, which checks that the members are
 * added in fp32 and rounded once, in team order.
 */
public final class CollData {
    private CollData() {
    }

    /** Random 64 bits for (pe, k, seed): splitmix64. */
    public static long bits(int pe, long k, int seed) {
        long z = k * 0x9E3779B97F4A7C15L + pe * 0xBF58476D1CE4E5B9L + seed * 0x94D049BB133111EBL + 0x632BE59BD9B4E5L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The value in [-2, 2] behind the fp16 and bf16 elements. */
    public static double decimal(int pe, long k, int seed) {
        return (Math.floorMod(bits(pe, k, seed) >>> 11, 4001L) - 2000) / 1000.0;
    }

    /** The value behind float and double elements: +-m / 2^e, m in 1..7, e in 0..3 (at most 3 significant bits). */
    public static double dyadic(int pe, long k, int seed) {
        long b = bits(pe, k, seed);
        double m = 1 + Math.floorMod(b >>> 11, 7L);
        double v = Math.scalb(m, -(int) ((b >>> 20) & 3));
        return (b & 1) == 0 ? v : -v;
    }

    /** The raw little-endian bits (in the low {@code type.byteSize()} bytes) of element k. */
    public static long element(DType type, int pe, long k, int seed) {
        return switch (type) {
            case BYTE -> bits(pe, k, seed) & 0xFF;
            case SHORT -> bits(pe, k, seed) & 0xFFFF;
            case INT -> bits(pe, k, seed) & 0xFFFF_FFFFL;
            case LONG -> bits(pe, k, seed);
            case FLOAT -> Float.floatToRawIntBits((float) dyadic(pe, k, seed)) & 0xFFFF_FFFFL;
            case DOUBLE -> Double.doubleToRawLongBits(dyadic(pe, k, seed));
            case FP16 -> Float.floatToFloat16((float) decimal(pe, k, seed)) & 0xFFFF;
            case BF16 -> Bf16.round((float) decimal(pe, k, seed)) & 0xFFFF;
        };
    }

    /** Writes element bits little-endian. */
    public static void put(MemorySegment seg, long byteOffset, int size, long bits) {
        for (int b = 0; b < size; b++) {
            seg.set(ValueLayout.JAVA_BYTE, byteOffset + b, (byte) (bits >>> (8 * b)));
        }
    }

    /** Fills {@code count} elements from element index {@code first} of PE {@code pe}'s data. */
    public static void fill(MemorySegment seg, long byteOffset, DType type, int pe, long first, long count, int seed) {
        int size = type.byteSize();
        for (long i = 0; i < count; i++) {
            long v = element(type, pe, first + i, seed);
            switch (size) {
                case 1 -> seg.set(ValueLayout.JAVA_BYTE, byteOffset + i, (byte) v);
                case 2 -> seg.set(ValueLayout.JAVA_SHORT_UNALIGNED, byteOffset + 2 * i, (short) v);
                case 4 -> seg.set(ValueLayout.JAVA_INT_UNALIGNED, byteOffset + 4 * i, (int) v);
                default -> seg.set(ValueLayout.JAVA_LONG_UNALIGNED, byteOffset + 8 * i, v);
            }
        }
    }

    public static String crc(MemorySegment seg) {
        CRC32 c = new CRC32();
        c.update(seg.asByteBuffer());
        return Long.toHexString(c.getValue());
    }

    public static String crc(byte[] bytes) {
        CRC32 c = new CRC32();
        c.update(ByteBuffer.wrap(bytes));
        return Long.toHexString(c.getValue());
    }

    /**
     * bfloat16 rounding written independently of the library's: of the two bfloat16 values
     * around {@code f}, the nearer; on a tie, the one with an even last bit.
     */
    public static final class Bf16 {
        private Bf16() {
        }

        public static short round(float f) {
            if (Float.isNaN(f)) {
                return (short) 0x7FC0;
            }
            int bits = Float.floatToRawIntBits(f);
            int down = bits >>> 16;
            int up = down + 1;
            if ((bits & 0xFFFF) == 0) {
                return (short) down;
            }
            double dd = Math.abs((double) f - toFloat((short) down));
            double du = Math.abs(toFloat((short) up) - (double) f);
            if (Float.isInfinite(toFloat((short) up)) && !Float.isInfinite(f)) {
                // rounding up past the largest finite value: IEEE round-to-nearest overflows only beyond half an ulp
                du = Math.abs(Math.scalb(1.0, 128) - Math.abs((double) f));
            }
            if (dd < du || (dd == du && (down & 1) == 0)) {
                return (short) down;
            }
            return (short) up;
        }

        public static float toFloat(short b) {
            return Float.intBitsToFloat((b & 0xFFFF) << 16);
        }
    }
}
