package org.jshmem.perf;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What the command line chose for a run; the same on every PE, so every PE walks the same
 * cases with the same iteration counts (each case's barriers must match).
 *
 * @param sizes      explicit message sizes, or {@code null}
 * @param min        smallest size of the sweep, or {@code null} for the benchmark's default
 * @param max        largest size of the sweep, or {@code null} for the benchmark's default
 * @param factor     step of the sweep, or {@code null}: the benchmark's default sweep when min and max
 *                   are not given either, else 2
 * @param iterations iterations per repetition, or {@code null} for the benchmark's default
 * @param reps       timed repetitions
 * @param warmup     untimed repetitions before them (at least)
 * @param warmupMillis warm-up goes on until PE 0 has spent at least this long in it (the JIT
 *                   compiles the loop meanwhile)
 * @param ops        only these operations, or empty for all
 * @param types      only these element types, or empty for all
 */
public record RunOptions(List<Long> sizes, Long min, Long max, Long factor, Long iterations, int reps, int warmup,
                         long warmupMillis,
                         Set<String> ops, Set<String> types) {

    /** The cases of {@code b} these options select in the host form. */
    public List<Case> cases(Benchmark b) {
        return cases(b, Forms.HOST);
    }

    /**
     * The cases of {@code b} these options select in form {@code f} (its operations, types and
     * default sizes of {@code b}), op by op, type by type, size by size.
     */
    public List<Case> cases(Benchmark b, Form f) {
        List<Case> l = new ArrayList<>();
        for (String op : f.ops(b)) {
            if (!ops.isEmpty() && !ops.contains(op)) {
                continue;
            }
            for (String type : f.types(b)) {
                if ((!types.isEmpty() && !types.contains(type)) || !b.pairs().exist(op, type)) {
                    continue;
                }
                long width = Benchmark.width(type);
                for (long size : sizesOf(b, type, f)) {
                    if (width == 0 || size % width == 0) {      // whole elements only
                        l.add(new Case(b, op, type, size));
                    }
                }
            }
        }
        return l;
    }

    /** Message sizes of {@code b} for elements of {@code type} in the host form. */
    public List<Long> sizesOf(Benchmark b, String type) {
        return sizesOf(b, type, Forms.HOST);
    }

    /** Message sizes of {@code b} for elements of {@code type} in form {@code f}: the sweep, or the element size. */
    public List<Long> sizesOf(Benchmark b, String type, Form f) {
        if (!b.sized()) {
            return List.of(Benchmark.width(type));
        }
        if (sizes != null && !sizes.isEmpty()) {
            return sizes;
        }
        Sizes defaults = f.sizes(b);
        if (min == null && max == null && factor == null) {
            return defaults.list();
        }
        return Sizes.sweep(min != null ? min : defaults.min(), max != null ? max : defaults.max(),
                factor != null ? factor : 2).list();
    }

    /** Largest message size of {@code b} in the host form (0 when it has none). */
    public long maxSize(Benchmark b) {
        return maxSize(b, Forms.HOST);
    }

    /** Largest message size of {@code b} in form {@code f} (0 when it has none). */
    public long maxSize(Benchmark b, Form f) {
        if (!b.sized()) {
            return 0;
        }
        return sizesOf(b, "byte", f).stream().mapToLong(Long::longValue).max().orElse(0);
    }

    /** Bytes of each symmetric buffer {@code b} needs on {@code nPes} PEs in the host form. */
    public long bufferBytes(Benchmark b, int nPes) {
        return bufferBytes(b, nPes, Forms.HOST);
    }

    /** Bytes of each symmetric buffer {@code b} needs on {@code nPes} PEs in form {@code f} (0 without a message size). */
    public long bufferBytes(Benchmark b, int nPes, Form f) {
        return b.sized() ? b.buffers().bytes(maxSize(b, f), nPes) : 0;
    }

    /** Iterations per repetition of a case in the host form. */
    public long iterationsOf(Case c) {
        return iterationsOf(c, Forms.HOST);
    }

    /** Iterations per repetition of a case in form {@code f}: {@code --iters}, else the form's default. */
    public long iterationsOf(Case c, Form f) {
        return iterations != null ? iterations : f.iterations(c);
    }
}
