package org.jshmem.gpu.shim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LibraryCacheTest {
    @TempDir
    Path tmp;

    private static String mode(Path p) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void installsOncePerContentInOwnerOnlyDirectories() throws IOException {
        Path root = tmp.resolve("cache/jshmem");
        byte[] lib = "not really ELF".getBytes();
        Path a = LibraryCache.install(root, "libx.so", lib);
        FileTime written = Files.getLastModifiedTime(a);
        Path b = LibraryCache.install(root, "libx.so", lib);
        assertEquals(a, b, "reused, not copied again");
        assertEquals(written, Files.getLastModifiedTime(b));
        assertArrayEquals(lib, Files.readAllBytes(a));
        assertEquals("rwx------", mode(root));
        assertEquals("rwx------", mode(a.getParent()));
        Path c = LibraryCache.install(root, "libx.so", "another build".getBytes());
        assertTrue(!c.getParent().equals(a.getParent()), "another content, another directory");
    }

    @Test
    void narrowsAWideDirectoryOfOurs() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("wide"));
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxrwxrwx"));
        LibraryCache.install(root, "libx.so", new byte[] {1});
        assertEquals("rwx------", mode(root));
    }

    @Test
    void refusesASymlinkedDirectory() throws IOException {
        Path real = Files.createDirectories(tmp.resolve("real"));
        Path link = Files.createSymbolicLink(tmp.resolve("link"), real);
        IOException e = assertThrows(IOException.class, () -> LibraryCache.install(link, "libx.so", new byte[] {1}));
        assertTrue(e.getMessage().contains("is a symbolic link"), e.getMessage());
    }

    @Test
    void refusesAnotherUsersDirectory() throws IOException {
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root to give a directory away");
        Path root = Files.createDirectories(tmp.resolve("theirs"));
        Files.setOwner(root, root.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody"));
        IOException e = assertThrows(IOException.class, () -> LibraryCache.install(root, "libx.so", new byte[] {1}));
        assertTrue(e.getMessage().contains("belongs to nobody"), e.getMessage());
    }

    @Test
    void removesOldPerProcessExtractions() throws IOException {
        Path old = Files.createDirectories(tmp.resolve("jshmem-native-123"));
        Files.write(old.resolve("libjshmem_cuda.so"), new byte[] {1});
        Files.setLastModifiedTime(old, FileTime.from(Instant.now().minus(1, ChronoUnit.HOURS)));
        Path fresh = Files.createDirectories(tmp.resolve("jshmem-native-456"));
        assertEquals(1, LibraryCache.removeOldExtractions(tmp));
        assertTrue(Files.notExists(old));
        assertTrue(Files.exists(fresh), "a fresh one may be in use by an older jshmem");
    }
}
