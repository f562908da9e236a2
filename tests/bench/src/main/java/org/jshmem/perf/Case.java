package org.jshmem.perf;

/**
 * One measured point of a benchmark: an operation on an element type at a message size.
 *
 * @param benchmark what is measured
 * @param op        the operation, e.g. {@code put} or {@code fetch_add}
 * @param type      the element type, e.g. {@code long}; {@code byte} for untyped transfers
 * @param size      bytes per message (the element size for scalar operations, 0 for barriers)
 */
public record Case(Benchmark benchmark, String op, String type, long size) {
    @Override
    public String toString() {
        return benchmark.name() + " " + op + " " + type + " " + Sizes.format(size);
    }
}
