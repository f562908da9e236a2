package org.jshmem.gemm;

import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.Shmem;
import org.jshmem.ShmemStream;
import org.jshmem.SymmetricSegment;

/**
 * The symmetric memory a fused GEMM needs besides A, B and C, sized from the schedules of every
 * PE (collective allocations must be the same size everywhere, so each size is the maximum over
 * the PEs, agreed with a reduction):
 * <ul>
 *   <li>{@code partials}: Stream-K partial tiles, one fp32 tile per work-group;</li>
 *   <li>{@code skFlags}: one stamp per work-group;</li>
 *   <li>{@code arrive}: all-scatter: one stamp per tile of every PE, or by the copy engines one stamp per
 *       PE (its copies arrived), a record {count, done, tiles} per chunk of tile rows
 *       ({@code jgemm_count_chunk}; tiles written here), then {@code copied} (the copy stream's chunks are
 *       in the peers);
 *       one-shot all-reduce and reduce-scatter: P per tile; two-shot all-reduce: 2 P per tile (partials,
 *       then sums);</li>
 *   <li>{@code staging}: partial tiles in the output type: one-shot all-reduce 2 x P x tiles;
 *       two-shot all-reduce P x {@code homeSlots} (the tiles holding one PE's row block),
 *       reduce-scatter twice that (two halves, by the call's parity: jgemm_staged);</li>
 *   <li>{@code gathered}, {@code aReady}: all-gather + GEMM: the whole A (m x k) and a stamp per row block;</li>
 *   <li>{@code rowOrder}: the schedule's tile rows in its order ({@link StreamKSchedule#rowOrder}), as ints;</li>
 *   <li>{@code pristine}: {@code arrive} as allocated (zeros and the chunk records' tile counts), then zeros as
 *       long as the longer of {@code skFlags} and {@code aReady}: what a call captured in a graph copies back
 *       over the stamps before it runs ({@link #resetOnStream}).</li>
 * </ul>
 * Stamps start at 0 (calloc) and calls stamp generations 2, 3, ...; nothing is reset between them. A call
 * captured in a graph stamps generation 1 at every replay, from reset stamps.
 */
