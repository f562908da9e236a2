package org.jshmem.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.zip.ZipEntry;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PEs started by mpirun that cannot start: the Java bindings asked for but missing or wrong, Open
 * MPI's C library missing or not Open MPI's, a bootstrap name that does not exist.
 */
class BootstrapFailureTest {
    @TempDir
    Path tmp;

    /** This JVM's class path without the entries that hold OpenMPI's mpi.MPI. */
    static List<String> classPathWithoutMpi() throws IOException {
        List<String> kept = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path p = Path.of(entry);
            boolean mpi;
            if (Files.isDirectory(p)) {
                mpi = Files.exists(p.resolve("mpi/MPI.class"));
            } else if (Files.isRegularFile(p)) {
                try (JarFile jar = new JarFile(p.toFile())) {
                    mpi = jar.getEntry("mpi/MPI.class") != null;
                }
            } else {
                mpi = false;
            }
            if (!mpi) {
                kept.add(entry);
            }
        }
        return kept;
    }

    @Test
    void mpiJarMissing() throws IOException {
        List<String> cp = classPathWithoutMpi();
        assertTrue(cp.size() < System.getProperty("java.class.path").split(File.pathSeparator).length,
                "the test's own class path has mpi.jar to leave out");
        JobResult r = MpiJob.of(2, InitProgram.class).env("JSHMEM_BOOTSTRAP", "mpi")
                .classPath(String.join(File.pathSeparator, cp)).run();
        assertFalse(r.timedOut(), r::toString);
        assertTrue(r.exitCode() != 0, r::toString);
        List<String> lines = r.linesWith("org.jshmem.BootstrapException: OpenMPI's Java bindings (class mpi.MPI, in"
                + " mpi.jar) are not on the class path, although this process was started by mpirun");
        assertFalse(lines.isEmpty(), r::toString);
        assertTrue(lines.getFirst().contains("Start the program with bin/jshmemrun"), lines.getFirst());
        assertTrue(lines.getFirst().contains("scripts/setup.sh"), lines.getFirst());
        assertTrue(lines.getFirst().contains("Or set JSHMEM_BOOTSTRAP=mpi-native"), lines.getFirst());
        assertTrue(r.reports(0).isEmpty() && r.reports(1).isEmpty(), "no PE started: " + r);
    }

    /** The one line of {@code r} (a job that failed to start) holding {@code text}. */
    private static String failureLine(JobResult r, String text) {
        assertFalse(r.timedOut(), r::toString);
        assertTrue(r.exitCode() != 0, r::toString);
        List<String> lines = r.linesWith(text);
        assertFalse(lines.isEmpty(), r::toString);
        assertTrue(r.reports(0).isEmpty(), "no PE started: " + r);
        return lines.getFirst();
    }

    @Test
    void mpiLibraryMissingUnderAutoWithoutMpiJar() throws IOException {
        JobResult r = MpiJob.of(2, InitProgram.class).env("JSHMEM_MPI_LIBRARY", "/nonexistent/libmpi.so.40")
                .classPath(String.join(File.pathSeparator, classPathWithoutMpi())).run();
        String line = failureLine(r, "org.jshmem.BootstrapException: the mpi-native bootstrap could not load Open MPI's"
                + " C library: tried '/nonexistent/libmpi.so.40' (from JSHMEM_MPI_LIBRARY)");
        assertTrue(line.contains("Install openmpi-bin and libopenmpi3 (Debian/Ubuntu: apt-get install openmpi-bin libopenmpi3;"
                + " scripts/setup.sh does it)"), line);
        assertTrue(line.contains("(JSHMEM_BOOTSTRAP=auto chose mpi-native: OpenMPI's Java bindings, mpi.jar, are not on"
                + " the class path)"), line);
    }

    @Test
    void mpiLibraryNotOpenMpis() {
        JobResult r = MpiJob.of(2, InitProgram.class).env("JSHMEM_BOOTSTRAP", "mpi-native")
                .env("JSHMEM_MPI_LIBRARY", "libc.so.6").run();
        String line = failureLine(r, "org.jshmem.BootstrapException: the library loaded for the mpi-native bootstrap has"
                + " no symbol ompi_mpi_comm_world: it is not Open MPI's libmpi");
        assertTrue(line.contains("use JSHMEM_BOOTSTRAP=mpi"), line);
    }

    @Test
    void unknownBootstrapName() {
        JobResult r = MpiJob.of(1, InitProgram.class).env("JSHMEM_BOOTSTRAP", "mpi-nativ").run();
        failureLine(r, "java.lang.IllegalArgumentException: environment variable JSHMEM_BOOTSTRAP=mpi-nativ is invalid:"
                + " expected one of mpi, mpi-native, single, auto");
    }

    @Test
    void heapLargerThanTheShmDirectory() {
        // the heap is in the /dev/shm file only on the host backend: this test names it whatever
        // backend the rest of the suite runs on (-Djshmem.test.backend)
        JobResult r = MpiJob.of(2, InitProgram.class).env("JSHMEM_SYMMETRIC_SIZE", "64T").env("JSHMEM_BACKEND", "host").run();
        assertFalse(r.timedOut(), r::toString);
        assertTrue(r.exitCode() != 0, r::toString);
        List<String> lines = r.linesWith("org.jshmem.BootstrapException: PE 0 could not create the node's shared memory:"
                + " /dev/shm has");
        assertFalse(lines.isEmpty(), r::toString);   // mpirun may end the other PE before it prints
        assertTrue(lines.getFirst().contains("but 2 PEs x 65536.0 GiB of symmetric heap need"), lines.getFirst());
        assertTrue(lines.getFirst().contains("Lower JSHMEM_SYMMETRIC_SIZE, or give /dev/shm more room"), lines.getFirst());
    }

    @Test
    void wrongMpiJar() throws IOException {
        // an mpi.MPI that is not OpenMPI's: it has none of the methods jshmem calls
        Path src = Files.createDirectories(tmp.resolve("src/mpi"));
        Files.writeString(src.resolve("MPI.java"), "package mpi;\npublic class MPI {\n    public static final String VERSION = \"fake\";\n}\n");
        Path classes = Files.createDirectories(tmp.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertEquals(0, javac.run(null, null, null, "-d", classes.toString(), src.resolve("MPI.java").toString()));
        Path jar = tmp.resolve("mpi.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new ZipEntry("mpi/MPI.class"));
            Files.copy(classes.resolve("mpi/MPI.class"), (OutputStream) out);
            out.closeEntry();
        }
        List<String> cp = classPathWithoutMpi();
        cp.add(jar.toString());
        JobResult r = MpiJob.of(2, InitProgram.class).classPath(String.join(File.pathSeparator, cp)).run();
        assertFalse(r.timedOut(), r::toString);
        assertTrue(r.exitCode() != 0, r::toString);
        List<String> lines = r.linesWith("org.jshmem.BootstrapException: the mpi.jar on the class path does not match"
                + " this OpenMPI's libmpi_java.so");
        assertFalse(lines.isEmpty(), r::toString);
        assertTrue(lines.getFirst().contains("Rebuild it from the installed OpenMPI's source"), lines.getFirst());
        assertTrue(lines.getFirst().contains("scripts/setup.sh"), lines.getFirst());
    }
}
