/**
 * JMH benchmarks of jshmem's host-path costs, one process (a single PE, no MPI): FFM downcall
 * overhead, segment copies against a memcpy downcall, VarHandle atomics on a mapped heap,
 * small puts and scalar operations through {@link org.jshmem.Shmem}, and symmetric allocation.
 *
 * <p>Run them all with short defaults (1 fork, 2 x 1 s warm-up, 3 x 1 s measurement):
 * {@code scripts/jmh.sh}; a subset with a regular expression: {@code scripts/jmh.sh Ffm};
 * any JMH option after it, e.g. {@code scripts/jmh.sh SmallPut -p size=8 -rf csv -rff out.csv}.
 * The benchmark list is generated at compile time by jmh-generator-annprocess, which the tests
 * module names in the compiler's {@code annotationProcessorPaths} (JDK 23+ runs no processor
 * found on the class path).
 */
package org.jshmem.perf.jmh;
