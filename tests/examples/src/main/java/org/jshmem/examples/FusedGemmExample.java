package org.jshmem.examples;

import org.jshmem.DType;
import org.jshmem.Shmem;
import org.jshmem.SymmetricSegment;
import org.jshmem.device.DeviceInfo;
import org.jshmem.gemm.FusedGemm;
import org.jshmem.gemm.GemmCollective;
import org.jshmem.gemm.GemmOptions;
import org.jshmem.gemm.GemmPath;
import org.jshmem.gemm.GemmShape;
import org.jshmem.gemm.ShardLayout;
import org.jshmem.gemm.TestMatrices;

/**
 * A GEMM fused with an all-scatter, from Java: C = A x B with B's columns sharded over the PEs and
 * the whole C on every PE.
 *
 * <p>Each PE holds all of A (m x k) and its own columns of B (k x n_p, from column
 * {@code shardOffset()}); {@link FusedGemm#run} computes this PE's columns of C and writes every
 * finished tile into every PE's C, so on return each PE has the whole product. The example checks C
 * against the product computed in double here (256 rows of it for large shapes), and on a CUDA heap
 * also against the reference path (cuBLAS, then jshmem's collective) run on the same inputs.
 *
 * <p>On a host heap the CPU executor runs the same schedule and flag protocol as the GPU kernels, so
 * this runs anywhere; on a GPU heap the fused kernel runs. Arguments: m n k (default 192 160 128).
 * <pre>bin/jshmemrun -np 2 -cp tests/examples/target/jshmem-examples-0.1.0-SNAPSHOT.jar org.jshmem.examples.FusedGemmExample
 * JSHMEM_BACKEND=cuda bin/jshmemrun -np 2 -cp ... org.jshmem.examples.FusedGemmExample 4096 4096 4096</pre>
 */
public final class FusedGemmExample {
    private static final DType TYPE = DType.BF16;   // or FP16; accumulation is in fp32 either way

    public static void main(String[] args) {
        GemmShape shape = args.length == 3
                ? new GemmShape(Integer.parseInt(args[0]), Integer.parseInt(args[1]), Integer.parseInt(args[2]))
                : new GemmShape(192, 160, 128);
        boolean ok;
        try (Shmem shmem = Shmem.init()) {
            int me = shmem.myPe();
            int n = shmem.nPes();
            boolean cuda = DeviceInfo.find(shmem).map(d -> "cuda".equals(d.platform())).orElse(false);

            // The fused path, asked for by name (auto may pick the reference path on some GPUs); the
            // other options from JSHMEM_GEMM_* (GemmOptions documents them).
            GemmOptions fusedPath = GemmOptions.fromEnvironment().withPath(GemmPath.FUSED);
            short[] c;
            String what;
            try (FusedGemm gemm = FusedGemm.create(shmem, GemmCollective.ALL_SCATTER, shape, TYPE, fusedPath)) {
                what = gemm.describe();
                c = multiply(shmem, gemm);
            }
            double err = errorAgainstDouble(c, shape);
            double bound = TestMatrices.errorBound(TYPE);   // a few units of rounding of the output type
            ok = err <= bound;
            String line = String.format("PE %d of %d: C = A x B, %s %s, all-scatter: relative error %.2e against"
                    + " double (bound %.2e): %s", me, n, shape, TYPE, err, bound, ok ? "OK" : "WRONG");

            if (cuda) {   // the reference path: cuBLAS on this PE's columns, then jshmem's collective
                try (FusedGemm reference = FusedGemm.create(shmem, GemmCollective.ALL_SCATTER, shape, TYPE,
                        fusedPath.withPath(GemmPath.REFERENCE))) {
                    double diff = errorAgainst(c, multiply(shmem, reference));
                    ok &= diff <= bound;
                    line += String.format("; against the reference path %.2e: %s", diff, diff <= bound ? "OK" : "WRONG");
                }
            }
            System.out.print(line + System.lineSeparator());   // one whole line per PE
            System.out.flush();
            shmem.barrierAll();
            if (me == 0) {
                System.out.print(String.format("fused gemm: %s%n", what));
            }
        }
        if (!ok) {
            System.exit(1);
        }
    }

