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
     * A reduce-scatter, then an all-gather, tile by tile: each PE owns a block of C's rows (m split
     * over the PEs); PEs push their partial tiles to the owners of the tiles' rows, and an owner
     * sums its rows and pushes the sum to every PE. Two steps, about 2 (P-1)/P x C bytes per PE.
     * Each PE takes the tile rows it owns last ({@link TileRowOrder}), so their partials are
     * mostly in when it finishes its own and nothing waits for a peer inside the GEMM; an owner
     * whose partials are not all in parks its own and sums after its last tile. Staging: about C.
     */
    TWO_SHOT
}
