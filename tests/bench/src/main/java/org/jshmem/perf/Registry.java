package org.jshmem.perf;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Every benchmark family of the suite. Adding one is a class implementing
 * {@link BenchmarkFamily} and a line here; the command line, the CSV, the charts and the smoke
 * test pick it up from this list.
 */
public final class Registry {
    /** The families, in the order {@code all} runs them. */
    static final List<BenchmarkFamily> FAMILIES = List.of(
            new BandwidthFamily(),
            new LatencyFamily(),
            new AtomicFamily(),
            new ContextFamily(),
            new SyncFamily(),
            new CollectiveFamily());

    /** Every benchmark, built once (a benchmark is compared by name, its lambdas make each build distinct). */
    private static final List<Benchmark> ALL = build();

    private Registry() {
    }

    private static List<Benchmark> build() {
        List<Benchmark> l = new ArrayList<>();
        Set<String> names = new LinkedHashSet<>();
        for (BenchmarkFamily f : FAMILIES) {
            for (Benchmark b : f.benchmarks()) {
                if (!names.add(b.name())) {
                    throw new IllegalStateException("two benchmarks are called " + b.name());
                }
                l.add(b);
            }
        }
        return List.copyOf(l);
    }

    public static List<BenchmarkFamily> families() {
        return FAMILIES;
    }

    /** Every benchmark, in running order. */
    public static List<Benchmark> all() {
        return ALL;
    }

    /** The benchmarks of family {@code name}, as {@link #all()} holds them. */
    public static List<Benchmark> ofFamily(String name) {
        return ALL.stream().filter(b -> b.family().equals(name)).toList();
    }

    public static Optional<Benchmark> find(String name) {
        return all().stream().filter(b -> b.name().equals(name)).findFirst();
    }

    /**
     * The benchmarks that {@code selectors} name: benchmark names, family names, or {@code all};
     * in running order, each once.
     *
     * @throws IllegalArgumentException naming what is unknown and what exists
     */
    public static List<Benchmark> select(List<String> selectors) {
        Set<String> chosen = new LinkedHashSet<>();
        for (String s : selectors) {
            if (s.equals("all")) {
                ALL.forEach(b -> chosen.add(b.name()));
                continue;
            }
            if (FAMILIES.stream().anyMatch(f -> f.name().equals(s))) {
                ofFamily(s).forEach(b -> chosen.add(b.name()));
                continue;
            }
            chosen.add(find(s).map(Benchmark::name).orElseThrow(() -> new IllegalArgumentException("unknown benchmark '" + s
                    + "'. Benchmarks: " + String.join(", ", all().stream().map(Benchmark::name).toList())
                    + "; families: " + String.join(", ", FAMILIES.stream().map(BenchmarkFamily::name).toList())
                    + "; or all")));
        }
        return ALL.stream().filter(b -> chosen.contains(b.name())).toList();
    }
}
