package org.jshmem.perf;

/**
 * One line of results: a case's figure over its repetitions. The CSV has one column per
 * component, in this order (see {@link Csv#HEADER}).
 *
 * @param library     who was measured: {@code jshmem}, or e.g. {@code openshmem} in a baseline
 * @param benchmark   benchmark name, e.g. {@code put_bw}
 * @param form        how operations were issued: {@code host}, {@code on_stream}, {@code device}
 * @param op          operation, e.g. {@code put}, {@code fetch_add}, {@code barrier_all}
 * @param type        element type: {@code byte} for untyped transfers, {@code -} for none
 * @param pes         PEs in the job
 * @param sizeBytes   bytes per message (element size for scalar operations, 0 for barriers)
 * @param iterations  operations per repetition
 * @param repetitions timed repetitions the statistics are over
 * @param unit        {@code GB/s}, {@code us} or {@code Mops/s}
 * @param median      median over the repetitions
 * @param min         smallest figure of a repetition (for latency the best, for bandwidth the worst)
 * @param max         largest figure of a repetition
 */
public record Row(String library, String benchmark, String form, String op, String type, int pes, long sizeBytes,
                  long iterations, int repetitions, String unit, double median, double min, double max) {

    /** Whether two rows measure the same thing (benchmark, op, type, size), whoever measured it. */
    public boolean sameCase(Row o) {
        return benchmark.equals(o.benchmark) && op.equals(o.op) && type.equals(o.type) && sizeBytes == o.sizeBytes;
    }
}
