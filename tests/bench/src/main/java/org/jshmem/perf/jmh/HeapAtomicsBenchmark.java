package org.jshmem.perf.jmh;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
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
 * The raw cost of the host backend's atomics and signals: {@link VarHandle} operations on a
 * /dev/shm file mapped as a shared-arena segment, as {@code HostBackend} does, without jshmem's
 * argument checks (compare with {@link ShmemHostPathBenchmark}'s atomics for what they add).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class HeapAtomicsBenchmark {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final long AT = 4096;

    private Arena arena;
    private Path file;
    private MemorySegment heap;

    @Setup(Level.Trial)
    public void map() throws IOException {
        file = Files.createTempFile(Path.of("/dev/shm"), "jshmem-jmh-atomics", ".heap");
        arena = Arena.ofShared();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            heap = ch.map(FileChannel.MapMode.READ_WRITE, 0, 1 << 16, arena);
        }
    }

    @TearDown(Level.Trial)
    public void unmap() throws IOException {
        arena.close();
        Files.deleteIfExists(file);
    }

    @Benchmark
    public long getAndAddLong() {
        return (long) LONG.getAndAdd(heap, AT, 1L);
    }

    @Benchmark
    public int getAndAddInt() {
        return (int) INT.getAndAdd(heap, AT + 64, 1);
    }

    @Benchmark
    public long compareAndExchangeLong() {
        return (long) LONG.compareAndExchange(heap, AT, 0L, 0L);
    }

    @Benchmark
    public long getAndSetLong() {
        return (long) LONG.getAndSet(heap, AT, 7L);
    }

    /** The load of a wait_until or a g. */
    @Benchmark
    public long getAcquireLong() {
        return (long) LONG.getAcquire(heap, AT);
    }

    /** The store of a p or a SET signal. */
    @Benchmark
    public void setReleaseLong() {
        LONG.setRelease(heap, AT, 42L);
    }
}
