package org.jshmem.perf.jmh;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What one FFM downcall costs: a trivial libc function ({@code getpid}) through a
 * {@code static final} handle called with {@code invokeExact}, with and without
 * {@link Linker.Option#critical}. Every call into jshmem's native shim (GPU backend) pays this.
 *
 * <p>When the shim ships ({@code shmem-core/src/main/native}), add its cheapest entry point
 * here the same way: a {@code static final MethodHandle} looked up in the shim library, and a
 * {@code @Benchmark} that calls it, beside {@link #getpid()} as the floor.
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

    /** A downcall with the usual thread-state transition (safepoint-aware). */
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
