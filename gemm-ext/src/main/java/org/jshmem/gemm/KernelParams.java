package org.jshmem.gemm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;

/**
 * The kernels' launch parameter block, {@code jgemm_params} of jgemm.h, field for field (a test
 * compares the two lists). Filled once per plan; each call sets the matrices and the generation.
 */
final class KernelParams {
    static final StructLayout LAYOUT = MemoryLayout.structLayout(
            ADDRESS.withName("a"), ADDRESS.withName("b"), ADDRESS.withName("c"), ADDRESS.withName("workspace"),
            ADDRESS.withName("sk_flags"), ADDRESS.withName("staging"), ADDRESS.withName("arrive"), ADDRESS.withName("a_ready"),
            ADDRESS.withName("a_local"), ADDRESS.withName("row_order"),
            JAVA_LONG.withName("lda"), JAVA_LONG.withName("ldb"), JAVA_LONG.withName("ldc"),
            JAVA_LONG.withName("generation"),
            JAVA_INT.withName("m"), JAVA_INT.withName("n"), JAVA_INT.withName("k"),
            JAVA_INT.withName("tiles_m"), JAVA_INT.withName("tiles_n"), JAVA_INT.withName("iters_per_tile"),
            JAVA_INT.withName("group_m"),
            JAVA_INT.withName("sk_tiles"), JAVA_INT.withName("sk_wgs"), JAVA_INT.withName("sk_iters_per_wg"),
            JAVA_INT.withName("sk_extra"),
            JAVA_INT.withName("grid"), JAVA_INT.withName("epilogue"), JAVA_INT.withName("col_offset"),
            JAVA_INT.withName("arrive_base"), JAVA_INT.withName("arrive_count"), JAVA_INT.withName("n_pes"),
            JAVA_INT.withName("my_pe"), JAVA_INT.withName("home_slots"), JAVA_INT.withName("scatter_rows"));

    private final MemorySegment block;

    KernelParams(Arena arena) {
        block = arena.allocate(LAYOUT);
    }

    MemorySegment segment() {
        return block;
    }

    /** Sets a field by its C name: pointers and 8-byte fields take the long, 4-byte fields its int value. */
    KernelParams set(String field, long value) {
        MemoryLayout.PathElement path = MemoryLayout.PathElement.groupElement(field);
        long at = LAYOUT.byteOffset(path);
        if (LAYOUT.select(path).byteSize() == Long.BYTES) {
            block.set(JAVA_LONG, at, value);
        } else {
            block.set(JAVA_INT, at, Math.toIntExact(value));
        }
        return this;
    }

    /** Fills the schedule, shape and epilogue fields. */
    KernelParams schedule(StreamKSchedule s, Epilogue e, long lda, long ldb, long ldc) {
        GemmShape sh = s.shape();
        return set("lda", lda).set("ldb", ldb).set("ldc", ldc).set("m", sh.m()).set("n", sh.n()).set("k", sh.k())
                .set("tiles_m", s.tilesM()).set("tiles_n", s.tilesN()).set("iters_per_tile", s.itersPerTile())
                .set("group_m", s.groupM()).set("sk_tiles", s.skTiles()).set("sk_wgs", s.skWorkGroups())
                .set("sk_iters_per_wg", s.skItersPerWg()).set("sk_extra", s.skExtra()).set("grid", s.grid())
                .set("epilogue", e.ordinal());
    }
}
