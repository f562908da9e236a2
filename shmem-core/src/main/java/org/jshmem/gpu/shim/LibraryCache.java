package org.jshmem.gpu.shim;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Set;

/**
 * A per-user cache of jshmem's native libraries, keyed by their content: {@code lib} goes to
 * {@code <root>/<first 16 hex digits of its SHA-256>/<name>} once, and every later PE (of this
 * job or of later ones) loads that file: no copy per PE, nothing left in {@code /tmp}. The root is
 * {@code $XDG_CACHE_HOME/jshmem} or {@code ~/.cache/jshmem} (the temporary directory's
 * {@code jshmem-<user>} only when there is no home).
 *
 * <p>Safety: the root and each entry directory are created mode 0700, and a directory that is a
 * symbolic link or is owned by another user is refused (another user could otherwise swap the
 * library this process loads); one of ours with wider permissions is narrowed to 0700. A library
 * is written to a temporary file in its directory and renamed into place, so concurrent PEs never
 * load a half-written file.
 */
public final class LibraryCache {
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");
    private static final Duration STALE = Duration.ofMinutes(10);

    private LibraryCache() {
    }

    /** The cache root of this user, from the environment. */
    public static Path defaultRoot() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
            return Path.of(xdg, "jshmem");
        }
        String home = System.getProperty("user.home");
        if (home != null && !home.isBlank() && !home.equals("?") && Files.isDirectory(Path.of(home))
                && Files.isWritable(Path.of(home))) {
            return Path.of(home, ".cache", "jshmem");
        }
        return Path.of(System.getProperty("java.io.tmpdir"), "jshmem-" + System.getProperty("user.name"));
    }

    /**
     * The path of {@code name} with content {@code bytes} in the cache under {@code root}, written
     * there if it is not yet.
     *
     * @throws IOException if the cache cannot be used safely (a symlink, another user's directory) or written
     */
    public static Path install(Path root, String name, byte[] bytes) throws IOException {
        if (name.contains("/") || name.startsWith(".")) {
            throw new IllegalArgumentException("library name " + name);
        }
        UserPrincipal me = currentUser(root);
        secureDirectory(root, me);
        Path dir = root.resolve(hash(bytes));
        secureDirectory(dir, me);
        Path lib = dir.resolve(name);
        if (Files.exists(lib, LinkOption.NOFOLLOW_LINKS)) {
            PosixFileAttributes a = Files.readAttributes(lib, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (a.isRegularFile() && a.owner().equals(me) && a.size() == bytes.length) {
                return lib;   // written whole by an earlier PE: renamed into place only when complete
            }
        }
        removeStaleTemporaries(dir);
        Path tmp = Files.createTempFile(dir, "." + name + "-", ".tmp");   // 0600
        try {
            Files.write(tmp, bytes);
            Files.move(tmp, lib, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
        return lib;
    }

    /**
     * Deletes {@code jshmem-native-*} directories that earlier jshmem versions left in
     * {@code tmpDir} (one per PE), when they belong to this user and are older than ten minutes.
     * Returns how many it removed.
     */
    public static int removeOldExtractions(Path tmpDir) {
        int removed = 0;
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(tmpDir, "jshmem-native-*")) {
            UserPrincipal me = currentUser(tmpDir);
            Instant old = Instant.now().minus(STALE);
            for (Path d : dirs) {
                try {
                    PosixFileAttributes a = Files.readAttributes(d, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                    if (!a.isDirectory() || !a.owner().equals(me) || a.lastModifiedTime().toInstant().isAfter(old)) {
                        continue;
                    }
                    try (DirectoryStream<Path> files = Files.newDirectoryStream(d)) {
                        for (Path f : files) {
                            Files.deleteIfExists(f);
                        }
                    }
                    Files.deleteIfExists(d);
                    removed++;
                } catch (IOException ignored) {
                    // in use, or not ours to remove
                }
            }
        } catch (IOException ignored) {
            // no temporary directory to clean
        }
        return removed;
    }

    private static UserPrincipal currentUser(Path anywhere) throws IOException {
        return anywhere.getFileSystem().getUserPrincipalLookupService()
                .lookupPrincipalByName(System.getProperty("user.name"));
    }

    /** Creates {@code dir} 0700, or checks that the existing one is a real directory of this user (and makes it 0700). */
    private static void secureDirectory(Path dir, UserPrincipal me) throws IOException {
        Path parent = dir.getParent();
        if (parent != null && !Files.exists(parent)) {
            Files.createDirectories(parent);
        }
        try {
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        } catch (FileAlreadyExistsException exists) {
            // checked below
        }
        PosixFileAttributes a = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (a.isSymbolicLink() || !a.isDirectory()) {
            throw new IOException(dir + " is " + (a.isSymbolicLink() ? "a symbolic link" : "not a directory")
                    + "; jshmem's native-library cache must be a real directory of this user. Remove it, or set"
                    + " XDG_CACHE_HOME to another directory.");
        }
        if (!a.owner().equals(me)) {
            throw new IOException(dir + " belongs to " + a.owner().getName() + ", not to " + me.getName()
                    + "; jshmem does not load native libraries from another user's directory. Remove it, or set"
                    + " XDG_CACHE_HOME to a directory of yours.");
        }
        if (!a.permissions().equals(OWNER_ONLY)) {
            Files.setPosixFilePermissions(dir, EnumSet.copyOf(OWNER_ONLY));
        }
    }

    private static void removeStaleTemporaries(Path dir) {
        try (DirectoryStream<Path> tmps = Files.newDirectoryStream(dir, ".*.tmp")) {
            FileTime old = FileTime.from(Instant.now().minus(STALE));
            for (Path t : tmps) {
                if (Files.getLastModifiedTime(t, LinkOption.NOFOLLOW_LINKS).compareTo(old) < 0) {
                    Files.deleteIfExists(t);   // a PE killed while writing
                }
            }
        } catch (IOException ignored) {
            // nothing to clean
        }
    }

    private static String hash(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
