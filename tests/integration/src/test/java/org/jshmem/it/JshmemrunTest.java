package org.jshmem.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/jshmemrun with a main class that no class path entry holds: one message with the class path
 * (and the hint {@code -cp .} when the class file is in the current directory), before mpirun
 * starts. The script runs from a copy in a home of its own, whose build/lib is empty.
 */
class JshmemrunTest {
    @TempDir
    Path home;

    private String run(Path dir, String... args) throws IOException, InterruptedException {
        Path bin = Files.createDirectories(home.resolve("bin"));
        Files.createDirectories(home.resolve("build/lib"));
        Path script = bin.resolve("jshmemrun");
        Files.copy(Path.of(System.getProperty("jshmem.home", "."), "bin", "jshmemrun"), script);
        List<String> command = new ArrayList<>(List.of("bash", script.toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().remove("JSHMEM_MPI_JAR");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), out);
        assertEquals(1, p.exitValue(), out);
        assertFalse(out.contains("Could not find or load main class"), "no JVM was started: " + out);
        return out;
    }

    @Test
    void aClassFileInTheCurrentDirectoryGetsTheHintCpDot() throws Exception {
        Path dir = Files.createDirectories(home.resolve("work"));
        Files.write(dir.resolve("Hello.class"), new byte[] {(byte) 0xCA, (byte) 0xFE});
        String out = run(dir, "-np", "2", "Hello");
        assertTrue(out.startsWith("jshmemrun: main class Hello not found: no entry of the class path holds Hello.class."
                + " The class path:\n  " + home.resolve("build/lib") + "/*\n"), out);
        assertTrue(out.contains("add -cp ., e.g.\n  jshmemrun -np 2 -cp . Hello\n"), out);
    }

    @Test
    void aMissingClassNamesTheClassPathItSearched() throws Exception {
        Path dir = Files.createDirectories(home.resolve("work"));
        Path classes = Files.createDirectories(home.resolve("classes/org/example"));
        Files.write(classes.resolve("Other.class"), new byte[] {(byte) 0xCA, (byte) 0xFE});
        String out = run(dir, "-np", "2", "-cp", home.resolve("classes").toString(), "org.example.Main");
        assertTrue(out.contains("no entry of the class path holds org/example/Main.class"), out);
        assertTrue(out.contains("\n  " + home.resolve("classes") + "\n"), out);
        assertFalse(out.contains("-cp ."), out);
    }
}
