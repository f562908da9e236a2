package org.jshmem.perf.jmh;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jshmem.Shmem;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What one FFM downcall costs: a pure libc function ({@code labs}: the call alone) and a
 * system call ({@code getpid}: the kernel entry, costly in a VM) through {@code static final}
 * handles called with {@code invokeExact}, with and without {@link Linker.Option#critical}, and the cheapest entry point of jshmem's native shim
 * ({@code jshmem_rt_last_error}, no GPU needed), loaded from the shmem-core jar as the GPU
 * backend loads it. Every host call of the GPU backend pays at least this.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class FfmDowncallBenchmark {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle GETPID = LINKER.downcallHandle(
            LINKER.defaultLookup().find("getpid").orElseThrow(), FunctionDescriptor.of(JAVA_INT));
    private static final MethodHandle GETPID_CRITICAL = LINKER.downcallHandle(
            LINKER.defaultLookup().find("getpid").orElseThrow(), FunctionDescriptor.of(JAVA_INT),
            Linker.Option.critical(false));

    private static final MethodHandle LABS = LINKER.downcallHandle(
            LINKER.defaultLookup().find("labs").orElseThrow(), FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
    private static final MethodHandle LABS_CRITICAL = LINKER.downcallHandle(
            LINKER.defaultLookup().find("labs").orElseThrow(), FunctionDescriptor.of(JAVA_LONG, JAVA_LONG),
            Linker.Option.critical(false));

    /** Argument of labs, from a field so that the call is not folded. */
    public long value = -42;

    /** The shim's no-op-like entry point (returns its thread-local error text), or null without a shim. */
    private static final MethodHandle SHIM_LAST_ERROR = shimHandle("jshmem_rt_last_error");

    /** Checks that this build carries the native shim (mvn without -DskipNative). */
    @State(Scope.Benchmark)
    public static class Shim {
        @Setup
        public void check() {
            if (SHIM_LAST_ERROR == null) {
                throw new IllegalStateException("this build has no native shim (META-INF/native/linux-x86_64/"
                        + "libjshmem_{cuda,hip}.so in the shmem-core jar): build without -DskipNative");
            }
        }
    }

    private static MethodHandle shimHandle(String function) {
        for (String lib : List.of("libjshmem_cuda.so", "libjshmem_hip.so")) {
            try (InputStream in = Shmem.class.getResourceAsStream("/META-INF/native/linux-x86_64/" + lib)) {
                if (in == null) {
                    continue;
                }
                Path file = Files.createTempFile("jshmem-jmh-", lib);
                file.toFile().deleteOnExit();
                Files.copy(in, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                SymbolLookup shim = SymbolLookup.libraryLookup(file, Arena.global());
                return LINKER.downcallHandle(shim.find(function).orElseThrow(), FunctionDescriptor.of(ADDRESS));
            } catch (IOException | IllegalArgumentException | UnsatisfiedLinkError e) {
                // try the next platform's library
            }
        }
        return null;
    }

    /** A downcall into jshmem's native shim, as the GPU backend's calls are made. */
    @Benchmark
    public MemorySegment shimLastError(Shim shim) throws Throwable {
        return (MemorySegment) SHIM_LAST_ERROR.invokeExact();
    }

    /** A pure libc call with the usual thread-state transition: the downcall overhead itself. */
    @Benchmark
    public long labs() throws Throwable {
        return (long) LABS.invokeExact(value);
    }

    /** The same as a critical downcall (no thread-state transition). */
    @Benchmark
    public long labsCritical() throws Throwable {
        return (long) LABS_CRITICAL.invokeExact(value);
    }

    /** A system call with the usual thread-state transition (safepoint-aware). */
    @Benchmark
    public int getpid() throws Throwable {
        return (int) GETPID.invokeExact();
    }

    /** A critical downcall: no thread-state transition (only for short calls that never block or call back). */
    @Benchmark
    public int getpidCritical() throws Throwable {
        return (int) GETPID_CRITICAL.invokeExact();
    }
}
