package org.jshmem.gemm;

import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.Shmem;
import org.jshmem.ShmemStream;
import org.jshmem.SymmetricSegment;

/**
 * The reference path: the vendor GEMM (cuBLAS) into a scratch buffer, then jshmem's own collective
 * on the same stream: all-reduce = {@code Team.reduceOnStream(SUM)} of the partials; all-scatter =
 * {@code Team.collectOnStream} of the column blocks and an unpacking kernel placing them in C.
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
        this.partial = switch (layout.collective()) {
            case NONE -> null;
            case ALL_REDUCE -> shmem.malloc((long) g.m() * g.n() * es);
            case ALL_SCATTER -> shmem.malloc((long) g.m() * widest * es);
        };
        this.gathered = layout.collective() == GemmCollective.ALL_SCATTER ? shmem.malloc((long) g.m() * g.n() * es)
                : null;
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
        return "reference path: cuBLAS GEMM, then jshmem's "
                + switch (layout.collective()) {
                    case NONE -> "nothing";
                    case ALL_REDUCE -> "reduceOnStream (sum)";
                    case ALL_SCATTER -> "collectOnStream + column unpacking";
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
