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
 * then the GEMM; GEMM + reduce-scatter = GEMM, then {@code Team.reduceScatterOnStream(SUM)}, or,
 * when m does not divide into equal row blocks (which reduce-scatter takes), {@code reduceOnStream}
 * of the whole partial and a copy of the PE's own rows into C.
 */
final class ReferenceExecutor implements GemmExecutor {
    private final Shmem shmem;
    private final ShardLayout layout;
    private final DType type;
    private final VendorGemm blas = new VendorGemm();
    private final UtilKernels util;
    private final ShmemStream own;
    private final ReferenceBuffers buffers;
    private final SymmetricSegment partial;
    private final SymmetricSegment gathered;
    private final SymmetricSegment reduced;   // GEMM + reduce-scatter with unequal row blocks: the whole sum

    ReferenceExecutor(Shmem shmem, ShardLayout layout, DType type) {
        this.shmem = shmem;
        this.layout = layout;
        this.type = type;
        this.util = layout.collective() == GemmCollective.ALL_SCATTER ? new UtilKernels(shmem, type) : null;
        this.buffers = ReferenceBuffers.allocate(shmem, layout, type);
        this.partial = buffers.partial();
        this.gathered = buffers.gathered();
        this.reduced = buffers.reduced();
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
                long[] counts = ReferenceBuffers.collectCounts(layout, shmem.nPes());
                shmem.teamWorld().collectOnStream(gathered, partial, counts, type, on);
                util.unpackColumns(gathered, c, g.m(), g.n(), shmem.nPes(), on);
            }
            case ALL_GATHER_GEMM -> {
                long[] counts = ReferenceBuffers.collectCounts(layout, shmem.nPes());
                shmem.teamWorld().collectOnStream(gathered, a, counts, type, on);
                gemm(on, l, gathered, b, c);
            }
            case GEMM_REDUCE_SCATTER -> {
                gemm(on, l, a, b, partial);
                if (reduced == null) {
                    shmem.teamWorld().reduceScatterOnStream(ReduceOp.SUM, type, c, partial,
                            (long) layout.rows(0) * g.n(), on);
                } else {
                    int me = shmem.myPe();
                    long rowBytes = (long) g.n() * type.byteSize();
                    shmem.teamWorld().reduceOnStream(ReduceOp.SUM, type, reduced, partial, (long) g.m() * g.n(), on);
                    shmem.putOnStream(c, 0, reduced, layout.rowOffset(me) * rowBytes, layout.rows(me) * rowBytes, me, on);
                }
            }
        }
        if (stream == null) {
            own.synchronize();
        }
    }

    private void gemm(ShmemStream on, GemmShape l, SymmetricSegment a, SymmetricSegment b, SymmetricSegment c) {
        blas.gemm(on.handle(), type, l.m(), l.n(), l.k(), shmem.deviceAddress(a, 0), l.k(), shmem.deviceAddress(b, 0),
                layout.bLayout(), layout.ldb(shmem.myPe()), shmem.deviceAddress(c, 0), l.n());
    }

    @Override
    public String describe() {
        return "reference path: cuBLAS GEMM and jshmem's " + buffers.describe(layout.collective(), true);
    }

    @Override
    public void close() {
        own.synchronize();
        own.close();
        if (util != null) {
            util.close();
        }
        blas.close();
        buffers.free(shmem);
    }
}
