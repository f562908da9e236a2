package org.jshmem.gemm;

import static org.jshmem.gemm.GemmCollective.ALL_GATHER_GEMM;
import static org.jshmem.gemm.GemmCollective.ALL_REDUCE;
import static org.jshmem.gemm.GemmCollective.ALL_SCATTER;
import static org.jshmem.gemm.GemmCollective.GEMM_REDUCE_SCATTER;
import static org.jshmem.gemm.GemmPath.FUSED;
import static org.jshmem.gemm.GemmPath.REFERENCE;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The automatic path on the sizes it was measured at (2 PEs; GFLOP per PE = 2mnk / 2). */
class GpuPlatformTest {
    private static double perPe(long m, long n, long k) {
        return 2.0 * m * n * k / 2;
    }

    @Test
    void withAGpuPerPeEveryCollectiveIsFusedFromWhereItWon() {
        for (GemmCollective c : new GemmCollective[] {ALL_REDUCE, ALL_GATHER_GEMM, GEMM_REDUCE_SCATTER}) {
            assertEquals(REFERENCE, autoOwn(c, perPe(2048, 2048, 2048)), c + " 2048^3: the reference wins");
            assertEquals(REFERENCE, autoOwn(c, perPe(2048, 2048, 4096)), c + " 2048x2048x4096: the reference wins");
            assertEquals(FUSED, autoOwn(c, perPe(3072, 3072, 3072)), c + " 3072^3: fused wins");
            assertEquals(FUSED, autoOwn(c, perPe(8192, 8192, 8192)), c + " 8192^3");
        }
        assertEquals(FUSED, autoOwn(ALL_SCATTER, perPe(512, 512, 512)), "the all-scatter won at every size");
    }

    @Test
    void withPesSharingAGpuOnlyTheAllScatterIsFused() {
        assertEquals(FUSED, autoShared(ALL_SCATTER, perPe(1024, 1024, 1024)), "1024^3: fused wins");
        assertEquals(FUSED, autoShared(ALL_SCATTER, perPe(8192, 8192, 8192)), "8192^3: fused wins");
        for (GemmCollective c : new GemmCollective[] {ALL_REDUCE, ALL_GATHER_GEMM, GEMM_REDUCE_SCATTER}) {
            assertEquals(REFERENCE, autoShared(c, perPe(4096, 4096, 4096)), c + " 4096^3: the reference wins");
            assertEquals(REFERENCE, autoShared(c, perPe(8192, 8192, 8192)), c.name());
        }
    }

    @Test
    void thePortableKernelNeverBeatsTheReference() {
        for (GemmCollective c : new GemmCollective[] {ALL_SCATTER, ALL_REDUCE, ALL_GATHER_GEMM, GEMM_REDUCE_SCATTER}) {
            GemmPath path = GpuPlatform.autoPath(c, GemmKernel.PORTABLE, perPe(8192, 8192, 8192), false);
            assertEquals(REFERENCE, path, c.name());
        }
    }

    @Test
    void theAllScatterTakesTheCopyEnginesOnlyWithAGpuPerPeOnePeerAndALargeGemmOfSeveralChunks() {
        assertEquals(ScatterTransport.STORES, GpuPlatform.autoScatter(false, perPe(3072, 3072, 3072), 2, 3),
                "3072^3: the kernel's stores win");
        assertEquals(ScatterTransport.COPY_ENGINE, GpuPlatform.autoScatter(false, perPe(4096, 4096, 4096), 2, 4),
                "4096^3: the copy engines win");
        assertEquals(ScatterTransport.COPY_ENGINE, GpuPlatform.autoScatter(false, perPe(4096, 8192, 8192), 2, 4),
                "4096x8192x8192: the copy engines win");
        assertEquals(ScatterTransport.COPY_ENGINE, GpuPlatform.autoScatter(false, perPe(8192, 8192, 8192), 2, 8));
        assertEquals(ScatterTransport.STORES, GpuPlatform.autoScatter(false, perPe(1024, 8192, 8192), 2, 1),
                "one chunk (8 tile rows of 128): the kernel sends the last chunk itself, the copy engines get none");
        assertEquals(ScatterTransport.STORES, GpuPlatform.autoScatter(true, perPe(8192, 8192, 8192), 2, 8),
                "PEs sharing a GPU: a copy between them may wait for SMs that the GEMM holds");
        for (int pes : new int[] {3, 4, 8}) {
            assertEquals(ScatterTransport.STORES, GpuPlatform.autoScatter(false, 2.0 * 8192 * 8192 * 8192 / pes, pes, 8),
                    pes + " PEs: the kernel's stores win at 8192^3");
        }
    }

    private static GemmPath autoOwn(GemmCollective c, double flopsPerPe) {
        return GpuPlatform.autoPath(c, GemmKernel.HOPPER, flopsPerPe, false);
    }

    private static GemmPath autoShared(GemmCollective c, double flopsPerPe) {
        return GpuPlatform.autoPath(c, GemmKernel.HOPPER, flopsPerPe, true);
    }
}
