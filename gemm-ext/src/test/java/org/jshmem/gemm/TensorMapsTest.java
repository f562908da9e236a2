package org.jshmem.gemm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * When the host passes the Hopper kernel a tensor map of C: the host's side of the kernel's
 * jgemm_sm90_tma_store (the GEMM alone and the all-scatter's own copy, from this PE's first column of C,
 * with 16-byte aligned rows). Where it says no the kernel gets A's map in that place and must not store by
 * TMA; the kernel's own test is the same condition plus its build switches.
 */
class TensorMapsTest {
    @ParameterizedTest(name = "{0} at 0x{1} + {2} bytes, ldc {3}: {4}")
    @CsvSource({
        "LOCAL,               1000, 0,    4096, true",
        "LOCAL,               1000, 0,    1001, false",   // rows of 2002 bytes
        "LOCAL,               1008, 0,    4096, false",   // C 8 bytes off a 16-byte boundary
        "ALL_SCATTER,         1000, 4096, 4096, true",    // column block from 2048: 4096 bytes in
        "ALL_SCATTER,         1000, 2056, 4112, false",   // column block from 1028: 2056 bytes in
        "ALL_SCATTER,         1000, 0,    4100, false",
        "ALL_REDUCE_ONE_SHOT, 1000, 0,    4096, false",   // the fused sums store through bulk copies
        "ALL_REDUCE_TWO_SHOT, 1000, 0,    4096, false",
        "REDUCE_SCATTER,      1000, 0,    4096, false"})
    void cIsStoredByTmaWhereTheKernelExpectsItsMap(Epilogue epilogue, String baseHex, long columnBytes, long ldc,
                                                    boolean expected) {
        long firstColumn = Long.parseLong(baseHex, 16) + columnBytes;
        assertEquals(expected, TensorMaps.storesByTma(epilogue, firstColumn, ldc));
    }
}
