package org.jshmem.perf;

import java.util.List;
import java.util.Objects;
import java.util.function.LongUnaryOperator;

/**
 * A benchmark of the suite: what it measures, over which operations, element types and sizes,
 * how it turns a timed loop into a figure, and its host-form loop. Made by a
 * {@link BenchmarkFamily} with {@link #named(String)}.
 *
 * @param name        the name given on the command line and written in the CSV, e.g. {@code put_bw}
 * @param family      the family that defines it
 * @param summary     one line for {@code --help} and {@code --list}
 * @param method      how it is measured, printed above its table
 * @param metric      what the figure is
 * @param sizes       the default size sweep, or {@code null} for a benchmark without a message size
 * @param ops         the operations it measures (the CSV's {@code op} column)
 * @param types       the element types (the CSV's {@code type} column)
 * @param iterations  default iterations per repetition for a message size
 * @param work        work one iteration does (bytes, operations or one-way trips) for a case on n PEs
 * @param pairs       which op and type combinations exist (e.g. no bitwise reduction of floats)
 * @param buffers     bytes of each of the source and destination buffers for the largest size on n PEs
 *                    (the size itself for point-to-point; n times it for fcollect or alltoall)
 * @param host        the host-form loop, or {@code null} when the host form does not implement it
 */
public record Benchmark(String name, String family, String summary, String method, Metric metric, Sizes sizes,
                        List<String> ops, List<String> types, Pairs pairs, LongUnaryOperator iterations,
                        Work work, Buffers buffers, HostLoop host) {

    /** Work done by one iteration of a case on {@code nPes} PEs: bytes, operations or one-way trips. */
    @FunctionalInterface
    public interface Work {
        double of(Case c, int nPes);
    }

    /** Whether an op and a type make a case. */
    @FunctionalInterface
    public interface Pairs {
        boolean exist(String op, String type);
    }

    /** Bytes of each symmetric buffer a benchmark needs for messages up to {@code maxSize} on {@code nPes} PEs. */
    @FunctionalInterface
    public interface Buffers {
        long bytes(long maxSize, int nPes);
    }

    /** Builds the host-form loop of a case. */
    @FunctionalInterface
    public interface HostLoop {
        TimedLoop loop(Case c, PerfContext ctx);
    }

    public Benchmark {
        Objects.requireNonNull(name);
        Objects.requireNonNull(metric);
        ops = List.copyOf(ops);
        types = List.copyOf(types);
    }

    /** Whether it sweeps message sizes. */
    public boolean sized() {
        return sizes != null;
    }

    /** Element size in bytes of a type name ({@code byte} for untyped transfers, {@code -} for none). */
    public static long width(String type) {
        return switch (type) {
            case "byte" -> 1;
            case "short", "fp16", "bf16" -> 2;
            case "int", "float" -> 4;
            case "long", "double" -> 8;
            default -> 0;
        };
    }

    /** Starts a benchmark definition. */
    public static Builder named(String name) {
        return new Builder(name);
    }

    /** Fluent construction of a {@link Benchmark}. */
    public static final class Builder {
        private final String name;
        private String family = "";
        private String summary = "";
        private String method = "";
        private Metric metric;
        private Sizes sizes;
        private List<String> ops = List.of();
        private List<String> types = List.of("byte");
        private Pairs pairs = (op, type) -> true;
        private LongUnaryOperator iterations = size -> 1000;
        private Work work = (c, n) -> 1;
        private Buffers buffers = (max, n) -> max;
        private HostLoop host;

        private Builder(String name) {
            this.name = name;
        }

        public Builder family(String f) {
            family = f;
            return this;
        }

        public Builder summary(String s) {
            summary = s;
            return this;
        }

        public Builder method(String m) {
            method = m;
            return this;
        }

        public Builder metric(Metric m) {
            metric = m;
            return this;
        }

        public Builder sizes(Sizes s) {
            sizes = s;
            return this;
        }

        public Builder ops(String... o) {
            ops = List.of(o);
            return this;
        }

        public Builder ops(List<String> o) {
            ops = o;
            return this;
        }

        public Builder types(String... t) {
            types = List.of(t);
            return this;
        }

        public Builder pairs(Pairs p) {
            pairs = p;
            return this;
        }

        public Builder types(List<String> t) {
            types = t;
            return this;
        }

        public Builder iterations(LongUnaryOperator i) {
            iterations = i;
            return this;
        }

        public Builder work(Work w) {
            work = w;
            return this;
        }

        public Builder buffers(Buffers b) {
            buffers = b;
            return this;
        }

        public Builder host(HostLoop h) {
            host = h;
            return this;
        }

        public Benchmark build() {
            return new Benchmark(name, family, summary, method, metric, sizes, ops, types, pairs, iterations, work,
                    buffers, host);
        }
    }
}
