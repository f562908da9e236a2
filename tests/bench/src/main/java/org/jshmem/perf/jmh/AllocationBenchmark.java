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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Symmetric allocation on one PE: malloc + free, and calloc + free (which zeroes), per size.
 * On one PE the collective barriers they contain are trivial, so this is the allocator's and
 * the API's own cost.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class AllocationBenchmark {
    @Param({"64", "1048576"})
    public long size;

    private Shmem shmem;

    @Setup(Level.Trial)
    public void start() {
        shmem = Shmem.init(ShmemHostPathBenchmark.singlePe());
    }

    @TearDown(Level.Trial)
    public void stop() {
        shmem.close();
    }

    @Benchmark
    public void mallocFree() {
        SymmetricSegment s = shmem.malloc(size);
        shmem.free(s);
    }

    @Benchmark
    public void callocFree() {
        SymmetricSegment s = shmem.calloc(1, size);
        shmem.free(s);
    }
}
