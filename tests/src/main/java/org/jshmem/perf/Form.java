package org.jshmem.perf;

import java.util.Optional;
import org.jshmem.Shmem;

/**
 * How a benchmark's operations are issued: from the host ({@link HostForm}), enqueued on a GPU
 * stream ({@code on_stream}), or from device code ({@code device}). The harness (warm-up,
 * repetitions, statistics, output) is the same for every form; a form only supplies the timed
 * loop of each case it implements.
 *
 * <p>The GPU forms plug in here: a class implementing this interface, listed in
 * {@code META-INF/services/org.jshmem.perf.Form} (or added to {@link Forms#builtIn()}), that
 * builds its loops from a benchmark's {@link Benchmark#name() name}, op, type and size, for
 * example with a kernel launch timed by CUDA events. Benchmarks it does not implement are
 * reported as skipped.
 */
public interface Form {
    /** The name given to {@code --form}, e.g. {@code host}. Also the CSV's {@code form} column. */
    String name();

    /** One line for {@code --help}. */
    String description();

    /** Why this form cannot run with this PE's backend (e.g. no GPU heap), or empty when it can. */
    Optional<String> unavailableReason(Shmem shmem);

    /** Whether this form implements {@code benchmark}. */
    boolean supports(Benchmark benchmark);

    /**
     * The timed loop for one case. Called on every PE, in the same order, after the benchmark's
     * buffers are allocated; may allocate nothing symmetric (allocation is collective and done
     * once per benchmark by {@link PerfContext}).
     */
    TimedLoop loop(Case c, PerfContext ctx);
}
