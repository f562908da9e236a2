package org.jshmem.perf.jmh;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jshmem.Shmem;
import org.jshmem.ShmemConfig;
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
 * Small puts and gets through the {@link Shmem} API on one PE (bootstrap {@code single}, host
 * backend), from a symmetric source, an off-heap segment and a Java array: what a host-initiated
 * operation costs beyond the copy itself (argument checks, dispatch).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class ShmemHostPathBenchmark {
    @Param({"8", "64", "512", "4096"})
    public int size;

    private Shmem shmem;
    private SymmetricSegment src;
    private SymmetricSegment dst;
    private MemorySegment offHeap;
    private byte[] array;

    @Setup(Level.Trial)
    public void start() {
        shmem = Shmem.init(singlePe());
        src = shmem.malloc(size);
        dst = shmem.malloc(size);
        offHeap = Arena.ofAuto().allocate(size, 64);
        array = new byte[size];
    }

    @TearDown(Level.Trial)
    public void stop() {
        shmem.close();
    }

    /** A one-PE job on the host backend, without MPI. */
    static ShmemConfig singlePe() {
        return ShmemConfig.fromMap(Map.of("JSHMEM_BOOTSTRAP", "single", "JSHMEM_BACKEND", "host",
                "JSHMEM_SYMMETRIC_SIZE", "64M"));
    }

    @Benchmark
    public void putSymmetric() {
        shmem.put(dst, 0, src, 0, size, 0);
    }

    @Benchmark
    public void putFromSegment() {
        shmem.put(dst, 0, offHeap, 0);
    }

    @Benchmark
    public void putFromArray() {
        shmem.put(dst, 0, array, 0, size, 0);
    }

    @Benchmark
    public void getSymmetric() {
        shmem.get(dst, 0, src, 0, size, 0);
    }
}
