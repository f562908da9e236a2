package org.jshmem.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import org.jshmem.gpu.shim.ShimPlatform;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The host side of strided puts and gets on GPU heaps: {@link Staging#copyStrided} packs and
 * unpacks elements with the shim's native loop (no GPU needed), checked element by element
 * against a Java copy, for every element size the typed paths cover and others, from Java
 * arrays and native memory, at odd offsets.
 */
class StagingTest {
    @BeforeAll
    static void cudaShim() {
        ShimPlatform.choose("cuda");   // the CUDA shim loads without a GPU; this test makes no GPU call
    }

    @Test
    void packsAndUnpacksLikeAJavaLoop() {
        Random random = new Random(7);
        try (Arena arena = Arena.ofConfined()) {
            for (long elem : new long[] {1, 2, 3, 4, 8, 16, 24}) {
                for (long pitch : new long[] {elem, elem + 1, 2 * elem, 5 * elem + 3}) {
                    long n = 1000;
                    long at = 5;
                    byte[] source = new byte[(int) (at + (n - 1) * pitch + elem + 7)];
                    random.nextBytes(source);
                    for (MemorySegment src : new MemorySegment[] {MemorySegment.ofArray(source),
                            arena.allocate(source.length).copyFrom(MemorySegment.ofArray(source))}) {
                        MemorySegment packed = arena.allocate(n * elem + 3);
                        Staging.copyStrided(src, at, pitch, packed, 3, elem, elem, n);
                        byte[] expected = new byte[(int) (n * elem)];
                        for (int i = 0; i < n; i++) {
                            System.arraycopy(source, (int) (at + i * pitch), expected, (int) (i * elem), (int) elem);
                        }
                        assertArrayEquals(expected, packed.asSlice(3, n * elem).toArray(ValueLayout.JAVA_BYTE),
                                "pack elem " + elem + " pitch " + pitch + " from " + (src.isNative() ? "native" : "array"));

                        byte[] unpacked = new byte[source.length];
                        Staging.copyStrided(packed, 3, elem, MemorySegment.ofArray(unpacked), at, pitch, elem, n);
                        byte[] expectedBack = new byte[source.length];
                        for (int i = 0; i < n; i++) {
                            System.arraycopy(source, (int) (at + i * pitch), expectedBack, (int) (at + i * pitch),
                                    (int) elem);
                        }
                        assertArrayEquals(expectedBack, unpacked, "unpack elem " + elem + " pitch " + pitch);
                    }
                }
            }
        }
    }

    @Test
    void largeCopiesSplitAcrossThreadsStayExact() {
        for (long[] c : new long[][] {{8, 24, 200_000}, {4, 4, 300_000}, {1 << 20, (1 << 20) + 8, 3}, {3, 7, 1_000_001}}) {
            long elem = c[0], pitch = c[1], n = c[2];
            byte[] source = new byte[Math.toIntExact((n - 1) * pitch + elem)];
            new Random(n).nextBytes(source);
            byte[] packed = new byte[Math.toIntExact(n * elem)];
            Staging.copyStrided(MemorySegment.ofArray(source), 0, pitch, MemorySegment.ofArray(packed), 0, elem, elem, n);
            for (long i = 0; i < n; i += Math.max(1, n / 1000)) {
                for (int e = 0; e < elem; e += Math.max(1, (int) elem / 8)) {
                    if (packed[(int) (i * elem + e)] != source[(int) (i * pitch + e)]) {
                        throw new AssertionError("elem " + elem + " pitch " + pitch + ": element " + i + " byte " + e);
                    }
                }
            }
            assertArrayEquals(java.util.Arrays.copyOfRange(source, Math.toIntExact((n - 1) * pitch),
                    Math.toIntExact((n - 1) * pitch + elem)), java.util.Arrays.copyOfRange(packed,
                    Math.toIntExact((n - 1) * elem), Math.toIntExact(n * elem)), "last element, elem " + elem);
        }
    }

    @Test
    void refusesARangeBeyondTheSegment() {
        MemorySegment src = MemorySegment.ofArray(new byte[100]);
        MemorySegment dst = MemorySegment.ofArray(new byte[100]);
        assertThrows(IndexOutOfBoundsException.class, () -> Staging.copyStrided(src, 0, 12, dst, 0, 8, 8, 9));
        assertThrows(IndexOutOfBoundsException.class, () -> Staging.copyStrided(src, 0, 8, dst, 0, 12, 8, 9));
    }
}
