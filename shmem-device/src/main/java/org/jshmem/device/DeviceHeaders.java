package org.jshmem.device;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;

/**
 * jshmem's device headers ({@code <jshmem/jshmem.h>} and friends), which travel inside the
 * shmem-device jar: copied once per process to a private directory for the run-time compiler.
 */
public final class DeviceHeaders {
    private static final String ROOT = "META-INF/jshmem/include";
    private static Path directory;

    private DeviceHeaders() {
    }

    /** A directory to pass as {@code -I}: it holds {@code jshmem/jshmem.h}. */
    public static synchronized Path includeDirectory() {
        if (directory == null) {
            directory = extract();
        }
        return directory;
    }

    private static Path extract() {
        URL url = DeviceHeaders.class.getClassLoader().getResource(ROOT + "/jshmem/jshmem.h");
        if (url == null) {
            throw new IllegalStateException("jshmem's device headers are not on the class path (" + ROOT + " in the shmem-device jar)");
        }
        try {
            Path out = Files.createTempDirectory("jshmem-include-");
            URI uri = url.toURI();
            if ("jar".equals(uri.getScheme())) {
                try (FileSystem jar = FileSystems.newFileSystem(uri, Map.of())) {
                    copyTree(jar.getPath(ROOT), out);
                }
            } else {
                copyTree(Path.of(uri).getParent().getParent(), out);
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy jshmem's device headers: " + e.getMessage(), e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
                target.toFile().deleteOnExit();
            }
        }
    }
}
