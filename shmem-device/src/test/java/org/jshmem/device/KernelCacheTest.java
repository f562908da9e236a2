package org.jshmem.device;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
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
}
