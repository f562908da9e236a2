package org.jshmem.gemm;

/**
 * What a finished tile's epilogue does; the ordinals are the kernels' {@code JGEMM_LOCAL ...
 * JGEMM_REDUCE_SCATTER} codes (jgemm.h).
 */
enum Epilogue {
    LOCAL, ALL_SCATTER, ALL_REDUCE_ONE_SHOT, ALL_REDUCE_TWO_SHOT, REDUCE_SCATTER;

    /** Whether PEs own row blocks of C and sum the partials of their rows (jgemm_sum_own_rows). */
    boolean ownsRows() {
        return this == REDUCE_SCATTER || this == ALL_REDUCE_TWO_SHOT;
    }

    static Epilogue of(GemmCollective c, AllReduceAlgorithm a) {
        return switch (c) {
            case NONE, ALL_GATHER_GEMM -> LOCAL;
            case GEMM_REDUCE_SCATTER -> REDUCE_SCATTER;
            case ALL_SCATTER -> ALL_SCATTER;
            case ALL_REDUCE -> a == AllReduceAlgorithm.ONE_SHOT ? ALL_REDUCE_ONE_SHOT : ALL_REDUCE_TWO_SHOT;
        };
    }
}
