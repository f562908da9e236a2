package org.jshmem.perf.jmh;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The host backend's data path: one copy between two places of a shared /dev/shm mapping, with
 * {@link MemorySegment#copy} (what {@code put}/{@code get} do) and with libc's {@code memcpy}
 * through a critical FFM downcall, per message size. Time per copy; bandwidth = size / time.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class CopyBenchmark {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle MEMCPY = LINKER.downcallHandle(
            LINKER.defaultLookup().find("memcpy").orElseThrow(),
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG), Linker.Option.critical(false));

    @Param({"8", "64", "512", "4096", "32768", "262144", "2097152", "16777216"})
    public long size;

    private Arena arena;
    private Path file;
    private MemorySegment mapping;
    private MemorySegment src;
    private MemorySegment dst;

    @Setup(Level.Trial)
    public void map() throws IOException {
        file = Files.createTempFile(Path.of("/dev/shm"), "jshmem-jmh-copy", ".heap");
        arena = Arena.ofShared();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            mapping = ch.map(FileChannel.MapMode.READ_WRITE, 0, 2 * size + 4096, arena);
        }
        src = mapping.asSlice(0, size);
        dst = mapping.asSlice(size + 4096 - (size % 4096 == 0 ? 0 : size % 4096), size);
        src.fill((byte) 1);
        dst.fill((byte) 0);
    }

    @TearDown(Level.Trial)
    public void unmap() throws IOException {
        arena.close();
        Files.deleteIfExists(file);
    }

    /** What HostBackend.put does: a copy within the one mapping (overlapping segments, so the native path). */
    @Benchmark
    public void segmentCopy() {
        MemorySegment.copy(mapping, src.address() - mapping.address(), mapping, dst.address() - mapping.address(), size);
    }

    /** libc memcpy through a critical downcall. */
    @Benchmark
    public MemorySegment memcpy() throws Throwable {
        return (MemorySegment) MEMCPY.invokeExact(dst, src, size);
    }
}
