package org.jshmem.gemm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.jshmem.DType;
import org.junit.jupiter.api.Test;

/** Kernel variants with clusters, and the option that asks for them. */
class KernelVariantTest {
    private static final KernelVariant HOPPER = new KernelVariant(GemmKernel.HOPPER, new TileShape(128, 256, 64), 3, 384, 1);

    @Test
    void aClusterVariantIsCompiledForItAndKeepsItsSharedMemory() {
        KernelVariant pair = HOPPER.withCluster(2);
        assertTrue(pair.options(DType.BF16).contains("-DJGEMM_CLUSTER=2"), pair.options(DType.BF16)::toString);
        assertFalse(HOPPER.options(DType.BF16).stream().anyMatch(o -> o.startsWith("-DJGEMM_CLUSTER")));
        assertEquals(HOPPER.sharedBytes(), pair.sharedBytes());   // each CTA still holds its whole ring
        assertTrue(pair.toString().endsWith("clusters of 2 (B multicast)"), pair::toString);
    }

    @Test
    void onlyTheHopperKernelHasClustersOfOneOrTwo() {
        IllegalArgumentException portable = assertThrows(IllegalArgumentException.class, () -> new KernelVariant(
                GemmKernel.PORTABLE, new TileShape(128, 128, 64), 3, 256, 2));
        assertTrue(portable.getMessage().contains("only the Hopper kernel has clusters"), portable::getMessage);
        assertThrows(IllegalArgumentException.class, () -> HOPPER.withCluster(4));
        assertThrows(IllegalArgumentException.class, () -> HOPPER.withCluster(0));
    }

    @Test
    void theClusterOptionComesFromTheEnvironmentAndIsChecked() {
        assertEquals(0, GemmOptions.DEFAULTS.cluster());
        assertEquals(2, GemmOptions.fromMap(Map.of("JSHMEM_GEMM_CLUSTER", "2")).cluster());
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> GemmOptions.fromMap(Map.of("JSHMEM_GEMM_CLUSTER", "3")));
        assertEquals("cluster 3 must be 0 (automatic), 1 or 2", bad.getMessage());
        IllegalArgumentException text = assertThrows(IllegalArgumentException.class,
                () -> GemmOptions.fromMap(Map.of("JSHMEM_GEMM_CLUSTER", "two")));
        assertTrue(text.getMessage().contains("JSHMEM_GEMM_CLUSTER=two is not an integer"), text::getMessage);
    }
}
