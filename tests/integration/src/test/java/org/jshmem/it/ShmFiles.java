package org.jshmem.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The node-shared memory files jshmem makes ({@code jshmem-<pid of PE 0>-<random>}). */
final class ShmFiles {
    static final Path DEFAULT_DIR = Path.of("/dev/shm");

    private ShmFiles() {
    }

    /** Files in {@code dir} made by a job whose PE 0 had process id {@code pid}. */
    static List<Path> ofJob(Path dir, long pid) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith("jshmem-" + pid + "-")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Everything in {@code dir}. */
    static List<Path> all(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
