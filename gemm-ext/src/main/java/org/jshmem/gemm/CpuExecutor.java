package org.jshmem.gemm;

import static java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jshmem.Cmp;
import org.jshmem.DType;
import org.jshmem.Shmem;
import org.jshmem.ShmemStream;
import org.jshmem.SymmetricSegment;
import org.jshmem.trace.Trace;

/**
 * Runs the fused GEMM on a host heap with the kernels' schedule and flag protocol: one thread per
 * work-group walks {@link StreamKSchedule#units}, computes each unit with scalar fp32 inner
 * products, and finishes it as {@code jgemm_epilogue.h} does: non-owners hand their partial over
 * through the workspace and a stamp, owners add the later partials, round the tile, and publish it
 * (local store, all-scatter puts, one- or two-shot all-reduce through the staging slots), each
 * publication a put followed by {@code fence} and a stamp. All-gather + GEMM: a gather thread
 * pulls the peers' row blocks of A (rotated from the next PE, its own last) into the workspace and
 * stamps each, while the work-groups compute the tiles of their own rows from A in place and wait
 * for the blocks under the others. GEMM + reduce-scatter and two-shot all-reduce: finished
 * tiles go to the other PEs owning their rows; an owner sums its rows as it finishes its own
 * partial of the tile (the all-reduce's then go to every PE). So CI checks the
 * orchestration (schedule, fix-up, stamps, epilogues, ragged shapes, back-to-back calls) without a GPU.
 */
final class CpuExecutor implements GemmExecutor {
    private final Shmem shmem;
    private final StreamKSchedule s;
    private final Epilogue epilogue;
    private final GemmWorkspace ws;
    private final DType type;
    private final ShardLayout layout;
    private final boolean gather;
    private final int colOffset;
    private final long ldc;
    private final ExecutorService workGroups;
    private final Trace trace;   // tile and publication spans beside the calls' own, when the job traces

