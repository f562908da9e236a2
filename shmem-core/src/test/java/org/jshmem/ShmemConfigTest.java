package org.jshmem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalInt;
import org.jshmem.ShmemConfig.BackendKind;
import org.jshmem.ShmemConfig.BootstrapKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ShmemConfigTest {

    @ParameterizedTest
    @CsvSource({
        "4096, 4096",
        "1, 1",
        "1k, 1024",
        "1K, 1024",
        "512M, 536870912",
        "512m, 536870912",
        "2G, 2147483648",
        "2g, 2147483648",
        "3T, 3298534883328",
        "' 64M ', 67108864",
        "2GB, 2147483648",
        "2GiB, 2147483648",
        "100MB, 104857600",
        "8388607T, 9223370937343148032",
    })
    void parsesSizes(String text, String expected) {
        assertEquals(Long.parseLong(expected), ShmemConfig.parseSize(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "M", "abc", "1.5G", "-1", "0", "0M", "12Q", "1 G B", "0x100", "9223372036854775808", "8388608T"})
    void rejectsBadSizesSayingWhat(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ShmemConfig.parseSize(text));
        assertTrue(e.getMessage().contains("'" + text + "'"), "names the value: " + e.getMessage());
    }

    @Test
    void nvtxIsAskedForWithAFlag() {
        assertFalse(ShmemConfig.nvtxRequested(Map.of()));
        assertTrue(ShmemConfig.nvtxRequested(Map.of("JSHMEM_NVTX", "1")));
        assertFalse(ShmemConfig.nvtxRequested(Map.of("JSHMEM_NVTX", "off")));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ShmemConfig.nvtxRequested(Map.of("JSHMEM_NVTX", "coll")));
        assertTrue(e.getMessage().contains("JSHMEM_NVTX=coll"), e.getMessage());
    }

    @Test
    void badSizeMessageSaysHowToWriteOne() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ShmemConfig.parseSize("lots"));
        assertTrue(e.getMessage().contains("512M"), e.getMessage());
    }

    @Test
    void defaults() {
        ShmemConfig c = ShmemConfig.fromMap(Map.of());
        assertEquals(1L << 30, c.symmetricSize());
        assertEquals(ShmemConfig.DEFAULT_SYMMETRIC_SIZE, c.symmetricSize());
        assertEquals(BackendKind.AUTO, c.backend());
        assertEquals(OptionalInt.empty(), c.device());
        assertFalse(c.debug());
        assertEquals(BootstrapKind.AUTO, c.bootstrap());
        assertEquals("", c.mpiLibrary());
        assertEquals(Path.of("/dev/shm"), c.shmDir());
        assertEquals(200, c.livenessMillis());
        assertEquals(600_000, c.waitTimeoutMillis());
        assertEquals(ShmemConfig.AUTO_SPIN, c.spinIterations());
        assertEquals(4096, c.spinIterationsFor(1));
        assertEquals(0, c.spinIterationsFor(Runtime.getRuntime().availableProcessors() + 1));
    }

    @Test
    void readsEveryVariable() {
        ShmemConfig c = ShmemConfig.fromMap(Map.of(
                "JSHMEM_SYMMETRIC_SIZE", "512M",
                "JSHMEM_BACKEND", "host",
                "JSHMEM_DEVICE", "3",
                "JSHMEM_DEBUG", "1",
                "JSHMEM_BOOTSTRAP", "single",
                "JSHMEM_SHM_DIR", "/tmp/x",
                "JSHMEM_LIVENESS_MS", "50",
                "JSHMEM_SPIN", "0",
                "JSHMEM_WAIT_TIMEOUT", "2.5",
                "JSHMEM_MPI_LIBRARY", "/opt/ompi/lib/libmpi.so.40"));
        assertEquals(512L << 20, c.symmetricSize());
        assertEquals(BackendKind.HOST, c.backend());
        assertEquals(OptionalInt.of(3), c.device());
        assertTrue(c.debug());
        assertEquals(BootstrapKind.SINGLE, c.bootstrap());
        assertEquals(Path.of("/tmp/x"), c.shmDir());
        assertEquals(50, c.livenessMillis());
        assertEquals(0, c.spinIterations());
        assertEquals(2500, c.waitTimeoutMillis());
        assertEquals(0, ShmemConfig.fromMap(Map.of("JSHMEM_WAIT_TIMEOUT", "0")).waitTimeoutMillis());
        assertEquals(2500, c.kernelWaitTimeoutMillis(), "set: kernels' waits time out too");
        assertEquals(0, ShmemConfig.fromMap(Map.of()).kernelWaitTimeoutMillis(), "unset: kernels wait forever");
        assertEquals(ShmemConfig.DEFAULT_WAIT_TIMEOUT_MILLIS, ShmemConfig.fromMap(Map.of()).waitTimeoutMillis());
        assertEquals(Integer.MAX_VALUE, ShmemConfig.fromMap(Map.of("JSHMEM_WAIT_TIMEOUT", "1e9")).kernelWaitTimeoutMillis());
        assertEquals(7, c.withKernelWaitTimeoutMillis(7).kernelWaitTimeoutMillis());
        assertEquals(java.util.Optional.empty(), c.traceFile());
        assertEquals(java.util.Optional.of(Path.of("job.json").toAbsolutePath()),
                ShmemConfig.fromMap(Map.of("JSHMEM_TRACE", "job.json")).traceFile(), "relative to where the PE starts");
        assertEquals(java.util.Optional.of(Path.of("/tmp/t.json")), c.withTraceFile(Path.of("/tmp/t.json")).traceFile());
        assertEquals("/opt/ompi/lib/libmpi.so.40", c.mpiLibrary());
    }

    @ParameterizedTest
    @CsvSource({"host, HOST", "HOST, HOST", "Cuda, CUDA", "hip, HIP", "auto, AUTO"})
    void backendNames(String text, BackendKind kind) {
        assertEquals(kind, ShmemConfig.fromMap(Map.of("JSHMEM_BACKEND", text)).backend());
    }

    @ParameterizedTest
    @CsvSource({"mpi, MPI", "MPI, MPI", "mpi-native, MPI_NATIVE", "MPI_NATIVE, MPI_NATIVE", "single, SINGLE", "Auto, AUTO"})
    void bootstrapNames(String text, BootstrapKind kind) {
        assertEquals(kind, ShmemConfig.fromMap(Map.of("JSHMEM_BOOTSTRAP", text)).bootstrap());
    }

    @ParameterizedTest
    @CsvSource({"1, true", "true, true", "YES, true", "on, true", "0, false", "false, false", "no, false", "Off, false"})
    void debugFlags(String text, boolean on) {
        assertEquals(on, ShmemConfig.fromMap(Map.of("JSHMEM_DEBUG", text)).debug());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "JSHMEM_SYMMETRIC_SIZE | 12X     | 512M",
        "JSHMEM_SYMMETRIC_SIZE | 0       | size",
        "JSHMEM_BACKEND        | gpu     | host, cuda, hip, auto",
        "JSHMEM_BOOTSTRAP      | pmi     | mpi, mpi-native, single, auto",
        "JSHMEM_BOOTSTRAP      | native  | mpi, mpi-native, single, auto",
        "JSHMEM_DEBUG          | 2       | 0 or 1",
        "JSHMEM_DEVICE         | -1      | non-negative integer",
        "JSHMEM_DEVICE         | first   | non-negative integer",
        "JSHMEM_SPIN           | many    | non-negative integer",
        "JSHMEM_LIVENESS_MS    | 0       | positive",
        "JSHMEM_LIVENESS_MS    | soon    | integer",
        "JSHMEM_WAIT_TIMEOUT   | -1      | wait forever",
        "JSHMEM_WAIT_TIMEOUT   | ten     | seconds",
        "JSHMEM_WAIT_TIMEOUT   | NaN     | seconds",
    })
    void badValuesNameTheVariableTheValueAndWhatIsExpected(String name, String value, String expected) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ShmemConfig.fromMap(Map.of(name, value)));
        String m = e.getMessage();
        assertTrue(m.contains(name + "=" + value), "names the variable and value: " + m);
        assertTrue(m.contains(expected), "says what is expected (" + expected + "): " + m);
    }

    @Test
    void blankValuesMeanTheDefault() {
        ShmemConfig c = ShmemConfig.fromMap(Map.of("JSHMEM_SYMMETRIC_SIZE", "  ", "JSHMEM_BACKEND", ""));
        assertEquals(ShmemConfig.DEFAULT_SYMMETRIC_SIZE, c.symmetricSize());
        assertEquals(BackendKind.AUTO, c.backend());
    }

    @Test
    void hierarchyThreshold() {
        assertEquals(1 << 20, ShmemConfig.fromMap(Map.of()).collectiveTuning().hierarchyMin());
        assertEquals(16 << 10, ShmemConfig.fromMap(Map.of("JSHMEM_COLL_HIERARCHY_MIN", "16K")).collectiveTuning()
                .hierarchyMin());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ShmemConfig.fromMap(Map.of("JSHMEM_COLL_HIERARCHY_MIN", "-1")));
        assertTrue(e.getMessage().contains("JSHMEM_COLL_HIERARCHY_MIN=-1"), e.getMessage());
    }

    @Test
    void gpuCollectiveThresholds() {
        ShmemConfig d = ShmemConfig.fromMap(Map.of());
        assertEquals(org.jshmem.GpuCollectiveTuning.DEFAULT, d.gpuCollectiveTuning());
        ShmemConfig c = ShmemConfig.fromMap(Map.of(
                "JSHMEM_GPU_REDUCE_ONESHOT_MAX", "1M",
                "JSHMEM_GPU_COLL_ONE_BLOCK_MAX", "0",
                "JSHMEM_GPU_COLL_CE_MIN", "64K",
                "JSHMEM_GPU_COLL_MAX_BLOCKS", "264"));
        assertEquals(new org.jshmem.GpuCollectiveTuning(1 << 20, 0, 64 << 10, 264, 0, 1, true,
                org.jshmem.GpuCollectiveTuning.LOW_LATENCY_LIMIT, 4 << 20), c.gpuCollectiveTuning());
        assertEquals(c.gpuCollectiveTuning(), c.withDebug(true).withBackend(BackendKind.CUDA).gpuCollectiveTuning());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ShmemConfig.fromMap(Map.of("JSHMEM_GPU_COLL_MAX_BLOCKS", "70000")));
        assertTrue(e.getMessage().contains("JSHMEM_GPU_COLL_MAX_BLOCKS=70000"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> ShmemConfig.fromMap(Map.of("JSHMEM_GPU_COLL_CE_MIN", "lots")));
        assertTrue(e.getMessage().contains("JSHMEM_GPU_COLL_CE_MIN=lots"), e.getMessage());
        for (String lanes : new String[] {"0", "9", "two"}) {
            e = assertThrows(IllegalArgumentException.class,
                    () -> ShmemConfig.fromMap(Map.of("JSHMEM_GPU_COLL_CE_LANES", lanes)));
            assertTrue(e.getMessage().contains("JSHMEM_GPU_COLL_CE_LANES=" + lanes), e.getMessage());
        }
        assertEquals(8, ShmemConfig.fromMap(Map.of("JSHMEM_GPU_COLL_CE_LANES", "8"))   // the most side streams there are
                .gpuCollectiveTuning().ceLanes());
        assertEquals(1024, ShmemConfig.fromMap(Map.of("JSHMEM_GPU_REDUCE_LL_MAX", "1K")).gpuCollectiveTuning()
                .reduceLowLatencyMax());
        assertEquals(0, ShmemConfig.fromMap(Map.of("JSHMEM_GPU_REDUCE_LL_MAX", "0")).gpuCollectiveTuning()
                .reduceLowLatencyMax());
        e = assertThrows(IllegalArgumentException.class, () -> ShmemConfig.fromMap(Map.of("JSHMEM_GPU_REDUCE_LL_MAX", "8K")));
        assertTrue(e.getMessage().contains("JSHMEM_GPU_REDUCE_LL_MAX=8K") && e.getMessage().contains("4096"),
                e.getMessage());
        assertEquals(0, ShmemConfig.fromMap(Map.of()).gpuCollectiveTuning().serviceMicros());
        assertEquals(250, ShmemConfig.fromMap(Map.of("JSHMEM_GPU_SERVICE_US", "250")).gpuCollectiveTuning()
                .serviceMicros());
        for (String bad : new String[] {"-1", "60000001", "1ms"}) {
            e = assertThrows(IllegalArgumentException.class,
                    () -> ShmemConfig.fromMap(Map.of("JSHMEM_GPU_SERVICE_US", bad)));
            assertTrue(e.getMessage().contains("JSHMEM_GPU_SERVICE_US=" + bad), e.getMessage());
        }
        assertEquals(1L << 20, ShmemConfig.fromMap(Map.of("JSHMEM_GPU_REDUCE_ROTATED_MIN", "1M")).gpuCollectiveTuning()
                .reduceRotatedMin());
        assertFalse(ShmemConfig.fromMap(Map.of("JSHMEM_GPU_REDUCE_ROTATED_MIN", "0")).gpuCollectiveTuning()
                .reduceRotated(4, Long.MAX_VALUE));
        e = assertThrows(IllegalArgumentException.class,
                () -> ShmemConfig.fromMap(Map.of("JSHMEM_GPU_REDUCE_ROTATED_MIN", "lots")));
        assertTrue(e.getMessage().contains("JSHMEM_GPU_REDUCE_ROTATED_MIN=lots"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ShmemConfig.fromMap(Map.of("JSHMEM_GPU_COLL_CE_MODE", "both")));
        assertTrue(e.getMessage().contains("JSHMEM_GPU_COLL_CE_MODE=both") && e.getMessage().contains("pull or push"),
                e.getMessage());
        assertTrue(ShmemConfig.fromMap(Map.of("JSHMEM_GPU_COLL_CE_MODE", "push")).gpuCollectiveTuning().cePush());
        assertFalse(ShmemConfig.fromMap(Map.of("JSHMEM_GPU_COLL_CE_MODE", "pull")).gpuCollectiveTuning().cePush());
        GpuCollectiveTuning byDefault = ShmemConfig.fromMap(Map.of()).gpuCollectiveTuning();
        assertEquals(1, byDefault.ceLanes());
        assertTrue(byDefault.cePush());
    }

    @Test
    void withersChangeOneSetting() {
        ShmemConfig c = ShmemConfig.fromMap(Map.of("JSHMEM_SPIN", "7"));
        ShmemConfig d = c.withSymmetricSize(4096).withBackend(BackendKind.HOST).withDebug(true);
        assertEquals(4096, d.symmetricSize());
        assertEquals(BackendKind.HOST, d.backend());
        assertTrue(d.debug());
        assertEquals(7, d.spinIterations());
        assertEquals(c.shmDir(), d.shmDir());
        assertThrows(IllegalArgumentException.class, () -> c.withSymmetricSize(0));
    }
}
