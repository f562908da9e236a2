package org.jshmem.perf.jmh;

import java.util.concurrent.TimeUnit;
import org.jshmem.Shmem;
import org.jshmem.SymmetricSegment;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Scalar operations through the {@link Shmem} API on one PE: p, g, an atomic fetch-add, quiet.
 * Compare with {@link HeapAtomicsBenchmark} for the cost of the API over the raw VarHandle.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class ShmemScalarBenchmark {
    private Shmem shmem;
    private SymmetricSegment words;

    @Setup(Level.Trial)
    public void start() {
        shmem = Shmem.init(ShmemHostPathBenchmark.singlePe());
        words = shmem.calloc(64, Long.BYTES);
    }

    @TearDown(Level.Trial)
    public void stop() {
        shmem.close();
    }

    @Benchmark
    public void pLong() {
        shmem.pLong(words, 0, 42L, 0);
    }

    @Benchmark
    public long gLong() {
        return shmem.gLong(words, 0, 0);
    }

    @Benchmark
    public long atomicFetchAddLong() {
        return shmem.atomicFetchAddLong(words, 64, 1L, 0);
    }

    @Benchmark
    public void atomicAddLong() {
        shmem.atomicAddLong(words, 64, 1L, 0);
    }

    @Benchmark
    public void quiet() {
        shmem.quiet();
    }
}
