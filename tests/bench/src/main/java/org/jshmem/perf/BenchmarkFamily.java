package org.jshmem.perf;

import java.util.List;

/**
 * A group of related benchmarks (bandwidth, latency, atomics, contexts, synchronisation, collectives),
 * one class each, listed in {@link Registry}. A new family is a class implementing this and a
 * line in {@link Registry#FAMILIES}.
 */
public interface BenchmarkFamily {
    /** The family's name; on the command line it selects all of its benchmarks. */
    String name();

    /** Its benchmarks, in the order they run. */
    List<Benchmark> benchmarks();
}
