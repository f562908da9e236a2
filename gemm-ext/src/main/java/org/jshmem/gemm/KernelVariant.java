package org.jshmem.gemm;

import java.util.ArrayList;
import java.util.List;
import org.jshmem.DType;

/**
 * One compiled form of a GEMM kernel tier: its source, entry point, tile (each CTA's), pipeline
 * depth, threads, CTAs per thread block cluster (Hopper: 2 shares B between a pair of tile rows)
 * and the dynamic shared memory it needs (the kernels' {@code JGEMM_*_SMEM_BYTES} formulas).
 */
record KernelVariant(GemmKernel kernel, TileShape tile, int stages, int threads, int cluster) {

    KernelVariant {
        if (cluster < 1 || cluster > GemmOptions.MAX_CLUSTER || (cluster > 1 && kernel != GemmKernel.HOPPER)) {
            throw new IllegalArgumentException("a " + kernel + " kernel with clusters of " + cluster + " CTAs: only the"
                    + " Hopper kernel has clusters, of 1 or " + GemmOptions.MAX_CLUSTER);
        }
    }

    /** The same kernel built for clusters of {@code c} CTAs. */
    KernelVariant withCluster(int c) {
        return new KernelVariant(kernel, tile, stages, threads, c);
    }

    /** The source file in the gemm-ext jar. */
    String source() {
        return kernel == GemmKernel.HOPPER ? "jgemm_sm90.cu" : "jgemm_portable.cu";
    }

    /** The kernel's {@code extern "C"} name. */
    String entry() {
        return kernel == GemmKernel.HOPPER ? "jgemm_sm90" : "jgemm_portable";
    }

    /**
     * Dynamic shared memory bytes per work-group: the portable kernel's JGEMM_PORTABLE_SMEM_BYTES, the
     * larger of its pipeline and its epilogue tiles (fp32 tile of BN + 4 floats a row, output tile of
     * BN + 8 elements a row), which share the bytes; the Hopper kernel's JGEMM_SM90_SMEM_BYTES, which
     * keeps its pipeline and output tile apart (its producer loads the next unit while the consumers
     * finish this one) and has no fp32 tile (it fixes up in registers).
     */
    int sharedBytes() {
        long bm = tile.m(), bn = tile.n(), bk = tile.k();
        long pipeline = stages * (bm * bk + bk * bn) * 2;
        long outputTile = bm * (bn + 8) * 2;
        long epilogue = bm * (bn + 4) * 4 + outputTile;
        if (kernel == GemmKernel.HOPPER) {   // JGEMM_SM90_SMEM_BYTES: ring, output tile, mbarriers, 1024-byte alignment
            return Math.toIntExact(pipeline + outputTile + 2L * stages * Long.BYTES + 1024);
        }
        return Math.toIntExact(Math.max(pipeline, epilogue));
    }

    /** Compiler options: the tile, pipeline, threads and element type as the source's macros. */
    List<String> options(DType type) {
        List<String> o = new ArrayList<>(List.of("-DJGEMM_BM=" + tile.m(), "-DJGEMM_BN=" + tile.n(),
                "-DJGEMM_BK=" + tile.k(), "-DJGEMM_STAGES=" + stages, "-DJGEMM_THREADS=" + threads,
                "-DJGEMM_DTYPE=" + (type == DType.BF16 ? 1 : 0)));
        if (kernel == GemmKernel.HOPPER) {
            o.add("--gpu-architecture=sm_90a");
        }
        if (cluster > 1) {
            o.add("-DJGEMM_CLUSTER=" + cluster);
        }
        return o;
    }

    @Override
    public String toString() {
        return kernel.name().toLowerCase(java.util.Locale.ROOT) + " " + tile + " x" + stages + " stages, " + threads
                + " threads" + (cluster > 1 ? ", clusters of " + cluster + " (B multicast)" : "");
    }
}
