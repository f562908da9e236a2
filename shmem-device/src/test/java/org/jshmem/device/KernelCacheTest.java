package org.jshmem.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KernelCacheTest {
    @TempDir
    Path tmp;

    @Test
    void keyChangesWithEverythingThatDecidesTheImage() {
        String k = KernelCache.key("cuda:H100:9.0", "src", "a.cu", "-DX=1");
        assertEquals(k, KernelCache.key("cuda:H100:9.0", "src", "a.cu", "-DX=1"));
        assertNotEquals(k, KernelCache.key("cuda:H200:9.0", "src", "a.cu", "-DX=1"));
        assertNotEquals(k, KernelCache.key("cuda:H100:9.0", "src ", "a.cu", "-DX=1"));
        assertNotEquals(k, KernelCache.key("cuda:H100:9.0", "src", "b.cu", "-DX=1"));
        assertNotEquals(k, KernelCache.key("cuda:H100:9.0", "src", "a.cu", "-DX=2"));
        assertNotEquals(k, KernelCache.key("cuda:H100:9.0", "src", "a.cu", "-DX=1", ""));
    }

    @Test
    void directoryIsMadeOwnerOnly() throws Exception {
        Path dir = tmp.resolve("cache").resolve("kernels");
        KernelCache c = KernelCache.at(dir);
        assertEquals(dir, c.directory());
        assertEquals(PosixFilePermissions.fromString("rwx------"), Files.getPosixFilePermissions(dir));
    }

    @Test
    void symbolicLinkIsRefused() throws Exception {
        Path real = Files.createDirectory(tmp.resolve("real"));
        Path link = Files.createSymbolicLink(tmp.resolve("link"), real);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> KernelCache.at(link));
        assertTrue(e.getMessage().contains("symbolic link"), e.getMessage());
    }

    @Test
    void defaultDirectoryFollowsTheEnvironment() {
        assertEquals(Path.of("/x/k"), KernelCache.defaultDirectory(Map.of("JSHMEM_CACHE_DIR", "/x/k")));
        assertEquals(Path.of("/c/jshmem/kernels"), KernelCache.defaultDirectory(Map.of("XDG_CACHE_HOME", "/c")));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aMissIsCompiledOnceWhileTheOtherThreadsWaitForIt() throws Exception {
        KernelCache c = KernelCache.at(tmp.resolve("k"));
        Path file = c.directory().resolve("a.bin");
        AtomicInteger compiles = new AtomicInteger();
        List<Future<KernelCache.Entry>> entries = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            for (int i = 0; i < 4; i++) {
                entries.add(pool.submit(() -> c.entry(file, () -> {
                    compiles.incrementAndGet();
                    try {
                        Thread.sleep(300);
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    return bytes("image");
                })));
            }
        }
        int misses = 0;
        for (Future<KernelCache.Entry> f : entries) {
            KernelCache.Entry e = f.get();
            assertEquals("image", new String(e.image(), StandardCharsets.UTF_8));
            misses += e.hit() ? 0 : 1;
        }
        assertEquals(1, compiles.get(), "compiles");
        assertEquals(1, misses, "entries that compiled");
        assertEquals(List.of("a.bin"), names(c.directory()), "the image alone is left");
    }

    @Test
    void aFailedCompileStoresNothingAndTheNextCallCompilesAgain() throws Exception {
        KernelCache c = KernelCache.at(tmp.resolve("k"));
        Path file = c.directory().resolve("b.bin");
        assertThrows(CompileException.class, () -> c.entry(file, () -> {
            throw new CompileException("b.cu: error", "log");
        }));
        assertEquals(List.of(), names(c.directory()), "nothing stored, no lock left");
        KernelCache.Entry e = c.entry(file, () -> bytes("second"));
        assertEquals("second", new String(e.image(), StandardCharsets.UTF_8));
        assertEquals(false, e.hit());
    }

    /** Another process compiling the entry: this one waits for it and reads its image, compiling nothing. */
    @Test
    void aMissWaitsForAnotherProcessCompilingTheSameEntry() throws Exception {
        KernelCache c = KernelCache.at(tmp.resolve("k"));
        String java = ProcessHandle.current().info().command().orElse("java");
        Process other = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                KernelCacheCompiler.class.getName(), c.directory().toString(), "c.bin", "2000", "theirs")
                .redirectErrorStream(true).start();
        var out = new java.io.BufferedReader(new java.io.InputStreamReader(other.getInputStream(), StandardCharsets.UTF_8));
        assertEquals("compiling", out.readLine(), "the other process holds the entry's lock");
        KernelCache.Entry e = c.entry(c.directory().resolve("c.bin"), () -> bytes("ours"));
        assertEquals("theirs", new String(e.image(), StandardCharsets.UTF_8), "the other process's image");
        assertTrue(e.hit());
        assertTrue(other.waitFor(30, TimeUnit.SECONDS));
        assertEquals("compiled theirs", out.readLine());
        assertEquals(List.of("c.bin"), names(c.directory()));
    }
}
