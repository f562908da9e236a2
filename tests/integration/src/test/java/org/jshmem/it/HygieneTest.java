package org.jshmem.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What a job leaves on the machine: the heap file is owner-only from
 * its creation, a PE killed during start-up is named and leaves no file in the shm directory,
 * the native libraries are loaded from one per-user cache directory (0700), not copied into
 * /tmp by every PE, and a job stopped at its timeout leaves nothing in /dev/shm.
 */
class HygieneTest {
    @TempDir
    Path tmp;

    private static List<Path> list(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.toList();
        }
    }

    @Test
    void heapFileIsOwnerOnly() throws IOException {
        Path shm = Files.createDirectories(tmp.resolve("shm"));
        JobResult r = MpiJob.of(2, ModesProgram.class).env("JSHMEM_BACKEND", "host").env("JSHMEM_SHM_DIR", shm.toString())
                .env("JSHMEM_SYMMETRIC_SIZE", "4M").run();
        assertTrue(r.succeeded(), r::toString);
        for (int pe = 0; pe < 2; pe++) {
            assertEquals("rw-------", r.value(pe, "heapFileMode"), "PE " + pe + ": " + r);
        }
        assertEquals(List.of(), list(shm), "files left");
    }

    /**
     * A job stopped at its timeout (MpiJob sends mpirun SIGTERM before anything is killed) leaves no shared
     * memory: neither Open MPI's segments nor jshmem's heap files. Both go to folders of this job's own
     * ({@code btl_vader_backing_directory}, {@code JSHMEM_SHM_DIR}), so that other jobs running meanwhile
     * do not count.
     */
    @Test
    void jobStoppedAtItsTimeoutLeavesNoSharedMemory() throws IOException {
        Path shm = Files.createDirectories(tmp.resolve("shm"));
        Path mpiShm = Files.createDirectories(tmp.resolve("mpi-shm"));
        JobResult r = MpiJob.of(2, HangProgram.class).env("JSHMEM_BACKEND", "host").env("JSHMEM_SHM_DIR", shm.toString())
                .mpirun("--mca", "btl_vader_backing_directory", mpiShm.toString())
                .env("JSHMEM_SYMMETRIC_SIZE", "4M").timeout(Duration.ofSeconds(30)).run();
        assertTrue(r.timedOut(), r::toString);
        for (int pe = 0; pe < 2; pe++) {
            assertEquals("waiting", r.value(pe, "state"), "PE " + pe + " reached its wait: " + r);
        }
        assertEquals(List.of(), list(mpiShm), "Open MPI's shared memory left by the stopped job");
        assertEquals(List.of(), list(shm), "jshmem's files left");
    }

    @ParameterizedTest(name = "JSHMEM_PREFAULT={0}")
    @CsvSource({"1", "0"})
    void heapsArePrefaultedAtInitUnlessTurnedOff(int prefault) throws IOException {
        Path shm = Files.createDirectories(tmp.resolve("shm"));
        long heapKb = 32 << 10;
        JobResult r = MpiJob.of(2, ModesProgram.class).env("JSHMEM_BACKEND", "host").env("JSHMEM_SHM_DIR", shm.toString())
                .env("JSHMEM_SYMMETRIC_SIZE", heapKb + "K").env("JSHMEM_PREFAULT", Integer.toString(prefault)).run();
        assertTrue(r.succeeded(), r::toString);
        for (int pe = 0; pe < 2; pe++) {
            long rss = r.longValue(pe, "heapMappingRssKb");
            if (prefault == 1) {
                assertTrue(rss >= 2 * heapKb, "PE " + pe + ": both heaps mapped after init, resident " + rss + " KiB");
            } else {
                assertTrue(rss < heapKb / 2, "PE " + pe + ": heaps left to first touch, resident " + rss + " KiB");
            }
        }
    }

    @ParameterizedTest(name = "PE {0} killed at step {1}, mpirun {2}")
    @CsvSource({"1, map, default", "0, mapped, default", "1, map, --enable-recovery", "0, mapped, --enable-recovery"})
    void peKilledDuringStartUpIsNamedAndLeavesNothing(int victim, String step, String mpirun) throws IOException {
        Path shm = Files.createDirectories(tmp.resolve("shm"));
        MpiJob job = MpiJob.of(2, InitProgram.class).env("JSHMEM_BACKEND", "host").env("JSHMEM_SHM_DIR", shm.toString())
                .env("JSHMEM_SYMMETRIC_SIZE", "4M").env("JAVA_TOOL_OPTIONS", "-Djshmem.test.dieAt=" + step + ":" + victim)
                .timeout(Duration.ofSeconds(40));
        if (!mpirun.equals("default")) {
            job.mpirun(mpirun);
        }
        JobResult r = job.run();
        assertFalse(r.timedOut(), () -> "the survivor did not stop: " + r);
        if (mpirun.equals("default")) {
            assertTrue(r.exitCode() != 0, r::toString);   // under --enable-recovery mpirun may report 0
        }
        int survivor = 1 - victim;
        List<String> lines = r.linesWith("org.jshmem.BootstrapException: jshmem start-up failed on PE " + survivor);
        assertFalse(lines.isEmpty(), r::toString);
        assertTrue(lines.getFirst().contains("PE " + victim + " (process ") && lines.getFirst().contains("died during start-up"),
                lines.getFirst());
        assertEquals(List.of(), list(shm), "files left in the shm directory: " + r);
    }

    @Test
    void nativeLibrariesComeFromOnePerUserCacheDirectory() throws IOException {
        Path cache = Files.createDirectories(tmp.resolve("cache"));
        Path javaTmp = Files.createDirectories(tmp.resolve("java-tmp"));
        List<Path> firstEntries = List.of();
        for (int run = 0; run < 2; run++) {
            // JSHMEM_NVTX=1 loads the NVTX library on any machine; where a GPU driver is, the probe loads its shim too
            JobResult r = MpiJob.of(2, ModesProgram.class).env("JSHMEM_BACKEND", "auto").env("JSHMEM_NVTX", "1")
                    .env("XDG_CACHE_HOME", cache.toString()).env("JAVA_TOOL_OPTIONS", "-Djava.io.tmpdir=" + javaTmp)
                    .env("JSHMEM_SYMMETRIC_SIZE", "4M").run();
            assertTrue(r.succeeded(), r::toString);
            assertEquals(List.of(), list(javaTmp), "left in java.io.tmpdir after run " + run);
            Path root = cache.resolve("jshmem");
            List<Path> entries = list(root);
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(root, LinkOption.NOFOLLOW_LINKS)));
            // one entry (directory) per library content, reused
            assertTrue(entries.size() >= 1 && entries.size() <= 2, "entries: " + entries);
            if (run == 0) {
                firstEntries = entries;
            }
            assertEquals(firstEntries, entries, "the second job reuses the first one's copies");
            for (Path d : entries) {
                assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(d, LinkOption.NOFOLLOW_LINKS)),
                        d.toString());
                List<String> libs = list(d).stream().map(p -> p.getFileName().toString()).toList();
                assertEquals(1, libs.size(), "one library, no temporaries: " + libs);
                assertTrue(libs.getFirst().startsWith("libjshmem_") && libs.getFirst().endsWith(".so"), libs.toString());
            }
            for (int pe = 0; pe < 2; pe++) {
                String loaded = r.value(pe, "nativeLibrary");
                assertTrue(entries.stream().anyMatch(d -> loaded.startsWith(d + "/")), loaded);
            }
        }
    }
}
