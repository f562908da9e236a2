package org.jshmem.device;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.jshmem.Shmem;

/**
 * An on-disk cache of run-time compiled kernel images, so that a program's second start loads
 * its specialised kernels instead of compiling them again. The key is a SHA-256 over the source,
 * its name, the options, the compile target ({@link DeviceInfo#targetKey()}) and the content of
 * jshmem's device headers; a changed header or option is a miss, never a stale image.
 *
 * <p>The directory is {@code JSHMEM_CACHE_DIR}, else {@code $XDG_CACHE_HOME/jshmem/kernels}, else
 * {@code ~/.cache/jshmem/kernels}; it is made owner-only (0700) and refused if another user owns it
 * or it is a symbolic link. Entries are written to a temporary file and renamed into place, so no
 * reader sees half an image. A miss is compiled once per machine: the first PE to miss takes a lock
 * on the entry ({@code <key>.lock}, removed after), and the PEs that miss meanwhile wait for it and
 * read its image instead of compiling the same kernel side by side.
 */
public final class KernelCache {
    private static final String VERSION = "jshmem-kernel-cache-1";
    /** The entries this process is compiling, by lock file. */
    private static final ConcurrentHashMap<Path, ReentrantLock> COMPILING = new ConcurrentHashMap<>();
    private static String headersDigest;

    private final Path directory;

    private KernelCache(Path directory) {
        this.directory = directory;
    }

    /** One lookup's outcome: the image, whether it came from the cache, and the time taken. */
    public record Entry(byte[] image, boolean hit, long nanos) {
        public Entry {
            Objects.requireNonNull(image, "image");
        }
    }

    /** The cache at {@code JSHMEM_CACHE_DIR} or the per-user default (see the class comment). */
    public static KernelCache atDefaultLocation() {
        return at(defaultDirectory(System.getenv()));
    }

    /** A cache in {@code directory} (made if missing, owner-only). */
    public static KernelCache at(Path directory) {
        return new KernelCache(prepare(directory));
    }

    /** Where {@link #atDefaultLocation()} keeps its entries, for an environment. */
    public static Path defaultDirectory(java.util.Map<String, String> env) {
        String dir = env.get("JSHMEM_CACHE_DIR");
        if (dir != null && !dir.isBlank()) {
            return Path.of(dir);
        }
        String xdg = env.get("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("jshmem").resolve("kernels");
    }

    /** The cache's directory. */
    public Path directory() {
        return directory;
    }

    /**
     * The compiled image of {@code source} for this PE's device: from the cache, or compiled with
     * {@link DeviceModule#compileImage} and stored.
     *
     * @throws CompileException with the compiler's log when compilation fails (nothing is stored)
     */
    public Entry image(Shmem shmem, String source, String name, String... options) {
        Path file = directory.resolve(key(DeviceInfo.of(shmem).targetKey(), source, name,
                DeviceModule.compileOptions(shmem, options)) + ".bin");
        return entry(file, () -> DeviceModule.compileImage(shmem, source, name, options));
    }

    /** The image in {@code file}, or the one {@code compiler} makes, stored there (see the class comment). */
    Entry entry(Path file, Supplier<byte[]> compiler) {
        long t0 = System.nanoTime();
        try {
            byte[] image = read(file);
            if (image != null) {
                return new Entry(image, true, System.nanoTime() - t0);
            }
            Path lockFile = file.resolveSibling(file.getFileName() + ".lock");
            // a file lock is held per process: threads of one process queue on a lock of their own first
            ReentrantLock threads = COMPILING.computeIfAbsent(lockFile, f -> new ReentrantLock());
            threads.lock();
            try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock ignored = channel.lock()) {
                try {
                    image = read(file);
                    if (image != null) {
                        return new Entry(image, true, System.nanoTime() - t0);
                    }
                    image = compiler.get();
                    store(file, image);
                    return new Entry(image, false, System.nanoTime() - t0);
                } finally {
                    // a PE still waiting on the removed file finds the image, or compiles on a failure
                    Files.deleteIfExists(lockFile);
                }
            } finally {
                threads.unlock();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("kernel cache " + directory + ": " + e.getMessage()
                    + " (set JSHMEM_CACHE_DIR to a writable directory)", e);
        }
    }

    private static byte[] read(Path file) throws IOException {
        return Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) ? Files.readAllBytes(file) : null;
    }

    /** The cache key: hex SHA-256 of everything that decides the image. */
    static String key(String target, String source, String name, String... options) {
        MessageDigest sha = sha256();
        for (String part : List.of(VERSION, target, headersDigest(), name, source)) {
            sha.update(part.getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
        }
        for (String o : options) {
            sha.update(o.getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 1);
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    private static void store(Path file, byte[] image) throws IOException {
        Path tmp = Files.createTempFile(file.getParent(), ".entry-", ".tmp");
        try {
            Files.write(tmp, image);
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static Path prepare(Path directory) {
        try {
            if (Files.isSymbolicLink(directory)) {
                throw new IllegalStateException("kernel cache " + directory + " is a symbolic link; jshmem refuses it"
                        + " (another user could redirect it). Remove it, or set JSHMEM_CACHE_DIR to a directory of yours");
            }
            if (!Files.exists(directory)) {
                Files.createDirectories(directory);
                try {
                    Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwx------"));
                } catch (UnsupportedOperationException ignored) {
                    // not a POSIX file system: nothing to restrict
                }
            }
            String me = System.getProperty("user.name");
            String owner = Files.getOwner(directory, LinkOption.NOFOLLOW_LINKS).getName();
            if (!owner.equals(me)) {
                throw new IllegalStateException("kernel cache " + directory + " belongs to " + owner + ", not " + me
                        + "; set JSHMEM_CACHE_DIR to a directory of yours");
            }
            return directory;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make the kernel cache " + directory + ": " + e.getMessage()
                    + " (set JSHMEM_CACHE_DIR to a writable directory)", e);
        }
    }

    private static synchronized String headersDigest() {
        if (headersDigest == null) {
            MessageDigest sha = sha256();
            Path root = DeviceHeaders.includeDirectory();
            try (Stream<Path> files = Files.walk(root)) {
                for (Path p : files.filter(Files::isRegularFile).sorted().toList()) {
                    sha.update(root.relativize(p).toString().getBytes(StandardCharsets.UTF_8));
                    sha.update(Files.readAllBytes(p));
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read jshmem's device headers: " + e.getMessage(), e);
            }
            headersDigest = HexFormat.of().formatHex(sha.digest());
        }
        return headersDigest;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
