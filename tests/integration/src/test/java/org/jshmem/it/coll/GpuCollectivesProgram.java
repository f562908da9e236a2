package org.jshmem.it.coll;

import static org.jshmem.it.PeProgram.report;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.Shmem;
import org.jshmem.ShmemStream;
import org.jshmem.SymmetricSegment;
import org.jshmem.Team;

/**
 * The collectives matrix of {@link CollectivesProgram} on a GPU heap, in both forms: every
 * collective on every type (every reduction operation, in place too) through the blocking call
 * (reports {@code host/<team>.<call> <crc>}) and through the {@code ...OnStream} call followed by a
 * stream synchronisation ({@code stream/<team>.<call> <crc>}). {@link GpuCollectivesTest} checks the
 * CRCs against the sequential reference with {@link CollectivesCheck}. Data moves with put/get,
 * since Java cannot read a GPU heap.
 *
 * <p>Further checks, each reporting a mismatch count (0 expected): {@code chain.<team>.<n>}:
 * collectives queued back to back on one stream, each reading the previous one's result, with no
 * host synchronisation in between; {@code reuse}: a team made in a slot that an earlier, closed team
 * used (its device cells must start again from zero); {@code misaligned.host} (a CRC: a blocking
 * reduction of elements not aligned to their size falls back to the copy collectives) and
 * {@code misaligned.stream} (the on-stream form refuses them).
 *
 * <p>Arguments as {@link CollectivesProgram}'s: {@code reduceSizes otherSizes [ops=...] team...}.
 */
public final class GpuCollectivesProgram {
    static final int GUARD = CollectivesProgram.GUARD;
    static final byte SENTINEL = CollectivesProgram.SENTINEL;
    /** Element counts of the back-to-back chains: one fused block, and many blocks / copy engines. */
    static final long[] CHAIN_SIZES = {100, 300007};
    /** Elements of the misaligned reduction (floats at byte offset 2). */
    static final long MISALIGNED = 1001;

    private final Shmem shmem;
    private final int me;
    private final ShmemStream stream;
    private final Arena arena = Arena.ofConfined();
    private SymmetricSegment src;
    private SymmetricSegment dest;
    private MemorySegment host;   // staging for what goes into / comes out of the heap
    private List<ReduceOp> onlyOps = List.of(ReduceOp.values());

