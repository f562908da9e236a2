package org.jshmem.perf;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.jshmem.Shmem;

/**
 * How a benchmark's operations are issued: from the host ({@link HostForm}), enqueued on a GPU
 * stream ({@link OnStreamForm}), or from device code ({@link DeviceForm}). The harness (warm-up,
 * repetitions, statistics, output) is the same for every form; a form supplies the timed loop of
 * each case it implements, and may give a benchmark its own operations, types, default sizes and
 * iteration counts (the GPU forms use the NVSHMEM anchor's).
 *
 * <p>A new form is a class implementing this interface, listed in
 * {@code META-INF/services/org.jshmem.perf.Form} (or added to {@link Forms#builtIn()}), that
 * builds its loops from a benchmark's {@link Benchmark#name() name}, op, type and size.
 * Benchmarks it does not implement are reported as skipped.
 */
public interface Form extends AutoCloseable {
    /** The name given to {@code --form}, e.g. {@code host}. Also the CSV's {@code form} column. */
    String name();

    /** One line for {@code --help}. */
    String description();

    /** Why this form cannot run with this PE's backend (e.g. no GPU heap), or empty when it can. */
    Optional<String> unavailableReason(Shmem shmem);

    /** Whether this form implements {@code benchmark}. */
    boolean supports(Benchmark benchmark);

    /**
     * The operations this form measures of {@code b} (the CSV's {@code op} column): the
     * benchmark's by default; a form may leave some out or add its own (the device form's
     * {@code raw} flag ping-pong beside {@code p}).
     */
    default List<String> ops(Benchmark b) {
        return b.ops();
    }

    /** The element types this form measures of {@code b}: the benchmark's by default. */
    default List<String> types(Benchmark b) {
        return b.types();
    }

    /** The default size sweep of {@code b} in this form (when no size option is given): the benchmark's by default. */
    default Sizes sizes(Benchmark b) {
        return b.sizes();
    }

    /** Default iterations per repetition of a case in this form ({@code --iters} overrides): the benchmark's by default. */
    default long iterations(Case c) {
        return c.benchmark().iterations().applyAsLong(c.size());
    }

    /** How {@code b} is measured in this form, printed above its table: the benchmark's by default. */
    default String method(Benchmark b) {
        return b.method();
    }

    /**
     * The timed loop for one case. Called on every PE, in the same order, after the benchmark's
     * buffers are allocated; may allocate nothing symmetric (allocation is collective and done
     * once per benchmark by {@link PerfContext}).
     */
    TimedLoop loop(Case c, PerfContext ctx);

    /** How far above {@link #bandwidthCeiling} a transfer figure may lie before it is flagged as a measurement fault. */
    double CEILING_MARGIN = 1.25;

    /**
     * Called on PE 0 before each transfer case: the highest one-direction rate (GB/s) this form
     * reaches between PE 0 and its partner, measured now; figures above it times
     * {@link #CEILING_MARGIN} are flagged. Empty where no such rate can be read (the host form: caches
     * make small host copies legitimately faster than memory).
     */
    default OptionalDouble bandwidthCeiling(PerfContext ctx) {
        return OptionalDouble.empty();
    }

    /** Called on every PE after the last benchmark, before jshmem closes: frees what the form made (streams, modules). */
    @Override
    default void close() {
    }
}
