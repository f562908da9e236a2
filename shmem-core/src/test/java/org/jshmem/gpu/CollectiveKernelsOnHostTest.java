package org.jshmem.gpu;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.jshmem.DType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The device library's collective loops ({@code jshmem_coll.h}), run on the host by
 * {@code src/test/native/coll_host_sim.cpp} (the header compiled by the machine's C++ compiler
 * with a few stand-ins for CUDA): every reduction type and operation, one-shot and two-shot, in
 * place, at every alignment of dest and source, on teams of 1 to 4 PEs (strided too), with thread
 * counts from 1 to 1536; fcollect, alltoall, broadcast (in place too) and collect; all against a
 * reference written independently. The 16-bit float conversions are checked against Java's own
 * ({@link Float#float16ToFloat}, {@link Float#floatToFloat16}, {@link DType#floatToBf16},
 * {@link DType#bf16ToFloat}) on every half and bfloat16, the midpoints between neighbours (ties)
 * and their neighbours, the overflow and underflow edges, NaNs and random floats: the GPU results
 * must be bit for bit the host collectives'.
 */
class CollectiveKernelsOnHostTest {
    private static final Path ROOT = Path.of(System.getProperty("jshmem.home", "../"));

    @Test
    void collectiveLoopsAndConversionsMatchTheReference(@TempDir Path dir) throws IOException, InterruptedException {
        Path vectors = dir.resolve("vectors.txt");
        writeVectors(vectors);
        Path exe = dir.resolve("coll_host_sim");
        run(dir, 300, "c++", "-std=c++17", "-O1", "-Wall", "-Wextra", "-Wno-unknown-pragmas", "-Werror",
                "-I" + ROOT.resolve("shmem-device/include").toAbsolutePath(),
                ROOT.resolve("shmem-core/src/test/native/coll_host_sim.cpp").toAbsolutePath().toString(), "-o",
                exe.toString());
        String out = run(dir, 300, exe.toString(), vectors.toString());
        System.out.println("[coll host sim] " + out.strip().replace('\n', ' '));
        assertTrue(out.strip().endsWith("ok"), out);
    }

    /** Lines "h2f half float", "f2h float half", "f2b float bf16", "b2f bf16 float" (hex bits), from Java. */
    static void writeVectors(Path file) throws IOException {
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.US_ASCII))) {
            for (int h = 0; h < 0x10000; h++) {
                w.printf("h2f %x %x%n", h, Float.floatToRawIntBits(Float.float16ToFloat((short) h)));
                w.printf("b2f %x %x%n", h, Float.floatToRawIntBits(DType.bf16ToFloat((short) h)));
            }
            for (int h = 0; h < 0x10000; h++) {
                float f = Float.float16ToFloat((short) h);
                float next = Float.float16ToFloat((short) (h + 1));
                toHalf(w, Float.floatToRawIntBits(f));
                if (!Float.isNaN(f) && !Float.isNaN(next) && (h & 0x7fff) != 0x7bff && (h & 0x7fff) != 0x7fff) {
                    int mid = Float.floatToRawIntBits((float) (((double) f + next) / 2));   // exact: a tie
                    toHalf(w, mid);
                    toHalf(w, mid + 1);
                    toHalf(w, mid - 1);
                }
                int b = Float.floatToRawIntBits(DType.bf16ToFloat((short) h));
                toBf16(w, b);
                toBf16(w, b + 0x8000);       // a tie between b and its neighbour
                toBf16(w, b + 0x8001);
                toBf16(w, b + 0x7fff);
            }
            for (float f : new float[] {65504f, 65519.996f, 65520f, 65536f, 1e30f, Float.MAX_VALUE, Float.MIN_VALUE,
                                        0x1.0p-24f, 0x1.0p-25f, Math.nextUp(0x1.0p-25f), Math.nextDown(0x1.0p-25f),
                                        0x1.8p-25f, 0x1.0p-14f, Math.nextDown(0x1.0p-14f), Float.POSITIVE_INFINITY,
                                        Float.NEGATIVE_INFINITY, 0f, -0f}) {
                toHalf(w, Float.floatToRawIntBits(f));
                toHalf(w, Float.floatToRawIntBits(-f));
                toBf16(w, Float.floatToRawIntBits(f));
            }
            for (int nan : new int[] {0x7fc00000, 0xffc00000, 0x7f800001, 0x7fa00000, 0xff812345, 0x7fffffff}) {
                toHalf(w, nan);
                toBf16(w, nan);
            }
            Random r = new Random(42);
            for (int i = 0; i < 200_000; i++) {
                int bits = r.nextInt();
                toHalf(w, bits);
                toBf16(w, bits);
            }
        }
    }

    private static void toHalf(PrintWriter w, int floatBits) {
        w.printf("f2h %x %x%n", floatBits, Float.floatToFloat16(Float.intBitsToFloat(floatBits)) & 0xffff);
    }

    private static void toBf16(PrintWriter w, int floatBits) {
        w.printf("f2b %x %x%n", floatBits, DType.floatToBf16(Float.intBitsToFloat(floatBits)) & 0xffff);
    }

    private static String run(Path dir, int seconds, String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", cmd) + " did not finish in " + seconds + " s");
        }
        String text = new String(out, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new AssertionError(String.join(" ", cmd) + " failed (exit " + p.exitValue() + "):\n" + text);
        }
        return text;
    }
}
