package org.jshmem.gemm;

import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

import java.lang.foreign.MemorySegment;
import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.Shmem;
import org.jshmem.ShmemStream;
import org.jshmem.SymmetricSegment;
import org.jshmem.Team;
import org.jshmem.trace.Trace;

/**
 * The reference path on host heaps, what the CPU executor's fused path is measured against: this
 * PE's whole GEMM (fp32 accumulation, rounded once, rows on the common pool's threads), then
 * jshmem's blocking collective, one after the other, as {@link ReferenceExecutor} does with cuBLAS
 * and the on-stream collectives on a GPU heap.
 */
final class HostReferenceExecutor implements GemmExecutor {
    private final Shmem shmem;
    private final ShardLayout layout;
    private final DType type;
    private final ReferenceBuffers buffers;
    private final Trace trace;

    HostReferenceExecutor(Shmem shmem, ShardLayout layout, DType type) {
        this.shmem = shmem;
        this.layout = layout;
        this.type = type;
        this.buffers = ReferenceBuffers.allocate(shmem, layout, type);
        this.trace = shmem.trace();
    }

    @Override
    public void run(SymmetricSegment a, SymmetricSegment b, SymmetricSegment c, ShmemStream stream, long generation) {
        int me = shmem.myPe();
        GemmShape l = layout.local(me);
        GemmShape g = layout.global();
        Team world = shmem.teamWorld();
        SymmetricSegment partial = buffers.partial();
        switch (layout.collective()) {
            case NONE -> gemm(a, b, l, c);
            case ALL_REDUCE -> {
                gemm(a, b, l, partial);
                world.reduce(ReduceOp.SUM, type, c, partial, (long) g.m() * g.n());
            }
            case ALL_SCATTER -> {
                gemm(a, b, l, partial);
                world.collect(buffers.gathered(), partial, (long) g.m() * l.n(), type);
                unpackColumns(buffers.gathered().local(), c.local());
            }
            case ALL_GATHER_GEMM -> {
                world.collect(buffers.gathered(), a, (long) layout.rows(me) * g.k(), type);
                gemm(buffers.gathered(), b, l, c);
            }
            case GEMM_REDUCE_SCATTER -> {
                gemm(a, b, l, partial);
                if (buffers.reduced() == null) {
                    world.reduceScatter(ReduceOp.SUM, type, c, partial, (long) layout.rows(0) * g.n());
                } else {
                    world.reduce(ReduceOp.SUM, type, buffers.reduced(), partial, (long) g.m() * g.n());
                    long rowBytes = (long) g.n() * type.byteSize();
                    MemorySegment.copy(buffers.reduced().local(), layout.rowOffset(me) * rowBytes, c.local(), 0,
                            layout.rows(me) * rowBytes);
                }
            }
        }
    }

    /** C = A x B of this PE's shapes, into {@code c} from its start. */
    private void gemm(SymmetricSegment a, SymmetricSegment b, GemmShape l, SymmetricSegment c) {
        long t = trace.begin("local gemm");
        float[] af = HostMatrices.widen(a.local(), 0, (long) l.m() * l.k(), type);
        float[] bf = HostMatrices.bByRowsOfK(b.local(), l, layout.bLayout(), type);
        HostMatrices.store(HostMatrices.multiply(af, bf, l.m(), l.n(), l.k()), c.local(), type);
        trace.end("local gemm", "compute", t);
    }

    /** Each PE's m x n_p block, gathered PE after PE, into its columns of the m x n C. */
    private void unpackColumns(MemorySegment gathered, MemorySegment c) {
        GemmShape g = layout.global();
        long es = type.byteSize();
        long from = 0;
        for (int pe = 0; pe < shmem.nPes(); pe++) {
            int cols = layout.local(pe).n();
            long col0 = layout.offset(pe);
            for (int r = 0; r < g.m(); r++) {
                MemorySegment.copy(gathered, JAVA_SHORT_UNALIGNED, from + (long) r * cols * es, c, JAVA_SHORT_UNALIGNED,
                        ((long) r * g.n() + col0) * es, cols);
            }
            from += (long) g.m() * cols * es;
        }
    }

    @Override
    public String describe() {
        return "reference path: the GEMM on the CPU and jshmem's " + buffers.describe(layout.collective(), false);
    }

    @Override
    public void close() {
        buffers.free(shmem);
    }
}
