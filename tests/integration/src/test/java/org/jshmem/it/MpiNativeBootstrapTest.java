package org.jshmem.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The mpi-native bootstrap (Open MPI's C library through FFM) carrying real jobs: chosen by name
 * with the Java bindings on the class path, and by {@code auto} when mpi.jar is absent. Each job
 * is {@link ApiProgram}, checked in full; its {@code describe} report says which bootstrap ran.
 */
class MpiNativeBootstrapTest {
    private static MpiJob api(int n) {
        return MpiJob.of(n, ApiProgram.class).env("JSHMEM_SYMMETRIC_SIZE", "40m").timeout(Duration.ofSeconds(120));
    }

    @ParameterizedTest(name = "{0} PEs")
    @ValueSource(ints = {1, 2, 3, 4})
    void chosenByName(int n) {
        JobResult r = api(n).env("JSHMEM_BOOTSTRAP", "mpi-native").run();
        ApiTest.assertEveryCallRight(r, n);
        r.assertBootstrap("libmpi through FFM");
    }

    @ParameterizedTest(name = "{0} PEs")
    @ValueSource(ints = {1, 2, 3, 4})
    void autoWithoutMpiJar(int n) {
        assertApiWithoutMpiJar(n);
    }

    /** {@link ApiProgram} on {@code n} PEs with no mpi.jar on the class path: auto takes libmpi through FFM. */
    static void assertApiWithoutMpiJar(int n) {
        JobResult r;
        try {
            r = api(n).env("JSHMEM_BOOTSTRAP", "auto")
                    .classPath(String.join(File.pathSeparator, BootstrapFailureTest.classPathWithoutMpi())).run();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        ApiTest.assertEveryCallRight(r, n);
        r.assertBootstrap("libmpi through FFM");
    }

    @Test
    void autoWithMpiJarKeepsTheJavaBindings() {
        JobResult r = MpiJob.of(2, InitProgram.class).env("JSHMEM_BOOTSTRAP", "auto").run();
        assertTrue(r.succeeded(), r::toString);
        r.assertBootstrap("Java bindings");
    }

    @Test
    void mpiErrorCodesBecomeMpiErrorStrings() {
        JobResult r = MpiJob.of(2, org.jshmem.bootstrap.MpiNativeErrorProgram.class).run();
        assertTrue(r.succeeded(), r::toString);
        for (int pe = 0; pe < 2; pe++) {
            assertEquals("MPI_Barrier failed in libmpi.so.40: MPI_ERR_COMM: invalid communicator (error code 5)",
                    r.value(pe, "error"), r::toString);
            assertEquals("2", r.value(pe, "size"), r::toString);
        }
    }
}