    /** Fills this PE's A and B, runs the GEMM once and returns this PE's C (m x n). */
    private static short[] multiply(Shmem shmem, FusedGemm gemm) {
        int me = shmem.myPe();
        ShardLayout layout = gemm.layout();
        GemmShape g = layout.global();
        // Symmetric allocations: the sizes FusedGemm asks for (the largest PE's, the same everywhere).
        SymmetricSegment a = shmem.malloc(gemm.aBytes());
        SymmetricSegment b = shmem.malloc(gemm.bBytes());
        SymmetricSegment c = shmem.malloc(gemm.cBytes());
        try {
            short[] hostA = new short[g.m() * g.k()];   // all of A, row-major
            for (int i = 0; i < g.m(); i++) {
                for (int kk = 0; kk < g.k(); kk++) {
                    hostA[i * g.k() + kk] = toElement(a(i, kk));
                }
            }
            // this PE's columns of B: k x np, columns off .. off + np - 1 of the whole B
            int off = gemm.shardOffset();
            int np = layout.bWindow(me).cols();
            short[] hostB = new short[g.k() * np];
            for (int kk = 0; kk < g.k(); kk++) {
                for (int j = 0; j < np; j++) {
                    hostB[kk * np + j] = toElement(b(kk, off + j));
                }
            }
            shmem.put(a, 0, hostA, 0, hostA.length, me);   // host arrays to this PE's heap (host or GPU)
            shmem.put(b, 0, hostB, 0, hostB.length, me);
            shmem.quiet();

            gemm.run(a, b, c);    // collective: returns when this PE's C holds every PE's tiles
            shmem.barrierAll();   // no PE reads its C while another could still be in run() writing to it

            short[] hostC = new short[g.m() * g.n()];
            shmem.get(hostC, 0, hostC.length, c, 0, me);
            return hostC;
        } finally {
            shmem.free(c);
            shmem.free(b);
            shmem.free(a);
        }
    }

    // The inputs: multiples of 1/4 in [-1, 1], exact in bf16 and fp16, so the only rounding is the output's.
    private static float a(int i, int kk) {
        return ((i * 7 + kk * 3) % 9 - 4) / 4f;
    }

    private static float b(int kk, int j) {
        return ((kk * 5 + j * 11) % 7 - 3) / 4f;
    }

    private static short toElement(float v) {
        return TYPE == DType.BF16 ? DType.floatToBf16(v) : Float.floatToFloat16(v);
    }

    private static double fromElement(short bits) {
        return TYPE == DType.BF16 ? DType.bf16ToFloat(bits) : Float.float16ToFloat(bits);
    }

    /**
     * ||C - A x B|| / ||A x B|| (Frobenius norms) with the product computed in double, over every row
     * of C up to 256 rows, else over 256 rows spread over it (a large GEMM would take minutes here).
     */
    private static double errorAgainstDouble(short[] c, GemmShape g) {
        int step = (g.m() + 255) / 256;
        double d2 = 0, r2 = 0;
        double[] row = new double[g.n()];
        for (int i = 0; i < g.m(); i += step) {
            java.util.Arrays.fill(row, 0);
            for (int kk = 0; kk < g.k(); kk++) {
                double x = a(i, kk);
                for (int j = 0; j < g.n(); j++) {
                    row[j] += x * b(kk, j);
                }
            }
            for (int j = 0; j < g.n(); j++) {
                double d = fromElement(c[i * g.n() + j]) - row[j];
                d2 += d * d;
                r2 += row[j] * row[j];
            }
        }
        return Math.sqrt(d2 / r2);   // NaN if C holds a NaN
    }

    /** ||C - R|| / ||R|| for two results of the same GEMM. */
    private static double errorAgainst(short[] c, short[] r) {
        double d2 = 0, r2 = 0;
        for (int i = 0; i < c.length; i++) {
            double ref = fromElement(r[i]);
            double d = fromElement(c[i]) - ref;
            d2 += d * d;
            r2 += ref * ref;
        }
        return Math.sqrt(d2 / r2);
    }
}
