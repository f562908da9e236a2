package org.jshmem.device;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
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
                copyFromJar(((JarURLConnection) url.openConnection()).getJarFile(), out);
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

    /** Copies the headers out of the jar (java.util.jar: works on runtimes without the zip file system). */
    private static void copyFromJar(JarFile jar, Path to) throws IOException {
        for (JarEntry e : Collections.list(jar.entries())) {
            if (e.isDirectory() || !e.getName().startsWith(ROOT + "/")) {
                continue;
            }
            Path target = to.resolve(e.getName().substring(ROOT.length() + 1));
            Files.createDirectories(target.getParent());
            try (InputStream in = jar.getInputStream(e)) {
                Files.copy(in, target);
            }
            target.toFile().deleteOnExit();
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
