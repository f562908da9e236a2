package org.jshmem.perf;

import java.util.List;
import java.util.Locale;
import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.Shmem;
import org.jshmem.SymmetricSegment;
import org.jshmem.Team;

/**
 * Collectives of the world team: broadcast, fcollect, alltoall, reduce (every op on every
 * type) and reduce-scatter (sum). Sizes are bytes per PE (reduce-scatter: of each PE's block). Each iteration is the collective then a {@code barrier_all},
 * as the OpenSHMEM anchor times {@code sum_to_all} and {@code fcollect64}; the figure is time per
 * iteration on PE 0.
 */
public final class CollectiveFamily implements BenchmarkFamily {
    static final Sizes SIZES = Sizes.sweep(8, 8L << 20, 2);
    /** The anchor's sizes: reduce has 44 op and type pairs, so its default sweep is sparser. */
    static final Sizes REDUCE_SIZES = Sizes.sweep(8, 8L << 20, 16);
    static final List<String> REDUCE_TYPES = List.of("byte", "short", "int", "long", "float", "double", "fp16", "bf16");
    static final List<String> REDUCE_OPS = List.of("sum", "prod", "min", "max", "and", "or", "xor");

    @Override
    public String name() {
        return "collective";
    }

    @Override
    public List<Benchmark> benchmarks() {
        String each = "; every PE calls it then barrier_all, n times; time on PE 0 / n";
        return List.of(
                Benchmark.named("broadcast").family(name())
                        .summary("broadcast from PE 0 of the world team, latency per call").metric(Metric.LATENCY)
                        .method("team_world.broadcast(dest, src, size / 8 longs, root 0)" + each)
                        .sizes(SIZES).ops("broadcast").types("long")
                        .iterations(Iterations::collective).work((c, n) -> 1)
                        .host(CollectiveFamily::broadcast).build(),
                Benchmark.named("fcollect").family(name())
                        .summary("fcollect (all-gather) of the world team, latency per call").metric(Metric.LATENCY)
                        .method("team_world.fcollect(dest, src, size / 8 longs): n PEs x size into dest" + each)
                        .sizes(SIZES).ops("fcollect").types("long")
                        .iterations(Iterations::collective).work((c, n) -> 1).buffers((max, n) -> max * n)
                        .host(CollectiveFamily::fcollect).build(),
                Benchmark.named("alltoall").family(name())
                        .summary("alltoall of the world team, latency per call (size per PE pair)").metric(Metric.LATENCY)
                        .method("team_world.alltoall(dest, src, size / 8 longs per PE): n blocks of size each way" + each)
                        .sizes(SIZES).ops("alltoall").types("long")
                        .iterations(Iterations::collective).work((c, n) -> 1).buffers((max, n) -> max * n)
                        .host(CollectiveFamily::alltoall).build(),
                Benchmark.named("reduce").family(name())
                        .summary("all-reduce of the world team, every op on every type, latency per call")
                        .metric(Metric.LATENCY)
                        .method("team_world.reduce(op, type, dest, src, size / element size)" + each)
                        .sizes(REDUCE_SIZES).ops(REDUCE_OPS).types(REDUCE_TYPES)
                        .pairs((op, type) -> !ReduceOp.valueOf(upper(op)).isBitwise() || DType.valueOf(upper(type)).isInteger())
                        .iterations(Iterations::collective).work((c, n) -> 1)
                        .host(CollectiveFamily::reduce).build(),
                Benchmark.named("reduce_scatter").family(name())
                        .summary("reduce-scatter of the world team (PE i gets block i of the sum), latency per call")
                        .metric(Metric.LATENCY)
                        .method("team_world.reduceScatter(sum, type, dest, src, size / element size per PE): src holds"
                                + " n blocks of size" + each)
                        .sizes(REDUCE_SIZES).ops("sum").types(List.of("int", "long", "float", "double", "fp16", "bf16"))
                        .iterations(Iterations::collective).work((c, n) -> 1).buffers((max, n) -> max * n)
                        .host(CollectiveFamily::reduceScatter).build());
    }

    private static String upper(String s) {
        return s.toUpperCase(Locale.ROOT);
    }

    /** Times n (collective + barrier_all). */
    private static TimedLoop timed(Shmem shmem, Runnable collective) {
        return n -> {
            long t0 = System.nanoTime();
            for (long i = 0; i < n; i++) {
                collective.run();
                shmem.barrierAll();
            }
            return System.nanoTime() - t0;
        };
    }

    private static TimedLoop broadcast(Case c, PerfContext ctx) {
        Shmem shmem = ctx.shmem();
        Team world = shmem.teamWorld();
        SymmetricSegment dst = ctx.dst().asSlice(0, c.size());
        SymmetricSegment src = ctx.src().asSlice(0, c.size());
        long count = c.size() / Long.BYTES;
        return timed(shmem, () -> world.broadcast(dst, src, count, 0, DType.LONG));
    }

    private static TimedLoop fcollect(Case c, PerfContext ctx) {
        Shmem shmem = ctx.shmem();
        Team world = shmem.teamWorld();
        SymmetricSegment dst = ctx.dst().asSlice(0, c.size() * ctx.nPes());
        SymmetricSegment src = ctx.src().asSlice(0, c.size());
        long count = c.size() / Long.BYTES;
        return timed(shmem, () -> world.fcollect(dst, src, count, DType.LONG));
    }

    private static TimedLoop alltoall(Case c, PerfContext ctx) {
        Shmem shmem = ctx.shmem();
        Team world = shmem.teamWorld();
        SymmetricSegment dst = ctx.dst().asSlice(0, c.size() * ctx.nPes());
        SymmetricSegment src = ctx.src().asSlice(0, c.size() * ctx.nPes());
        long count = c.size() / Long.BYTES;
        return timed(shmem, () -> world.alltoall(dst, src, count, DType.LONG));
    }

    private static TimedLoop reduce(Case c, PerfContext ctx) {
        Shmem shmem = ctx.shmem();
        Team world = shmem.teamWorld();
        ReduceOp op = ReduceOp.valueOf(upper(c.op()));
        DType type = DType.valueOf(upper(c.type()));
        SymmetricSegment dst = ctx.dst().asSlice(0, c.size());
        SymmetricSegment src = ctx.src().asSlice(0, c.size());
        Ones.fill(shmem, src, type);
        long count = c.size() / type.byteSize();
        return timed(shmem, () -> world.reduce(op, type, dst, src, count));
    }

    private static TimedLoop reduceScatter(Case c, PerfContext ctx) {
        Shmem shmem = ctx.shmem();
        Team world = shmem.teamWorld();
        DType type = DType.valueOf(upper(c.type()));
        SymmetricSegment dst = ctx.dst().asSlice(0, c.size());
        SymmetricSegment src = ctx.src().asSlice(0, c.size() * ctx.nPes());
        Ones.fill(shmem, src, type);
        long count = c.size() / type.byteSize();
        return timed(shmem, () -> world.reduceScatter(ReduceOp.SUM, type, dst, src, count));
    }

}
