package org.jshmem.gemm;

import org.jshmem.DType;

/** fp16/bf16 element conversions (round to nearest-even), as the kernels do them. */
final class Elements {
    private Elements() {
    }

    static float toFloat(short bits, DType type) {
        return type == DType.BF16 ? DType.bf16ToFloat(bits) : Float.float16ToFloat(bits);
    }

    static short fromFloat(float v, DType type) {
        return type == DType.BF16 ? DType.floatToBf16(v) : Float.floatToFloat16(v);
    }

    /** The GEMM's element types: fp16 and bf16 (fp32 accumulation); anything else is refused. */
    static DType check(DType type, String where) {
        if (type != DType.FP16 && type != DType.BF16) {
            throw new IllegalArgumentException(where + ": element type " + type + " is not supported; gemm-ext takes"
                    + " FP16 or BF16 inputs (fp32 accumulation, output in the input type)");
        }
        return type;
    }
}
