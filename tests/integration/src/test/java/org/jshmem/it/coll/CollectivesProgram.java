package org.jshmem.it.coll;

import static org.jshmem.it.PeProgram.report;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.Shmem;
import org.jshmem.SymmetricSegment;
import org.jshmem.Team;
import org.jshmem.it.LocalCopy;

/**
 * Runs every collective on every type (and every reduction operation, dealt round the sizes: {@link #ops(DType,
 * List, int, int)}) on the teams named on the command line, and reports a CRC of each result ({@code PE <n> <team>.<call> <crc>}); JUnit
 * ({@link TeamCollectivesTest}) computes the expected CRCs from {@link CollData} by a plain
 * sequential reference.
 *
 * <p>Arguments: {@code reduceSizes otherSizes [ops=OP,OP...] team...}, sizes comma-separated element
 * counts, {@code ops=} limiting the reduction operations (all that apply to a type by default);
 * teams: {@code world}, {@code shared}, {@code strided:START:STRIDE:SIZE} (split of world),
 * {@code 2d:XRANGE} (both teams of a 2D split of world, labelled {@code 2d:X.x} and {@code 2d:X.y}).
 */
public final class CollectivesProgram {
    /** Bytes after each destination extent that must stay untouched. */
    static final int GUARD = 64;
    /** Bytes before the destination that must stay untouched (keeps the destination 128-byte aligned). */
    static final int LEAD_GUARD = 128;
    static final byte SENTINEL = 0x5A;

    private final Shmem shmem;
    private final int me;
    private SymmetricSegment src;
    /** The destination's allocation: {@link #LEAD_GUARD} bytes, then {@link #dest}. */
    private SymmetricSegment destBlock;
    private SymmetricSegment dest;
    /** Host memory for this PE's inputs and for reading results (get and put: any heap). */
    private MemorySegment host;
    private List<ReduceOp> onlyOps = List.of(ReduceOp.values());

