package org.jshmem.gemm;

import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.Shmem;
import org.jshmem.ShmemStream;
import org.jshmem.SymmetricSegment;

/**
 * The reference path: jshmem's own collective and the vendor GEMM (cuBLAS), one after the other on
 * the same stream: all-reduce = GEMM, then {@code Team.reduceOnStream(SUM)} of the partials;
 * all-scatter = GEMM, then {@code Team.collectOnStream} of the column blocks and an unpacking
 * kernel placing them in C; all-gather + GEMM = {@code Team.collectOnStream} of A's row blocks,
 * then the GEMM; GEMM + reduce-scatter = GEMM, then {@code Team.reduceScatterOnStream(SUM)}.
 */
final class ReferenceExecutor implements GemmExecutor {
    private final Shmem shmem;
    private final ShardLayout layout;
    private final DType type;
    private final VendorGemm blas = new VendorGemm();
    private final UtilKernels util;
    private final ShmemStream own;
    private final SymmetricSegment partial;
    private final SymmetricSegment gathered;

    ReferenceExecutor(Shmem shmem, ShardLayout layout, DType type) {
        this.shmem = shmem;
        this.layout = layout;
        this.type = type;
        GemmShape g = layout.global();
        long es = type.byteSize();
        this.util = layout.collective() == GemmCollective.ALL_SCATTER ? new UtilKernels(shmem, type) : null;
        long widest = layout.local(0).n();   // PE 0 has the widest shard
        if (layout.collective() == GemmCollective.GEMM_REDUCE_SCATTER && g.m() % shmem.nPes() != 0) {
            throw new IllegalArgumentException("the reference GEMM + reduce-scatter needs m divisible by the PE count"
                    + " (Team.reduceScatter takes equal blocks); m = " + g.m() + ", " + shmem.nPes() + " PEs: use the"
                    + " fused path, or an m that divides");
        }
        this.partial = switch (layout.collective()) {
            case NONE, ALL_GATHER_GEMM -> null;
            case ALL_REDUCE, GEMM_REDUCE_SCATTER -> shmem.malloc((long) g.m() * g.n() * es);
            case ALL_SCATTER -> shmem.malloc((long) g.m() * widest * es);
        };
        this.gathered = switch (layout.collective()) {
            case ALL_SCATTER -> shmem.malloc((long) g.m() * g.n() * es);
            case ALL_GATHER_GEMM -> shmem.malloc((long) g.m() * g.k() * es);
            default -> null;
        };
        this.own = shmem.createStream();
    }

    @Override
    public void run(SymmetricSegment a, SymmetricSegment b, SymmetricSegment c, ShmemStream stream, long generation) {
        ShmemStream on = stream != null ? stream : own;
        GemmShape l = layout.local(shmem.myPe());
        GemmShape g = layout.global();
        switch (layout.collective()) {
            case NONE -> gemm(on, l, a, b, c);
            case ALL_REDUCE -> {
                gemm(on, l, a, b, partial);
                shmem.teamWorld().reduceOnStream(ReduceOp.SUM, type, c, partial, (long) g.m() * g.n(), on);
            }
            case ALL_SCATTER -> {
                gemm(on, l, a, b, partial);
                long[] counts = new long[shmem.nPes()];
                for (int pe = 0; pe < counts.length; pe++) {
                    counts[pe] = (long) g.m() * layout.local(pe).n();
                }
                shmem.teamWorld().collectOnStream(gathered, partial, counts, type, on);
                util.unpackColumns(gathered, c, g.m(), g.n(), shmem.nPes(), on);
            }
            case ALL_GATHER_GEMM -> {
                long[] counts = new long[shmem.nPes()];
                for (int pe = 0; pe < counts.length; pe++) {
                    counts[pe] = (long) layout.rows(pe) * g.k();
                }
                shmem.teamWorld().collectOnStream(gathered, a, counts, type, on);
                gemm(on, l, gathered, b, c);
            }
            case GEMM_REDUCE_SCATTER -> {
                gemm(on, l, a, b, partial);
                shmem.teamWorld().reduceScatterOnStream(ReduceOp.SUM, type, c, partial,
                        (long) layout.rows(0) * g.n(), on);
            }
        }
        if (stream == null) {
            own.synchronize();
        }
    }

    private void gemm(ShmemStream on, GemmShape l, SymmetricSegment a, SymmetricSegment b, SymmetricSegment c) {
        blas.gemm(on.handle(), type, l.m(), l.n(), l.k(), shmem.deviceAddress(a, 0), l.k(), shmem.deviceAddress(b, 0),
                l.n(), shmem.deviceAddress(c, 0), l.n());
    }

    @Override
    public String describe() {
        return "reference path: cuBLAS GEMM and jshmem's "
                + switch (layout.collective()) {
                    case NONE -> "nothing";
                    case ALL_REDUCE -> "reduceOnStream (sum)";
                    case ALL_SCATTER -> "collectOnStream + column unpacking";
                    case ALL_GATHER_GEMM -> "collectOnStream of A before the GEMM";
                    case GEMM_REDUCE_SCATTER -> "reduceScatterOnStream (sum)";
                };
    }

    @Override
    public void close() {
        own.synchronize();
        own.close();
        if (util != null) {
            util.close();
        }
        blas.close();
        shmem.barrierAll();
        if (gathered != null) {
            shmem.free(gathered);
        }
        if (partial != null) {
            shmem.free(partial);
        }
    }
}
