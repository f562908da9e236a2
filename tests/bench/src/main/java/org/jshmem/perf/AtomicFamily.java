package org.jshmem.perf;

import java.util.List;
import org.jshmem.Shmem;
import org.jshmem.SymmetricSegment;

/**
 * Remote atomics, every operation of the API on int and long (and fetch/set/swap on float and
 * double): latency (PE 0 alone issues them
 * to PE 1, one after another, as the anchor's fetch-add loop) and rate (every PE issues them to
 * its right neighbour at once, then quiet and sync_all; operations of all PEs per second).
 */
public final class AtomicFamily implements BenchmarkFamily {
    /** The operations, named as OpenSHMEM's {@code shmem_atomic_*} functions. */
    public static final List<String> OPS = List.of("fetch", "set", "swap", "compare_swap", "add", "fetch_add", "inc",
            "fetch_inc", "and", "fetch_and", "or", "fetch_or", "xor", "fetch_xor");

    /** The operations OpenSHMEM's extended AMOs have on float and double. */
    public static final List<String> FP_OPS = List.of("fetch", "set", "swap");

    static volatile long sink;

    /** Issues {@code n} atomics of one kind at {@code pe}; its own loop, so that the call target is fixed. */
    @FunctionalInterface
    interface Kernel {
        void issue(long n, int pe);
    }

    @Override
    public String name() {
        return "atomic";
    }

    @Override
    public List<Benchmark> benchmarks() {
        return List.of(
                Benchmark.named("atomic_latency").family(name())
                        .summary("latency of each atomic operation on int and long")
                        .method("PE 0 issues n atomics of the kind on PE 1's counter, one after another; time on"
                                + " PE 0 / n")
                        .metric(Metric.LATENCY).ops(OPS).types("int", "long")
                        .iterations(Iterations::scalar).work((c, n) -> 1)
                        .host((c, ctx) -> loop(c, ctx, false)).build(),
                Benchmark.named("atomic_fp_latency").family(name())
                        .summary("latency of the float and double atomics (fetch, set, swap)")
                        .method("PE 0 issues n atomics of the kind on PE 1's word, one after another; time on PE 0 / n")
                        .metric(Metric.LATENCY).ops(FP_OPS).types("float", "double")
                        .iterations(Iterations::scalar).work((c, n) -> 1)
                        .host((c, ctx) -> loop(c, ctx, false)).build(),
                Benchmark.named("atomic_rate").family(name())
                        .summary("throughput of each atomic operation, all PEs at once")
                        .method("every PE issues n atomics of the kind on its right neighbour's counter, then quiet"
                                + " and sync_all; time on PE 0; operations of all PEs")
                        .metric(Metric.RATE).ops(OPS).types("int", "long")
                        .iterations(Iterations::scalar).work((c, n) -> n)
                        .host((c, ctx) -> loop(c, ctx, true)).build());
    }

    private static TimedLoop loop(Case c, PerfContext ctx, boolean allPes) {
        Shmem shmem = ctx.shmem();
        Kernel k = switch (c.type()) {
            case "int" -> intKernel(c.op(), shmem, ctx.flags());
            case "long" -> longKernel(c.op(), shmem, ctx.flags());
            default -> fpKernel(c.op(), c.type().equals("double"), shmem, ctx.flags());
        };
        int target = allPes ? ctx.right() : ctx.partner();
        boolean active = allPes || ctx.root();
        return n -> {
            long t0 = System.nanoTime();
            if (active) {
                k.issue(n, target);
            }
            if (allPes) {
                shmem.quiet();
                shmem.syncAll();
            }
            return System.nanoTime() - t0;
        };
    }

    private static Kernel fpKernel(String op, boolean wide, Shmem s, SymmetricSegment seg) {
        long at = PerfContext.COUNTER;
        return switch (op + (wide ? "/double" : "/float")) {
            case "fetch/float" -> (n, pe) -> {
                float acc = 0;
                for (long i = 0; i < n; i++) {
                    acc += s.atomicFetchFloat(seg, at, pe);
                }
                sink = (long) acc;
            };
            case "set/float" -> (n, pe) -> {
                for (long i = 0; i < n; i++) {
                    s.atomicSetFloat(seg, at, i, pe);
                }
            };
            case "swap/float" -> (n, pe) -> {
                float acc = 0;
                for (long i = 0; i < n; i++) {
                    acc += s.atomicSwapFloat(seg, at, i, pe);
                }
                sink = (long) acc;
            };
            case "fetch/double" -> (n, pe) -> {
                double acc = 0;
                for (long i = 0; i < n; i++) {
                    acc += s.atomicFetchDouble(seg, at, pe);
                }
                sink = (long) acc;
            };
            case "set/double" -> (n, pe) -> {
                for (long i = 0; i < n; i++) {
                    s.atomicSetDouble(seg, at, i, pe);
                }
            };
            case "swap/double" -> (n, pe) -> {
                double acc = 0;
                for (long i = 0; i < n; i++) {
                    acc += s.atomicSwapDouble(seg, at, i, pe);
                }
                sink = (long) acc;
            };
            default -> throw new IllegalArgumentException(op);
        };
    }