    private CollectivesProgram(Shmem shmem) {
        this.shmem = shmem;
        this.me = shmem.myPe();
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            List<String> rest = List.of(args).subList(2, args.length);
            CollectivesProgram p = new CollectivesProgram(shmem);
            if (!rest.isEmpty() && rest.get(0).startsWith("ops=")) {
                p.onlyOps = opsFilter(rest.get(0));
                rest = rest.subList(1, rest.size());
            }
            p.run(sizes(args[0]), sizes(args[1]), rest);
            shmem.barrierAll();
            report(shmem.myPe(), "done", "ok");
        }
    }

    static long[] sizes(String csv) {
        return java.util.Arrays.stream(csv.split(",")).mapToLong(Long::parseLong).toArray();
    }

    /** Collect: the element count team PE {@code i} contributes in a call of nominal size {@code n}. */
    static long collectCount(int i, long n) {
        return n * (i % 3) / 2 + i;
    }

    /** Seed of the inputs of one call. */
    static int seed(String call, DType type, long n) {
        return (call + "/" + type + "/" + n).hashCode();
    }

    static List<ReduceOp> opsFilter(String arg) {
        return java.util.Arrays.stream(arg.substring(4).split(",")).map(ReduceOp::valueOf).toList();
    }

    static List<ReduceOp> ops(DType type, List<ReduceOp> only) {
        List<ReduceOp> ops = new ArrayList<>();
        for (ReduceOp op : only) {
            if (type.isInteger() || !op.isBitwise()) {
                ops.add(op);
            }
        }
        return ops;
    }

    /**
     * The operations a reduction of {@code type} runs at the size of index {@code sizeIndex} among
     * {@code sizeCount}: the type's operations dealt round its sizes, the deal turned by one place per type,
     * so that every operation of every type and every size of every type runs, and the pairs of operation
     * and size differ from type to type, in a fifth of the calls of the whole product (and all of them where
     * a job names its operations, {@code ops=}). The check computes the same list.
     */
    static List<ReduceOp> ops(DType type, List<ReduceOp> only, int sizeIndex, int sizeCount) {
        List<ReduceOp> all = ops(type, only);
        if (only.size() < ReduceOp.values().length || all.isEmpty()) {
            return all;
        }
        int turn = (sizeIndex + type.ordinal()) % sizeCount;
        List<ReduceOp> dealt = new ArrayList<>();
        for (int j = 0; j < all.size(); j++) {
            if (j % sizeCount == turn) {
                dealt.add(all.get(j));
            }
        }
        if (dealt.isEmpty()) {   // fewer operations than sizes: this size takes one in turn
            dealt.add(all.get(turn % all.size()));
        }
        return dealt;
    }

    private void run(long[] reduceSizes, long[] otherSizes, List<String> teamSpecs) {
        int n = shmem.nPes();
        long maxReduce = java.util.Arrays.stream(reduceSizes).max().orElse(1) * 8;
        long maxOther = java.util.Arrays.stream(otherSizes).max().orElse(1) * 8 * n * 2;   // collect needs ~1.5 n
        long bytes = Math.max(maxReduce, maxOther) + 2 * GUARD;
        src = shmem.malloc(bytes);
        destBlock = shmem.malloc(LEAD_GUARD + bytes);
        dest = destBlock.asSlice(LEAD_GUARD, bytes);
        host = LocalCopy.buffer(LEAD_GUARD + bytes);
        try (JobTeams teams = new JobTeams(shmem, teamSpecs)) {
            teams.forEachMember((label, t) -> exercise(t, label, reduceSizes, otherSizes));
        }
        shmem.free(destBlock);
        shmem.free(src);
    }

    private void exercise(Team t, String label, long[] reduceSizes, long[] otherSizes) {
        for (DType type : DType.values()) {
            int size = type.byteSize();
            for (int si = 0; si < reduceSizes.length; si++) {
                long n = reduceSizes[si];
                long ext = n * size;
                int seed = seed("reduce", type, n);
                fillSource(type, n, seed);
                List<ReduceOp> ops = ops(type, onlyOps, si, reduceSizes.length);
                for (ReduceOp op : ops) {
                    prepare(ext);
                    t.reduce(op, type, dest.asSlice(0, ext), src.asSlice(0, ext), n);
                    result(label + ".reduce." + type + "." + op + "." + n, ext);
                }
                for (ReduceOp op : ops) {
                    prepare(ext);
                    LocalCopy.copy(shmem, src, 0, dest, 0, ext);
                    SymmetricSegment d = dest.asSlice(0, ext);
                    t.reduce(op, type, d, d, n);
                    result(label + ".inplace." + type + "." + op + "." + n, ext);
                }
            }
            for (int si = 0; si < otherSizes.length; si++) {
                long n = otherSizes[si];
                long ext = n * size;
                int np = t.nPes();
                // fcollect
                int seed = seed("fcollect", type, n);
                fillSource(type, n, seed);
                prepare(ext * np);
                t.fcollect(dest.asSlice(0, ext * np), src.asSlice(0, ext), n, type);
                result(label + ".fcollect." + type + "." + n, ext * np);
                // collect
                seed = seed("collect", type, n);
                long mine = collectCount(t.myPe(), n);
                fillSource(type, mine, seed);
                long total = 0;
                for (int i = 0; i < np; i++) {
                    total += collectCount(i, n);
                }
                prepare(total * size);
                long got = t.collect(dest, src.asSlice(0, mine * size), mine, type);
                result(label + ".collect." + type + "." + n, total * size);
                report(me, label + ".collect-total." + type + "." + n, got);
                // broadcast from the first and the last member
                seed = seed("broadcast", type, n);
                fillSource(type, n, seed);
                for (int root : new int[] {0, np - 1}) {
                    prepare(ext);
                    t.broadcast(dest.asSlice(0, ext), src.asSlice(0, ext), n, root, type);
                    result(label + ".broadcast." + type + "." + n + ".root" + root, ext);
                }
                // broadcast in place (dest == src)
                prepare(ext);
                LocalCopy.copy(shmem, src, 0, dest, 0, ext);
                t.broadcast(dest.asSlice(0, ext), dest.asSlice(0, ext), n, np - 1, type);
                result(label + ".broadcast-inplace." + type + "." + n, ext);
                // alltoall: block j of my source is elements j*n .. j*n+n-1 of my data
                seed = seed("alltoall", type, n);
                fillSource(type, n * np, seed);
                prepare(ext * np);
                t.alltoall(dest.asSlice(0, ext * np), src.asSlice(0, ext * np), n, type);
                result(label + ".alltoall." + type + "." + n, ext * np);
                // reduce-scatter: each member's block of the reduction of n * np elements
                seed = seed("reducescatter", type, n);
                fillSource(type, n * np, seed);
                for (ReduceOp op : ops(type, onlyOps, si, otherSizes.length)) {
                    prepare(ext);
                    t.reduceScatter(op, type, dest.asSlice(0, ext), src.asSlice(0, ext * np), n);
                    result(label + ".reducescatter." + type + "." + op + "." + n, ext);
                }
                // prefix sums (OpenSHMEM 1.6): inclusive, exclusive, and inclusive in place
                seed = seed("scan", type, n);
                fillSource(type, n, seed);
                prepare(ext);
                t.sumInscan(type, dest.asSlice(0, ext), src.asSlice(0, ext), n);
                result(label + ".inscan." + type + "." + n, ext);
                prepare(ext);
                t.sumExscan(type, dest.asSlice(0, ext), src.asSlice(0, ext), n);
                result(label + ".exscan." + type + "." + n, ext);
                prepare(ext);
                LocalCopy.copy(shmem, src, 0, dest, 0, ext);
                t.sumInscan(type, dest.asSlice(0, ext), dest.asSlice(0, ext), n);
                result(label + ".inscan-inplace." + type + "." + n, ext);
            }
        }
        t.barrier();
        t.sync();
    }

    /** Writes elements {@code 0 .. count-1} of this PE's data to the start of its source (in the heap on return). */
    private void fillSource(DType type, long count, int seed) {
        MemorySegment data = host.asSlice(0, count * type.byteSize());
        CollData.fill(data, 0, type, me, 0, count, seed);
        LocalCopy.write(shmem, src, 0, data);
    }

    /** Fills the destination extent and the guards before and after it with the sentinel. */
    private void prepare(long ext) {
        LocalCopy.fill(shmem, destBlock, 0, LEAD_GUARD + ext + GUARD, SENTINEL);
    }

    /** Reports the CRC of the destination extent, read with one get with its guards, and whether a guard changed. */
    private void result(String key, long ext) {
        MemorySegment d = LocalCopy.read(shmem, destBlock, 0, host.asSlice(0, LEAD_GUARD + ext + GUARD));
        boolean guard = true;
        for (long i = 0; i < LEAD_GUARD; i++) {
            guard &= d.get(java.lang.foreign.ValueLayout.JAVA_BYTE, i) == SENTINEL;
        }
        for (long i = LEAD_GUARD + ext; i < LEAD_GUARD + ext + GUARD; i++) {
            guard &= d.get(java.lang.foreign.ValueLayout.JAVA_BYTE, i) == SENTINEL;
        }
        report(me, key, CollData.crc(d.asSlice(LEAD_GUARD, ext)) + (guard ? "" : " GUARD-OVERWRITTEN"));
    }
}
