package org.jshmem.collectives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.junit.jupiter.api.Test;

/** The reducers in one JVM: in place with any source, chunk edges, odd offsets, 16-bit floats, slices. */
class ReducerTest {
    private static final ValueLayout.OfLong L = ValueLayout.JAVA_LONG_UNALIGNED;

    @Test
    void inPlaceWithAnyOfFiveSourcesAcrossChunks() {
        long n = ElementwiseReducer.CHUNK_BYTES / 8 * 2 + 13;   // two chunks and a bit
        for (int alias = 0; alias < 5; alias++) {
            MemorySegment[] srcs = new MemorySegment[5];
            long[] offs = new long[5];
            for (int k = 0; k < 5; k++) {
                srcs[k] = MemorySegment.ofArray(new byte[(int) (n * 8 + 3)]);
                offs[k] = 3;   // unaligned on purpose
                for (long i = 0; i < n; i++) {
                    srcs[k].set(L, 3 + 8 * i, (k + 1) * 1000L + i);
                }
            }
            Reducer.of(DType.LONG, ReduceOp.SUM).reduce(srcs[alias], 3, srcs, offs, 5, n);
            for (long i = 0; i < n; i++) {
                long sum = 0;
                for (int k = 0; k < 5; k++) {
                    sum += (k + 1) * 1000L + i;
                }
                assertEquals(sum, srcs[alias].get(L, 3 + 8 * i), "alias " + alias + " element " + i);
            }
        }
    }

    @Test
    void halfPrecisionAccumulatesInFloatAndRoundsOnce() {
        // 2048 + 1 + 1 in fp16: pairwise rounding gives 2048 (1 is below half an ulp), float accumulation 2050
        short big = Float.floatToFloat16(2048f);
        short one = Float.floatToFloat16(1f);
        MemorySegment[] s = {seg16(big), seg16(one), seg16(one)};
        MemorySegment d = MemorySegment.ofArray(new short[1]);
        Reducer.of(DType.FP16, ReduceOp.SUM).reduce(d, 0, s, new long[3], 3, 1);
        assertEquals(2050f, Float.float16ToFloat(d.get(ValueLayout.JAVA_SHORT, 0)));
        // bf16: 256 + 1 + 1 (8 bits of mantissa): 258 in float, exactly representable
        MemorySegment[] b = {seg16(DType.floatToBf16(256f)), seg16(DType.floatToBf16(1f)), seg16(DType.floatToBf16(1f))};
        Reducer.of(DType.BF16, ReduceOp.SUM).reduce(d, 0, b, new long[3], 3, 1);
        assertEquals(258f, DType.bf16ToFloat(d.get(ValueLayout.JAVA_SHORT, 0)));
    }

    @Test
    void bf16RoundsToNearestEven() {
        assertEquals((short) 0x3F80, DType.floatToBf16(1.0f));
        assertEquals((short) 0x3F80, DType.floatToBf16(Float.intBitsToFloat(0x3F808000)));   // tie, even stays
        assertEquals((short) 0x3F82, DType.floatToBf16(Float.intBitsToFloat(0x3F818000)));   // tie, odd rounds up
        assertEquals((short) 0x3F81, DType.floatToBf16(Float.intBitsToFloat(0x3F808001)));   // above the tie
        assertEquals((short) 0x7F80, DType.floatToBf16(Float.POSITIVE_INFINITY));
        assertTrue(Float.isNaN(DType.bf16ToFloat(DType.floatToBf16(Float.NaN))));
        assertTrue(Float.isNaN(DType.bf16ToFloat(DType.floatToBf16(Float.intBitsToFloat(0x7F800001)))), "signalling NaN stays NaN");
        Random r = new Random(7);
        for (int i = 0; i < 100_000; i++) {
            float f = Float.intBitsToFloat(r.nextInt());
            if (Float.isNaN(f)) {
                continue;
            }
            float got = DType.bf16ToFloat(DType.floatToBf16(f));
            int down = Float.floatToRawIntBits(f) & 0xFFFF0000;
            float lo = Float.intBitsToFloat(down);
            float hi = Float.intBitsToFloat(down + 0x10000);
            assertTrue(got == lo || got == hi || (Float.isInfinite(got) && Math.abs(f) >= Float.MAX_VALUE * 0.99f),
                    "bf16 of " + f + " is one of its neighbours");
            double dl = Math.abs((double) f - lo);
            double dh = Math.abs((double) hi - f);
            if (!Float.isInfinite(hi)) {
                assertTrue(Math.abs((double) got - f) <= Math.min(dl, dh), "bf16 of " + f + " is the nearer");
            }
        }
    }

    @Test
    void bitwiseOnFloatingPointIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Reducer.of(DType.DOUBLE, ReduceOp.OR));
        assertTrue(e.getMessage().contains("integer types"), e.getMessage());
    }

    @Test
    void slicesCoverEveryElementOnce() {
        for (long nelems : new long[] {0, 1, 2, 3, 7, 1000003, Long.MAX_VALUE / 8}) {
            for (int n = 1; n <= 7; n++) {
                assertEquals(0, Reducer.sliceStart(nelems, 0, n));
                assertEquals(nelems, Reducer.sliceStart(nelems, n, n));
                for (int i = 0; i < n; i++) {
                    long size = Reducer.sliceStart(nelems, i + 1, n) - Reducer.sliceStart(nelems, i, n);
                    assertTrue(size >= nelems / n && size <= nelems / n + 1, nelems + " over " + n + ": slice " + i);
                }
            }
        }
    }

    private static MemorySegment seg16(short v) {
        return MemorySegment.ofArray(new short[] {v});
    }
}
