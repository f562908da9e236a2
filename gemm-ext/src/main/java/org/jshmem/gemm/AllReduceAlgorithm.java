package org.jshmem.gemm;

/** How the fused all-reduce sums the PEs' partial tiles. */
public enum AllReduceAlgorithm {
    /** One-shot below {@link GemmOptions#oneShotMaxBytes()} of C, two-shot above. */
    AUTO,
    /**
     * Every PE pushes each finished partial tile to every PE, and every PE sums all of them: one step
     * of latency, (P-1) x C bytes sent per PE. Staging: 2 x P x C.
     */
    ONE_SHOT,
    /**
     * Each tile has a home PE ({@code tile mod P}); PEs push their partial there, the home sums and
     * pushes the result to every PE: two steps, about 2 (P-1)/P x C bytes per PE. Staging: about C.
     */
    TWO_SHOT
}