    private GpuCollectivesProgram(Shmem shmem, ShmemStream stream) {
        this.shmem = shmem;
        this.me = shmem.myPe();
        this.stream = stream;
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init(); ShmemStream stream = shmem.createStream()) {
            List<String> rest = List.of(args).subList(2, args.length);
            GpuCollectivesProgram p = new GpuCollectivesProgram(shmem, stream);
            if (!rest.isEmpty() && rest.get(0).startsWith("ops=")) {
                p.onlyOps = CollectivesProgram.opsFilter(rest.get(0));
                rest = rest.subList(1, rest.size());
            }
            report(shmem.myPe(), "collectives", shmem.describeCollectives().replace(' ', '_'));
            p.run(CollectivesProgram.sizes(args[0]), CollectivesProgram.sizes(args[1]), rest);
            shmem.barrierAll();
            report(shmem.myPe(), "done", "ok");
        }
    }

    private void run(long[] reduceSizes, long[] otherSizes, List<String> teamSpecs) {
        int n = shmem.nPes();
        long maxReduce = java.util.Arrays.stream(reduceSizes).max().orElse(1) * 8;
        long maxOther = java.util.Arrays.stream(otherSizes).max().orElse(1) * 8 * n * 2;   // collect needs ~1.5 n
        long maxChain = java.util.Arrays.stream(CHAIN_SIZES).max().orElse(1) * 4 * (2 + 2L * n);
        long bytes = Math.max(Math.max(maxReduce, maxOther), maxChain) + 2 * GUARD;
        src = shmem.malloc(bytes);
        dest = shmem.malloc(bytes);
        host = arena.allocate(bytes, 64);
        try (JobTeams teams = new JobTeams(shmem, teamSpecs)) {
            teams.forEachMember((label, t) -> {
                exercise(t, "host/" + label, false, reduceSizes, otherSizes);
                exercise(t, "stream/" + label, true, reduceSizes, otherSizes);
                for (long c : CHAIN_SIZES) {
                    report(me, "chain." + label + "." + c, chain(t, c));
                }
            });
        }
        // a new team in a slot the closed teams used: its device cells must count from zero again
        long reuseBad = 0;
        for (int round = 0; round < 2; round++) {
            try (Team again = shmem.teamWorld().splitStrided(0, 1, n).orElseThrow()) {
                reuseBad += chain(again, CHAIN_SIZES[0]);
            }
        }
        report(me, "reuse", reuseBad);
        misaligned();
        shmem.free(dest);
        shmem.free(src);
    }

    // ---------------------------------------------------------------- moving data in and out

    /** Fills {@code seg} from byte {@code at} with {@code count} elements of this PE's data. */
    private void fill(SymmetricSegment seg, long at, DType type, long count, int seed) {
        long b = count * type.byteSize();
        CollData.fill(host, 0, type, me, 0, count, seed);
        shmem.put(seg, at, host.asSlice(0, b), me);
        shmem.quiet();
    }

    /** Fills the destination extent and its guard with the sentinel. */
    private void prepare(long ext) {
        host.asSlice(0, ext + GUARD).fill(SENTINEL);
        shmem.put(dest, 0, host.asSlice(0, ext + GUARD), me);
        shmem.quiet();
    }

    /** Reads dest back; reports the CRC of the extent (and whether the guard was overwritten). */
    private void result(String key, long ext) {
        shmem.get(host.asSlice(0, ext + GUARD), dest, 0, me);
        boolean guard = true;
        for (long i = ext; i < ext + GUARD; i++) {
            guard &= host.get(ValueLayout.JAVA_BYTE, i) == SENTINEL;
        }
        report(me, key, CollData.crc(host.asSlice(0, ext)) + (guard ? "" : " GUARD-OVERWRITTEN"));
    }

    /** After an on-stream call: wait for the stream (the blocking forms have returned complete). */
    private void done(boolean onStream) {
        if (onStream) {
            stream.synchronize();
        }
    }

    // ---------------------------------------------------------------- the matrix

    private void exercise(Team t, String label, boolean onStream, long[] reduceSizes, long[] otherSizes) {
        for (DType type : DType.values()) {
            int size = type.byteSize();
            for (int si = 0; si < reduceSizes.length; si++) {
                long n = reduceSizes[si];
                long ext = n * size;
                int seed = CollectivesProgram.seed("reduce", type, n);
                fill(src, 0, type, n, seed);
                List<ReduceOp> ops = CollectivesProgram.ops(type, onlyOps, si, reduceSizes.length);
                for (ReduceOp op : ops) {
                    prepare(ext);
                    SymmetricSegment d = dest.asSlice(0, ext);
                    SymmetricSegment s = src.asSlice(0, ext);
                    if (onStream) {
                        t.reduceOnStream(op, type, d, s, n, stream);
                    } else {
                        t.reduce(op, type, d, s, n);
                    }
                    done(onStream);
                    result(label + ".reduce." + type + "." + op + "." + n, ext);
                }
                for (ReduceOp op : ops) {
                    prepare(ext);
                    fill(dest, 0, type, n, seed);
                    SymmetricSegment d = dest.asSlice(0, ext);
                    if (onStream) {
                        t.reduceOnStream(op, type, d, d, n, stream);
                    } else {
                        t.reduce(op, type, d, d, n);
                    }
                    done(onStream);
                    result(label + ".inplace." + type + "." + op + "." + n, ext);
                }
            }
            for (int si = 0; si < otherSizes.length; si++) {
                long n = otherSizes[si];
                long ext = n * size;
                int np = t.nPes();
                // fcollect
                int seed = CollectivesProgram.seed("fcollect", type, n);
                fill(src, 0, type, n, seed);
                prepare(ext * np);
                if (onStream) {
                    t.fcollectOnStream(dest.asSlice(0, ext * np), src.asSlice(0, ext), n, type, stream);
                } else {
                    t.fcollect(dest.asSlice(0, ext * np), src.asSlice(0, ext), n, type);
                }
                done(onStream);
                result(label + ".fcollect." + type + "." + n, ext * np);
                // collect
                seed = CollectivesProgram.seed("collect", type, n);
                long mine = CollectivesProgram.collectCount(t.myPe(), n);
                fill(src, 0, type, mine, seed);
                long[] counts = new long[np];
                long total = 0;
                for (int i = 0; i < np; i++) {
                    counts[i] = CollectivesProgram.collectCount(i, n);
                    total += counts[i];
                }
                prepare(total * size);
                long got = onStream ? t.collectOnStream(dest, src.asSlice(0, mine * size), counts, type, stream)
                        : t.collect(dest, src.asSlice(0, mine * size), mine, type);
                done(onStream);
                result(label + ".collect." + type + "." + n, total * size);
                report(me, label + ".collect-total." + type + "." + n, got);
                // broadcast from the first and the last member
                seed = CollectivesProgram.seed("broadcast", type, n);
                fill(src, 0, type, n, seed);
                for (int root : new int[] {0, np - 1}) {
                    prepare(ext);
                    if (onStream) {
                        t.broadcastOnStream(dest.asSlice(0, ext), src.asSlice(0, ext), n, root, type, stream);
                    } else {
                        t.broadcast(dest.asSlice(0, ext), src.asSlice(0, ext), n, root, type);
                    }
                    done(onStream);
                    result(label + ".broadcast." + type + "." + n + ".root" + root, ext);
                }
                // broadcast in place (dest == src)
                prepare(ext);
                fill(dest, 0, type, n, seed);
                if (onStream) {
                    t.broadcastOnStream(dest.asSlice(0, ext), dest.asSlice(0, ext), n, np - 1, type, stream);
                } else {
                    t.broadcast(dest.asSlice(0, ext), dest.asSlice(0, ext), n, np - 1, type);
                }
                done(onStream);
                result(label + ".broadcast-inplace." + type + "." + n, ext);
                // alltoall: block j of my source is elements j*n .. j*n+n-1 of my data
                seed = CollectivesProgram.seed("alltoall", type, n);
                fill(src, 0, type, n * np, seed);
                prepare(ext * np);
                if (onStream) {
                    t.alltoallOnStream(dest.asSlice(0, ext * np), src.asSlice(0, ext * np), n, type, stream);
                } else {
                    t.alltoall(dest.asSlice(0, ext * np), src.asSlice(0, ext * np), n, type);
                }
                done(onStream);
                result(label + ".alltoall." + type + "." + n, ext * np);
                // reduce-scatter: each member's block of the reduction of n * np elements
                seed = CollectivesProgram.seed("reducescatter", type, n);
                fill(src, 0, type, n * np, seed);
                for (ReduceOp op : CollectivesProgram.ops(type, onlyOps, si, otherSizes.length)) {
                    prepare(ext);
                    if (onStream) {
                        t.reduceScatterOnStream(op, type, dest.asSlice(0, ext), src.asSlice(0, ext * np), n, stream);
                    } else {
                        t.reduceScatter(op, type, dest.asSlice(0, ext), src.asSlice(0, ext * np), n);
                    }
                    done(onStream);
                    result(label + ".reducescatter." + type + "." + op + "." + n, ext);
                }
            }
        }
        if (onStream) {
            t.barrierOnStream(stream);
            t.syncOnStream(stream);
            stream.synchronize();
        } else {
            t.barrier();
            t.sync();
        }
    }

    // ---------------------------------------------------------------- back to back on one stream

    /**
     * Queues on the stream, with no host synchronisation in between: r1 = sum of the members' ints
     * (n); d2 = fcollect(r1); d2 = sum-reduce(d2) in place (every element np x r1); d3 = broadcast(d2)
     * from the last member; d4 = alltoall(d3) (blocks of n); 20 times r4 = sum(src) into one place;
     * 20 times r5 = the sum reduce-scatter of d2 (every element np x np x r1); a barrier. Then
     * checks every result against values computed here; returns the mismatches.
     */
    private long chain(Team t, long n) {
        int np = t.nPes();
        int seed = CollectivesProgram.seed("chain", DType.INT, n);
        fill(src, 0, DType.INT, n, seed);   // blocking: complete before this PE's first collective enters
        long b = n * 4;
        SymmetricSegment s = src.asSlice(0, b);
        SymmetricSegment r1 = dest.asSlice(0, b);
        SymmetricSegment d2 = dest.asSlice(b, b * np);
        SymmetricSegment d3 = dest.asSlice(b + b * np, b * np);
        SymmetricSegment r4 = src.asSlice(b, b);
        SymmetricSegment d4 = src.asSlice(2 * b, b * np);
        t.reduceOnStream(ReduceOp.SUM, DType.INT, r1, s, n, stream);
        t.fcollectOnStream(d2, r1, n, DType.INT, stream);
        t.reduceOnStream(ReduceOp.SUM, DType.INT, d2, d2, n * np, stream);
        t.broadcastOnStream(d3, d2, n * np, np - 1, DType.INT, stream);
        t.alltoallOnStream(d4, d3, n, DType.INT, stream);
        for (int i = 0; i < 20; i++) {
            t.reduceOnStream(ReduceOp.SUM, DType.INT, r4, s, n, stream);
        }
        SymmetricSegment r5 = dest.asSlice(b + 2 * b * np, b);
        for (int i = 0; i < 20; i++) {
            t.reduceScatterOnStream(ReduceOp.SUM, DType.INT, r5, d2, n, stream);
        }
        t.barrierOnStream(stream);
        stream.synchronize();
        int[] sum = new int[(int) n];
        for (int i = 0; i < np; i++) {
            for (long k = 0; k < n; k++) {
                sum[(int) k] += (int) CollData.element(DType.INT, t.worldPe(i), k, seed);
            }
        }
        long bad = 0;
        bad += compare(r1, n, k -> sum[(int) k]);
        bad += compare(d2, n * np, k -> np * sum[(int) (k % n)]);
        bad += compare(d3, n * np, k -> np * sum[(int) (k % n)]);
        bad += compare(d4, n * np, k -> np * sum[(int) (k % n)]);
        bad += compare(r4, n, k -> sum[(int) k]);
        bad += compare(r5, n, k -> np * np * sum[(int) k]);
        // the barrier on the stream has passed on every member: nobody reads this PE's src any more,
        // so the next fill may overwrite it; this team's members only (not every PE is in the team)
        t.sync();
        return bad;
    }

    private long compare(SymmetricSegment seg, long count, java.util.function.LongToIntFunction want) {
        MemorySegment h = host.asSlice(0, count * 4);
        shmem.get(h, seg, 0, me);
        long bad = 0;
        for (long k = 0; k < count; k++) {
            bad += h.getAtIndex(ValueLayout.JAVA_INT, k) == want.applyAsInt(k) ? 0 : 1;
        }
        return bad;
    }

    // ---------------------------------------------------------------- misaligned elements

    /** Floats at byte offset 2 of src and dest: the blocking form works, the on-stream form refuses. */
    private void misaligned() {
        Team w = shmem.teamWorld();
        long ext = MISALIGNED * 4;
        int seed = CollectivesProgram.seed("misaligned", DType.FLOAT, MISALIGNED);
        fill(src, 2, DType.FLOAT, MISALIGNED, seed);
        host.asSlice(0, ext + 2 + GUARD).fill(SENTINEL);
        shmem.put(dest, 0, host.asSlice(0, ext + 2 + GUARD), me);
        shmem.quiet();
        w.reduce(ReduceOp.SUM, DType.FLOAT, dest.asSlice(2, ext), src.asSlice(2, ext), MISALIGNED);
        shmem.get(host.asSlice(0, ext + 2), dest, 0, me);
        report(me, "misaligned.host", CollData.crc(host.asSlice(2, ext)));
        String refused;
        try {
            w.reduceOnStream(ReduceOp.SUM, DType.FLOAT, dest.asSlice(2, ext), src.asSlice(2, ext), MISALIGNED, stream);
            refused = "accepted";
        } catch (IllegalArgumentException e) {
            refused = "IllegalArgumentException";
        }
        report(me, "misaligned.stream", refused);
        shmem.barrierAll();
    }
}
