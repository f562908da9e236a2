package org.jshmem;

/**
 * Element types of collectives (OpenSHMEM's typed collectives, NVSHMEM's {@code half} and
 * {@code bfloat16} included). Integer types are signed and wrap around on overflow, as Java's
 * do; {@link #FP16} (IEEE 754 binary16) and {@link #BF16} (bfloat16: the upper half of a
 * {@code float}) are reduced in {@code float} precision and rounded to nearest-even once, at
 * the end. Elements are stored little-endian, as Java's {@code ValueLayout.JAVA_*} layouts on
 * the machines jshmem runs on; an fp16 or bf16 element is a {@code short} holding its bits.
 */
public enum DType {
    BYTE(1, true),
    SHORT(2, true),
    INT(4, true),
    LONG(8, true),
    FLOAT(4, false),
    DOUBLE(8, false),
    /** IEEE 754 half precision; convert with {@link Float#floatToFloat16} / {@link Float#float16ToFloat}. */
    FP16(2, false),
    /** bfloat16: the 16 upper bits of a {@code float} (8-bit exponent, 7-bit mantissa). */
    BF16(2, false);

    private final int byteSize;
    private final boolean integer;

    DType(int byteSize, boolean integer) {
        this.byteSize = byteSize;
        this.integer = integer;
    }

    /** Bytes per element. */
    public int byteSize() {
        return byteSize;
    }

    /** Whether this is an integer type, the only kind the bitwise {@link ReduceOp}s apply to. */
    public boolean isInteger() {
        return integer;
    }

    /** The {@code float} that the bfloat16 {@code bits} stand for (exact). */
    public static float bf16ToFloat(short bits) {
        return Float.intBitsToFloat((bits & 0xFFFF) << 16);
    }

    /** The bfloat16 nearest to {@code f}, ties to even; infinities stay, a NaN stays a (quiet) NaN. */
    public static short floatToBf16(float f) {
        int bits = Float.floatToRawIntBits(f);
        if ((bits & 0x7FFF_FFFF) > 0x7F80_0000) {
            return (short) ((bits >>> 16) | 0x0040);
        }
        return (short) ((bits + 0x7FFF + ((bits >>> 16) & 1)) >>> 16);
    }
}