record GemmWorkspace(Shmem shmem, SymmetricSegment partials, SymmetricSegment skFlags, SymmetricSegment arrive,
                     SymmetricSegment staging, SymmetricSegment gathered, SymmetricSegment aReady,
                     SymmetricSegment rowOrder, SymmetricSegment pristine, int arriveBase,
                     int arriveCount, int homeSlots, int scatterRows) implements AutoCloseable {

    /** Longs per chunk record {count, done, tiles} of the copy-engine all-scatter: jgemm.h's JGEMM_CHUNK_RECORD. */
    static final int CHUNK_RECORD = 3;

    /** All-scatter by the copy engines: byte offset in {@code arrive} of PE {@code pe}'s arrival stamp. */
    static long arrivedOffset(int pe) {
        return (long) pe * Long.BYTES;
    }

    /** All-scatter by the copy engines: byte offset in {@code arrive} of chunk {@code chunk}'s {@code done} stamp. */
    static long chunkDoneOffset(int nPes, int chunk) {
        return (nPes + (long) CHUNK_RECORD * chunk + 1) * Long.BYTES;
    }

    /** All-scatter by the copy engines: byte offset in {@code arrive} of the copy stream's {@code copied} stamp. */
    static long copiedOffset(int nPes, int chunks) {
        return (nPes + (long) CHUNK_RECORD * chunks) * Long.BYTES;
    }

    /** Bytes each part needs on this PE, before agreeing on the maximum. */
    record Sizes(long partials, long skFlags, long arrive, long staging, long gathered, long aReady, long rowOrder) {
        long[] all() {
            return new long[] {partials, skFlags, arrive, staging, gathered, aReady, rowOrder};
        }
    }

    static Sizes sizes(StreamKSchedule s, Epilogue e, ShardLayout layout, int nPes, GemmSizing sizing) {
        long tileElems = (long) s.tile().m() * s.tile().n();
        long partials = s.skTiles() == 0 ? 0 : (long) s.grid() * tileElems * Float.BYTES;
        long tiles = s.tiles();
        long arrive = switch (e) {
            case LOCAL -> 0;
            case ALL_SCATTER -> sizing.scatterRows() > 0
                    ? copiedOffset(nPes, chunks(s, sizing.scatterRows())) + Long.BYTES
                    : (long) sizing.totalTiles() * Long.BYTES;
            case ALL_REDUCE_ONE_SHOT, REDUCE_SCATTER -> nPes * tiles * Long.BYTES;
            case ALL_REDUCE_TWO_SHOT -> 2L * nPes * tiles * Long.BYTES;
        };
        long staging = switch (e) {
            case ALL_REDUCE_ONE_SHOT -> 2L * nPes * tiles * tileElems * 2;
            case ALL_REDUCE_TWO_SHOT -> (long) nPes * homeSlots(e, layout, s) * tileElems * 2;
            case REDUCE_SCATTER -> 2L * nPes * homeSlots(e, layout, s) * tileElems * 2;   // by the call's parity
            default -> 0;
        };
        boolean gather = layout.collective() == GemmCollective.ALL_GATHER_GEMM;
        GemmShape g = layout.global();
        long gathered = gather ? (long) g.m() * g.k() * 2 : 0;
        // a cluster's CTAs hand over their rows of a tile separately: a stamp each (its partials fill the tall tile)
        return new Sizes(partials, (long) s.grid() * sizing.cluster() * Long.BYTES, arrive, staging, gathered,
                gather ? (long) nPes * Long.BYTES : 0, (long) s.tilesM() * Integer.BYTES);
    }

    /** Epilogues whose PEs own rows: tile slots per source on a home PE, the most tiles (tile rows x tiles_n) over one PE's row block. */
    static int homeSlots(Epilogue e, ShardLayout layout, StreamKSchedule s) {
        if (!e.ownsRows()) {
            return 0;
        }
        int most = 0, bm = s.tile().m();
        for (int q = 0; q < layout.nPes(); q++) {
            int first = layout.rowBlockStart(q) / bm, last = (layout.rowBlockStart(q + 1) - 1) / bm;
            most = Math.max(most, last - first + 1);
        }
        return most * s.tilesN();
    }

    /**
     * The tile counts of every PE's schedule, for the all-scatter stamp layout; CTAs per work-group;
     * the all-scatter's tile rows per copy-engine chunk (0: none).
     */
    record GemmSizing(int totalTiles, int arriveBase, int cluster, int scatterRows) {
    }

    /** Chunks of {@code rows} tile rows over the schedule's tile rows. */
    static int chunks(StreamKSchedule s, int rows) {
        return (s.tilesM() + rows - 1) / rows;
    }

    /** Allocates (collective): every PE calls it with its own schedule. */
    static GemmWorkspace allocate(Shmem shmem, StreamKSchedule s, Epilogue e, ShardLayout layout, GemmSizing sizing) {
        Sizes mine = sizes(s, e, layout, shmem.nPes(), sizing);
        long[] agreed = agreeMax(shmem, mine.all());
        long needed = align(pristineBytes(agreed));
        for (long v : agreed) {
            needed += align(Math.max(v, 8));
        }
        if (needed > shmem.heapFree()) {
            throw new org.jshmem.HeapExhaustedException("FusedGemm: the workspace needs " + needed + " bytes of symmetric"
                    + " heap (partials " + agreed[0] + ", stamps " + (agreed[1] + agreed[2] + agreed[5]) + ", staging "
                    + agreed[3] + ", gathered A " + agreed[4] + "), " + shmem.heapFree() + " are free; raise JSHMEM_SYMMETRIC_SIZE (it is per PE) by at least "
                    + (needed - shmem.heapFree()) + " bytes", needed, shmem.heapFree());
        }
        SymmetricSegment partials = shmem.malloc(Math.max(agreed[0], 8));
        SymmetricSegment skFlags = shmem.calloc(Math.max(agreed[1], 8), 1);
        SymmetricSegment arrive = shmem.calloc(Math.max(agreed[2], 8), 1);
        SymmetricSegment staging = shmem.malloc(Math.max(agreed[3], 8));
        SymmetricSegment gathered = shmem.malloc(Math.max(agreed[4], 8));
        SymmetricSegment aReady = shmem.calloc(Math.max(agreed[5], 8), 1);
        SymmetricSegment rowOrder = shmem.malloc(Math.max(agreed[6], 8));
        SymmetricSegment pristine = shmem.calloc(pristineBytes(agreed), 1);
        int[] rows = s.rowOrder().stream().mapToInt(Integer::intValue).toArray();
        shmem.put(rowOrder, 0, rows, 0, rows.length, shmem.myPe());
        if (e == Epilogue.ALL_SCATTER && sizing.scatterRows() > 0) {   // each chunk record's tile count
            for (int c = 0; c < chunks(s, sizing.scatterRows()); c++) {
                int tileRows = Math.min(s.tilesM(), (c + 1) * sizing.scatterRows()) - c * sizing.scatterRows();
                long tilesAt = chunkDoneOffset(shmem.nPes(), c) + Long.BYTES;
                shmem.pLong(arrive, tilesAt, (long) tileRows * s.tilesN(), shmem.myPe());
                shmem.pLong(pristine, tilesAt, (long) tileRows * s.tilesN(), shmem.myPe());
            }
        }
        shmem.quiet();
        return new GemmWorkspace(shmem, partials, skFlags, arrive, staging, gathered, aReady, rowOrder, pristine,
                sizing.arriveBase(),
                sizing.totalTiles(), homeSlots(e, layout, s), e == Epilogue.ALL_SCATTER ? sizing.scatterRows() : 0);
    }

    /** Bytes the workspace will take (upper bound, this PE's view), for the heap check before anything is allocated. */
    static long estimate(StreamKSchedule s, Epilogue e, ShardLayout layout, int nPes, GemmSizing sizing) {
        long[] all = sizes(s, e, layout, nPes, sizing).all();
        long sum = 8 * 4096 + align(pristineBytes(all));
        for (long v : all) {
            sum += align(Math.max(v, 8));
        }
        return sum;
    }

    /** {@code pristine}'s bytes for the sizes of {@link Sizes#all}: arrive's, then the longer of skFlags' and aReady's. */
    private static long pristineBytes(long[] all) {
        return Math.max(all[2], 8) + Math.max(Math.max(all[1], 8), Math.max(all[5], 8));
    }

    private static long align(long v) {
        return (v + 255) & ~255L;
    }

    /** The element-wise maximum of {@code values} over all PEs (a long MAX reduction). */
    static long[] agreeMax(Shmem shmem, long... values) {
        long bytes = (long) values.length * Long.BYTES;
        SymmetricSegment src = shmem.malloc(bytes);
        SymmetricSegment dst = shmem.malloc(bytes);
        try {
            for (int i = 0; i < values.length; i++) {
                shmem.pLong(src, (long) i * Long.BYTES, values[i], shmem.myPe());
            }
            shmem.quiet();
            shmem.teamWorld().reduce(ReduceOp.MAX, DType.LONG, dst, src, values.length);
            long[] out = new long[values.length];
            for (int i = 0; i < values.length; i++) {
                out[i] = shmem.gLong(dst, (long) i * Long.BYTES, shmem.myPe());
            }
            return out;
        } finally {
            shmem.free(dst);
            shmem.free(src);
        }
    }

    /**
     * Queues on {@code on} the copies that put every stamp of this PE back as {@link #allocate} left it
     * (local copies: the caller makes sure that no PE stamps into this one meanwhile).
     */
    void resetOnStream(ShmemStream on) {
        int me = shmem.myPe();
        long zeros = arrive.byteSize();
        shmem.putOnStream(arrive, 0, pristine, 0, arrive.byteSize(), me, on);
        shmem.putOnStream(skFlags, 0, pristine, zeros, skFlags.byteSize(), me, on);
        shmem.putOnStream(aReady, 0, pristine, zeros, aReady.byteSize(), me, on);
    }

    /** Frees the parts (collective). */
    @Override
    public void close() {
        shmem.free(pristine);
        shmem.free(rowOrder);
        shmem.free(aReady);
        shmem.free(gathered);
        shmem.free(staging);
        shmem.free(arrive);
        shmem.free(skFlags);
        shmem.free(partials);
    }
}
