package org.jshmem.it;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * An ahead-of-time cache of the classes a PE's JVM loads and links while it starts jshmem and makes
 * its calls (JDK 25's {@code -XX:AOTCache}), made once per test run from a job of {@link ApiProgram}:
 * the suite's PE JVMs then map those classes instead of loading, verifying and linking each again,
 * which shortens scripts/test.sh where the suite is bound by CPU time (its two-core runs).
 * On where {@code -Djshmem.test.aotCache} names a directory (tests/integration/pom.xml); a step that
 * fails leaves it off, saying why once. The JVM caches classes from jars and a class path without a
 * non-empty directory: the class path's directories are packed into jars, and mpirun, which puts its
 * working directory first on a Java job's class path, runs in an empty one.
 */
final class PeStartupCache {
    /** A made cache: the PEs' class path, mpirun's working directory and the JVM options that use it. */
    record Cache(String classPath, Path workDir, List<String> jvmOptions) {
    }

    private static Optional<Cache> cache;

    private PeStartupCache() {
    }

    /** The cache for jobs on {@code classPath} (made on the first call), or empty where it is off. */
    static synchronized Optional<Cache> forClassPath(String classPath, List<String> jvmOptions) {
        if (cache == null) {
            String dir = System.getProperty("jshmem.test.aotCache", "");
            cache = dir.isBlank() ? Optional.empty() : make(Path.of(dir), classPath, jvmOptions);
        }
        return cache;
    }

    private static Optional<Cache> make(Path dir, String classPath, List<String> jvmOptions) {
        try {
            Path workDir = dir.resolve("empty");
            Files.createDirectories(workDir);
            String jars = packDirectories(dir, classPath);
            Path file = dir.resolve("pe.aot");
            Files.deleteIfExists(file);
            JobResult training = MpiJob.of(1, ApiProgram.class).classPath(jars).workDir(workDir)
                    .jvmOptions("-XX:AOTCacheOutput=" + file).env("JSHMEM_SYMMETRIC_SIZE", "40m")
                    .timeout(Duration.ofSeconds(120)).run();
            if (!training.succeeded() || !Files.isRegularFile(file)) {
                return off("its training job failed: " + training);
            }
            // a cache the PEs' JVMs could not use would only slow them: check once, at both compiler tiers
            for (String tier : List.of("1", "4")) {
                List<String> cmd = new ArrayList<>(List.of(MpiJob.java()));
                cmd.addAll(jvmOptions.stream()
                        .map(o -> o.startsWith("-XX:TieredStopAtLevel=") ? "-XX:TieredStopAtLevel=" + tier : o).toList());
                cmd.addAll(List.of("-XX:AOTCache=" + file, "-XX:AOTMode=on", "-cp", workDir + File.pathSeparator + jars,
                        "-version"));
                Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
                String out = new String(p.getInputStream().readAllBytes());
                if (p.waitFor() != 0) {
                    return off("the PEs' JVMs cannot use it: " + out.strip());
                }
            }
            return Optional.of(new Cache(jars, workDir, List.of("-XX:AOTCache=" + file)));
        } catch (IOException e) {
            return off(e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return off(e.toString());
        }
    }

    private static Optional<Cache> off(String why) {
        System.err.println("[PeStartupCache] the PEs start without an AOT cache: " + why);
        return Optional.empty();
    }

    /** {@code classPath} with each directory replaced by a jar of its files in {@code dir}, in the same order. */
    private static String packDirectories(Path dir, String classPath) throws IOException {
        List<String> entries = new ArrayList<>();
        int i = 0;
        for (String e : classPath.split(File.pathSeparator)) {
            Path p = Path.of(e);
            if (!Files.isDirectory(p)) {
                entries.add(e);
                continue;
            }
            Path jar = dir.resolve("pe-" + i++ + "-" + p.getFileName() + ".jar");
            try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar)); Stream<Path> files = Files.walk(p)) {
                for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                    out.putNextEntry(new JarEntry(p.relativize(f).toString().replace(File.separatorChar, '/')));
                    Files.copy(f, out);
                    out.closeEntry();
                }
            }
            entries.add(jar.toString());
        }
        return String.join(File.pathSeparator, entries);
    }
}
