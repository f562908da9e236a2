package org.jshmem.perf;

/**
 * What a benchmark reports, and how a timed loop of {@code iterations} becomes that figure. Each
 * benchmark states how much work one iteration is ({@link Benchmark#work}): bytes moved for
 * bandwidth, operations for a rate, one-way trips for a latency (2 for a ping-pong).
 */
public enum Metric {
    /** Bytes moved per second, in GB/s (10^9 bytes). Higher is better. */
    BANDWIDTH("GB/s", true),
    /** Time per one-way trip or per operation, in microseconds. Lower is better. */
    LATENCY("us", false),
    /** Operations per second, in millions. Higher is better. */
    RATE("Mops/s", true);

    private final String unit;
    private final boolean higherIsBetter;

    Metric(String unit, boolean higherIsBetter) {
        this.unit = unit;
        this.higherIsBetter = higherIsBetter;
    }

    /** The unit of the figure, as written in the CSV's {@code unit} column. */
    public String unit() {
        return unit;
    }

    /** Whether a larger figure is a better result. */
    public boolean higherIsBetter() {
        return higherIsBetter;
    }

    /**
     * The figure for a loop of {@code iterations}, each doing {@code work} units (bytes,
     * operations or one-way trips), that took {@code nanos}.
     */
    public double value(double work, long iterations, long nanos) {
        double ns = Math.max(nanos, 1);
        return switch (this) {
            case BANDWIDTH -> work * iterations / ns;              // bytes/ns = GB/s
            case RATE -> work * iterations / ns * 1e3;             // ops/ns * 1000 = Mops/s
            case LATENCY -> ns / (iterations * work) / 1e3;        // ns -> us
        };
    }

    /**
     * How many times better {@code mine} is than {@code theirs}: above 1 when {@code mine} is
     * better, whichever direction is better for this metric.
     */
    public double speedup(double mine, double theirs) {
        return higherIsBetter ? mine / theirs : theirs / mine;
    }
}