    private static Kernel intKernel(String op, Shmem s, SymmetricSegment seg) {
        long at = PerfContext.COUNTER;
        return switch (op) {
            case "fetch" -> (n, pe) -> {
                long acc = 0;
                for (long i = 0; i < n; i++) {
                    acc += s.atomicFetchInt(seg, at, pe);
                }
                sink = acc;
            };
            case "set" -> (n, pe) -> {
                for (long i = 0; i < n; i++) {
                    s.atomicSetInt(seg, at, (int) i, pe);
                }
            };
            case "swap" -> (n, pe) -> {
                long acc = 0;
                for (long i = 0; i < n; i++) {
                    acc += s.atomicSwapInt(seg, at, (int) i, pe);
                }
                sink = acc;
            };
            case "compare_swap" -> (n, pe) -> {
                long acc = 0;
                for (long i = 0; i < n; i++) {
                    acc += s.atomicCompareSwapInt(seg, at, 0, 0, pe);
                }
                sink = acc;
            };
            case "add" -> (n, pe) -> {
                for (long i = 0; i < n; i++) {
                    s.atomicAddInt(seg, at, 1, pe);
                }
            };
            case "fetch_add" -> (n, pe) -> {
                long acc = 0;
                for (long i = 0; i < n; i++) {
                    acc += s.atomicFetchAddInt(seg, at, 1, pe);
                }
                sink = acc;
            };
            case "inc" -> (n, pe) -> {
                for (long i = 0; i < n; i++) {
                    s.atomicIncInt(seg, at, pe);
                }
            };
            case "fetch_inc" -> (n, pe) -> {
                long acc = 0;
                for (long i = 0; i < n; i++) {
                    acc += s.atomicFetchIncInt(seg, at, pe);
                }
                sink = acc;
            };
            case "and" -> (n, pe) -> {
                for (long i = 0; i < n; i++) {
                    s.atomicAndInt(seg, at, -1, pe);
                }
            };
            case "fetch_and" -> (n, pe) -> {
                long acc = 0;
                for (long i = 0; i < n; i++) {
                    acc += s.atomicFetchAndInt(seg, at, -1, pe);
                }
                sink = acc;
            };
            case "or" -> (n, pe) -> {
                for (long i = 0; i < n; i++) {
                    s.atomicOrInt(seg, at, 1, pe);
                }
            };
            case "fetch_or" -> (n, pe) -> {
                long acc = 0;
                for (long i = 0; i < n; i++) {
                    acc += s.atomicFetchOrInt(seg, at, 1, pe);
                }
                sink = acc;
            };
            case "xor" -> (n, pe) -> {
                for (long i = 0; i < n; i++) {
                    s.atomicXorInt(seg, at, 1, pe);
                }
            };
            case "fetch_xor" -> (n, pe) -> {
                long acc = 0;
                for (long i = 0; i < n; i++) {
                    acc += s.atomicFetchXorInt(seg, at, 1, pe);
                }
                sink = acc;
            };
            default -> throw new IllegalArgumentException(op);
        };
    }

    private static Kernel longKernel(String op, Shmem s, SymmetricSegment seg) {
        long at = PerfContext.COUNTER;
        return switch (op) {
            case "fetch" -> (n, pe) -> {
                long acc = 0;
                for (long i = 0; i < n; i++) {
                    acc += s.atomicFetchLong(seg, at, pe);
                }
                sink = acc;
            };
            case "set" -> (n, pe) -> {
                for (long i = 0; i < n; i++) {
                    s.atomicSetLong(seg, at, i, pe);
                }
            };
            case "swap" -> (n, pe) -> {
                long acc = 0;
                for (long i = 0; i < n; i++) {
                    acc += s.atomicSwapLong(seg, at, i, pe);
                }
                sink = acc;
            };
            case "compare_swap" -> (n, pe) -> {
                long acc = 0;
                for (long i = 0; i < n; i++) {
                    acc += s.atomicCompareSwapLong(seg, at, 0, 0, pe);
                }
                sink = acc;
            };
            case "add" -> (n, pe) -> {
                for (long i = 0; i < n; i++) {
                    s.atomicAddLong(seg, at, 1, pe);
                }
            };
            case "fetch_add" -> (n, pe) -> {
                long acc = 0;
                for (long i = 0; i < n; i++) {
                    acc += s.atomicFetchAddLong(seg, at, 1, pe);
                }
                sink = acc;
            };
            case "inc" -> (n, pe) -> {
                for (long i = 0; i < n; i++) {
                    s.atomicIncLong(seg, at, pe);
                }
            };
            case "fetch_inc" -> (n, pe) -> {
                long acc = 0;
                for (long i = 0; i < n; i++) {
                    acc += s.atomicFetchIncLong(seg, at, pe);
                }
                sink = acc;
            };
            case "and" -> (n, pe) -> {
                for (long i = 0; i < n; i++) {
                    s.atomicAndLong(seg, at, -1, pe);
                }
            };
            case "fetch_and" -> (n, pe) -> {
                long acc = 0;
                for (long i = 0; i < n; i++) {
                    acc += s.atomicFetchAndLong(seg, at, -1, pe);
                }
                sink = acc;
            };
            case "or" -> (n, pe) -> {
                for (long i = 0; i < n; i++) {
                    s.atomicOrLong(seg, at, 1, pe);
                }
            };
            case "fetch_or" -> (n, pe) -> {
                long acc = 0;
                for (long i = 0; i < n; i++) {
                    acc += s.atomicFetchOrLong(seg, at, 1, pe);
                }
                sink = acc;
            };
            case "xor" -> (n, pe) -> {
                for (long i = 0; i < n; i++) {
                    s.atomicXorLong(seg, at, 1, pe);
                }
            };
            case "fetch_xor" -> (n, pe) -> {
                long acc = 0;
                for (long i = 0; i < n; i++) {
                    acc += s.atomicFetchXorLong(seg, at, 1, pe);
                }
                sink = acc;
            };
            default -> throw new IllegalArgumentException(op);
        };
    }
}