    CpuExecutor(Shmem shmem, StreamKSchedule schedule, Epilogue epilogue, GemmWorkspace ws, DType type,
                ShardLayout layout) {
        this.shmem = shmem;
        this.s = schedule;
        this.epilogue = epilogue;
        this.ws = ws;
        this.type = type;
        this.layout = layout;
        this.gather = layout.collective() == GemmCollective.ALL_GATHER_GEMM;
        this.colOffset = layout.cColumnOffset(shmem.myPe());
        this.ldc = layout.ldc(shmem.myPe());
        this.trace = shmem.trace();
        // one more thread: the all-gather's. Numbered: each is a track of its own in a trace
        java.util.concurrent.atomic.AtomicInteger threads = new java.util.concurrent.atomic.AtomicInteger();
        this.workGroups = Executors.newFixedThreadPool(schedule.grid() + 1, r -> {
            Thread t = new Thread(r, "jshmem-gemm-wg-" + threads.getAndIncrement());
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public void run(SymmetricSegment a, SymmetricSegment b, SymmetricSegment c, ShmemStream stream, long generation) {
        GemmShape sh = s.shape();
        float[] af;
        if (gather) {   // own rows in place; the others as they arrive
            int me = shmem.myPe();
            af = new float[Math.toIntExact((long) sh.m() * sh.k())];
            long own = (long) layout.rows(me) * sh.k();
            float[] mine = HostMatrices.widen(a.local(), 0, own, type);
            System.arraycopy(mine, 0, af, Math.toIntExact((long) layout.rowOffset(me) * sh.k()), mine.length);
        } else {
            af = HostMatrices.widen(a.local(), 0, (long) sh.m() * sh.k(), type);
        }
        float[] bf = HostMatrices.bByRowsOfK(b.local(), sh, layout.bLayout(), type);   // the work-groups read B by rows of k
        Call call = new Call(af, bf, c, generation);
        List<Future<?>> done = new ArrayList<>();
        if (gather) {
            shmem.barrierAll();   // every PE's A is written before anyone pulls it
            done.add(workGroups.submit(() -> call.gatherA(a)));
        }
        for (int w = 0; w < s.grid(); w++) {
            int wg = w;
            done.add(workGroups.submit(() -> call.workGroup(wg)));
        }
        join(done);
        if (gather) {
            shmem.barrierAll();   // no PE pulls this PE's A any more: the caller may rewrite it
        }
    }

    private static void join(List<Future<?>> done) {
        for (Future<?> f : done) {
            try {
                f.get();
            } catch (ExecutionException e) {
                if (e.getCause() instanceof RuntimeException r) {
                    throw r;
                }
                throw new IllegalStateException("GEMM work-group failed: " + e.getCause(), e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the GEMM's work-groups", e);
            }
        }
    }

    /** One call's state shared by its work-groups. */
    private final class Call {
        private final float[] a;
        private final float[] b;
        private final SymmetricSegment c;
        private final long gen;
        private final int tm = s.tile().m();
        private final int tn = s.tile().n();
        private final int tileElems = tm * tn;

        Call(float[] a, float[] b, SymmetricSegment c, long gen) {
            this.a = a;
            this.b = b;
            this.c = c;
            this.gen = gen;
        }

        /** All-gather + GEMM: PE q's rows of A into the workspace (rotated from the next PE, own last), a stamp each. */
        void gatherA(SymmetricSegment a) {
            int me = shmem.myPe(), n = shmem.nPes(), k = s.shape().k();
            for (int i = 1; i <= n; i++) {
                int q = (me + i) % n;
                long first = (long) layout.rowOffset(q) * k, count = (long) layout.rows(q) * k;
                shmem.get(ws.gathered(), first * 2, a, 0, count * 2, q);
                if (q != me) {   // own rows are in place already
                    HostMatrices.widenInto(this.a, ws.gathered().local(), first, count, type);
                }
                shmem.atomicSetLong(ws.aReady(), (long) q * Long.BYTES, gen, me);
            }
        }

        void workGroup(int w) {
            float[] acc = new float[tileElems];
            for (StreamKSchedule.Unit u : s.units(w)) {
                if (gather) {
                    waitRows(u.tile());
                }
                long t = trace.begin("tile");
                compute(u, acc);
                trace.end("tile", "compute", t);
                finish(u, w, acc);
            }
            if (epilogue.ownsRows()) {
                finishParked(w);
            }
            waitArrivals(w);
        }

        /** Waits for the row blocks of A under tile t unless all are this PE's own (the kernels' jgemm_wait_rows). */
        private void waitRows(int t) {
            int row0 = s.tileCoords(t)[0] * tm, last = Math.min(s.shape().m(), row0 + tm) - 1, me = shmem.myPe();
            if (layout.rowBlockOf(row0) == me && layout.rowBlockOf(last) == me) {
                return;
            }
            for (int q = layout.rowBlockOf(row0); q <= layout.rowBlockOf(last); q++) {
                shmem.signalWaitUntil(ws.aReady(), (long) q * Long.BYTES, Cmp.GE, gen);
            }
        }

        private void compute(StreamKSchedule.Unit u, float[] acc) {
            java.util.Arrays.fill(acc, 0f);
            GemmShape sh = s.shape();
            int[] rc = s.tileCoords(u.tile());
            int row0 = rc[0] * tm, col0 = rc[1] * tn;
            int rows = Math.min(tm, sh.m() - row0), cols = Math.min(tn, sh.n() - col0);
            int k0 = u.begin() * s.tile().k(), k1 = Math.min(sh.k(), u.end() * s.tile().k());
            for (int i = 0; i < rows; i++) {
                int aRow = (row0 + i) * sh.k();
                for (int kk = k0; kk < k1; kk++) {
                    float av = a[aRow + kk];
                    int bRow = kk * sh.n() + col0;
                    for (int j = 0; j < cols; j++) {
                        acc[i * tn + j] += av * b[bRow + j];
                    }
                }
            }
        }

        private void finish(StreamKSchedule.Unit u, int w, float[] acc) {
            MemorySegment partials = ws.partials().local();
            if (!u.owns()) {
                MemorySegment.copy(acc, 0, partials, JAVA_FLOAT_UNALIGNED, (long) w * tileElems * Float.BYTES, tileElems);
                shmem.atomicSetLong(ws.skFlags(), (long) w * Long.BYTES, gen, shmem.myPe());
                return;
            }
            if (u.end() != s.itersPerTile()) {
                for (int v = w + 1; v < s.skWorkGroups(); v++) {
                    shmem.signalWaitUntil(ws.skFlags(), (long) v * Long.BYTES, Cmp.GE, gen);
                    long base = (long) v * tileElems * Float.BYTES;
                    for (int i = 0; i < tileElems; i++) {
                        acc[i] += partials.get(JAVA_FLOAT_UNALIGNED, base + (long) i * Float.BYTES);
                    }
                    if (s.reachesEnd(v, u.tile())) {
                        break;
                    }
                }
            }
            short[] tile = new short[tileElems];
            for (int i = 0; i < tileElems; i++) {
                tile[i] = Elements.fromFloat(acc[i], type);
            }
            long t = trace.begin("publish");
            publish(u.tile(), tile);
            trace.end("publish", "comm", t);
        }

        private void publish(int t, short[] tile) {
            GemmShape sh = s.shape();
            int[] rc = s.tileCoords(t);
            int row0 = rc[0] * tm, col0 = rc[1] * tn;
            int rows = Math.min(tm, sh.m() - row0), cols = Math.min(tn, sh.n() - col0);
            int me = shmem.myPe(), n = shmem.nPes(), tiles = s.tiles();
            long slotBytes = (long) tileElems * 2;
            switch (epilogue) {
                case LOCAL -> store(tile, 0, me, row0, col0, rows, cols);
                case ALL_SCATTER -> {
                    for (int i = 0; i < n; i++) {
                        int pe = (me + i) % n;
                        store(tile, 0, pe, row0, colOffset + col0, rows, cols);
                        stamp(ws.arrive(), ws.arriveBase() + t, pe);
                    }
                }
                case ALL_REDUCE_ONE_SHOT -> {
                    long parity = gen & 1;
                    long mine = ((parity * n + me) * tiles + t) * slotBytes;
                    for (int i = 0; i < n; i++) {
                        int pe = (me + i) % n;
                        shmem.put(ws.staging(), mine, MemorySegment.ofArray(tile), pe);
                        stamp(ws.arrive(), (long) me * tiles + t, pe);
                    }
                    for (int src = 0; src < n; src++) {
                        shmem.signalWaitUntil(ws.arrive(), ((long) src * tiles + t) * Long.BYTES, Cmp.GE, gen);
                    }
                    sumSlots(tile, (parity * n * tiles + t) * slotBytes, tiles * slotBytes, n);
                    store(tile, 0, me, row0, col0, rows, cols);
                }
                case REDUCE_SCATTER, ALL_REDUCE_TWO_SHOT -> {
                    // to the other PEs owning rows of the tile; an owner sums its rows with its own partial
                    // (nothing in a work-group's units waits for a peer, whatever the order)
                    int firstQ = layout.rowBlockOf(row0), lastQ = layout.rowBlockOf(row0 + rows - 1);
                    long key = (long) rc[0] * s.tilesN() + rc[1];
                    for (int q = firstQ; q <= lastQ; q++) {
                        if (q != me) {
                            shmem.put(ws.staging(), slotAt(me, q, rc),
                                    MemorySegment.ofArray(tile), q);
                            stamp(ws.arrive(), me * tiles + key, q);
                        }
                    }
                    if (firstQ <= me && me <= lastQ) {   // sum now if every partial is in, else park it
                        boolean in = true;
                        for (int src = 0; src < n; src++) {
                            in &= src == me || shmem.signalFetch(ws.arrive(), (src * tiles + key) * Long.BYTES) >= gen;
                        }
                        if (in) {
                            reduceOwnRows(tile, rc);
                        } else {
                            shmem.put(ws.staging(), slotAt(me, me, rc),
                                    MemorySegment.ofArray(tile), me);
                            stamp(ws.arrive(), me * tiles + key, me);
                        }
                    }
                }
            }
        }

        /** Puts rows x cols of the tile, from tile row {@code from}, into PE pe's C at (row0, col0), ldc elements per row. */
        private void store(short[] tile, int from, int pe, int row0, int col0, int rows, int cols) {
            MemorySegment src = MemorySegment.ofArray(tile);
            for (int r = 0; r < rows; r++) {
                shmem.put(c, ((row0 + r) * ldc + col0) * 2, src.asSlice((long) (from + r) * tn * 2, (long) cols * 2),
                        pe);
            }
        }

        /**
         * This PE's rows of tile rc, summed in PE order with its own partial (in tile), into its C
         * (reduce-scatter: rows from its block's first) or into every PE's C, each peer's copy
         * stamped with this PE's final stamp of the tile (two-shot all-reduce: jgemm_sum_own_rows).
         */
        private void reduceOwnRows(short[] tile, int[] rc) {
            int me = shmem.myPe(), n = shmem.nPes(), row0 = rc[0] * tm, col0 = rc[1] * tn;
            long perSource = (long) ws.homeSlots() * tileElems * 2;
            sumWithOwn(tile, slotAt(0, me, rc), perSource, n, me);
            int r0 = layout.rowBlockStart(me), top = Math.max(row0, r0);
            int bottom = Math.min(Math.min(row0 + tm, s.shape().m()), layout.rowBlockStart(me + 1));
            int cols = Math.min(tn, s.shape().n() - col0);
            if (epilogue == Epilogue.REDUCE_SCATTER) {
                store(tile, top - row0, me, top - r0, col0, bottom - top, cols);
                return;
            }
            long key = (long) rc[0] * s.tilesN() + rc[1];
            for (int i = 0; i < n; i++) {
                int pe = (me + i) % n;
                store(tile, top - row0, pe, top, col0, bottom - top, cols);
                if (pe != me) {
                    stamp(ws.arrive(), (long) (n + me) * s.tiles() + key, pe);
                }
            }
        }

        /** Reduce-scatter, two-shot all-reduce: after work-group w's units, the tiles it parked (jgemm_finish_parked). */
        private void finishParked(int w) {
            int me = shmem.myPe(), n = shmem.nPes(), tiles = s.tiles();
            short[] tile = new short[tileElems];
            for (StreamKSchedule.Unit u : s.units(w)) {
                int[] rc = s.tileCoords(u.tile());
                long key = (long) rc[0] * s.tilesN() + rc[1];
                if (!u.owns() || shmem.signalFetch(ws.arrive(), (me * tiles + key) * Long.BYTES) < gen) {
                    continue;
                }
                for (int src = 0; src < n; src++) {
                    if (src != me) {
                        shmem.signalWaitUntil(ws.arrive(), (src * tiles + key) * Long.BYTES, Cmp.GE, gen);
                    }
                }
                MemorySegment.copy(ws.staging().local(), JAVA_SHORT_UNALIGNED,
                        slotAt(me, me, rc), tile, 0, tileElems);
                reduceOwnRows(tile, rc);
            }
        }

        /** Byte offset of source PE src's partial of tile rc in home PE q's staging (jgemm_staged). */
        private long slotAt(int src, int q, int[] rc) {
            long slot = (long) (rc[0] - layout.rowBlockStart(q) / tm) * s.tilesN() + rc[1];
            long half = epilogue == Epilogue.REDUCE_SCATTER ? (gen & 1) * shmem.nPes() : 0;
            return ((half + src) * ws.homeSlots() + slot) * tileElems * 2;
        }

        /** Publishes the puts before it (fence) with stamp {@code index} on PE pe. */
        private void stamp(SymmetricSegment flags, long index, int pe) {
            shmem.fence();
            shmem.atomicSetLong(flags, index * Long.BYTES, gen, pe);
        }

        /** tile = rounded fp32 sum of n dense slots (in PE order) of this PE's staging, from byte {@code first}. */
        private void sumSlots(short[] tile, long first, long strideBytes, int n) {
            MemorySegment staging = ws.staging().local();
            for (int i = 0; i < tileElems; i++) {
                float sum = 0;
                for (int src = 0; src < n; src++) {
                    sum += Elements.toFloat(staging.get(JAVA_SHORT_UNALIGNED, first + src * strideBytes + i * 2L), type);
                }
                tile[i] = Elements.fromFloat(sum, type);
            }
        }

        /** tile = rounded fp32 sum in PE order of n partials: staging slots, and tile itself for PE me. */
        private void sumWithOwn(short[] tile, long first, long strideBytes, int n, int me) {
            MemorySegment staging = ws.staging().local();
            for (int i = 0; i < tileElems; i++) {
                float sum = 0;
                for (int src = 0; src < n; src++) {
                    short v = src == me ? tile[i] : staging.get(JAVA_SHORT_UNALIGNED, first + src * strideBytes + i * 2L);
                    sum += Elements.toFloat(v, type);
                }
                tile[i] = Elements.fromFloat(sum, type);
            }
        }

        /** Work-group w's share of the arrivals; two-shot all-reduce: the other owners' sums of its tiles. */
        private void waitArrivals(int w) {
            if (epilogue == Epilogue.ALL_REDUCE_TWO_SHOT) {
                int n = shmem.nPes(), me = shmem.myPe(), m = s.shape().m();
                for (int key = w; key < s.tiles(); key += s.grid()) {
                    int row0 = key / s.tilesN() * tm, last = Math.min(row0 + tm, m) - 1;
                    for (int q = layout.rowBlockOf(row0); q <= layout.rowBlockOf(last); q++) {
                        if (q != me) {
                            shmem.signalWaitUntil(ws.arrive(), ((long) (n + q) * s.tiles() + key) * Long.BYTES, Cmp.GE, gen);
                        }
                    }
                }
                return;
            }
            int count = epilogue == Epilogue.ALL_SCATTER ? ws.arriveCount() : 0;
            for (int i = w; i < count; i += s.grid()) {
                shmem.signalWaitUntil(ws.arrive(), (long) i * Long.BYTES, Cmp.GE, gen);
            }
        }
    }

    @Override
    public String describe() {
        return "CPU executor: " + s.grid() + " work-group threads, " + s.tile() + " tiles, scalar fp32 inner products";
    }

    @Override
    public void close() {
        workGroups.shutdownNow();
    }
}
