package org.jshmem.gemm;

/**
 * What a finished tile's epilogue does; the ordinals are the kernels' {@code JGEMM_LOCAL ...
 * JGEMM_ALL_REDUCE_TWO} codes (jgemm.h).
 */
enum Epilogue {
    LOCAL, ALL_SCATTER, ALL_REDUCE_ONE_SHOT, ALL_REDUCE_TWO_SHOT;

    static Epilogue of(GemmCollective c, AllReduceAlgorithm a) {
        return switch (c) {
            case NONE -> LOCAL;
            case ALL_SCATTER -> ALL_SCATTER;
            case ALL_REDUCE -> a == AllReduceAlgorithm.ONE_SHOT ? ALL_REDUCE_ONE_SHOT : ALL_REDUCE_TWO_SHOT;
        };
    }
}
