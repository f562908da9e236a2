package org.jshmem.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jshmem.BootstrapException;
import org.junit.jupiter.api.Test;

/**
 * {@link OpenMpiAbi}'s facts against the installed Open MPI's {@code mpi.h} (libopenmpi-dev, which
 * scripts/setup.sh installs), and {@link LibMpi}'s loading, without starting MPI (an MPI call
 * before MPI_Init would end this JVM).
 */
class OpenMpiAbiTest {
    private static final Path HEADER = Path.of("/usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h");

    private static String header() throws IOException {
        assumeTrue(Files.isRegularFile(HEADER), HEADER + " not installed (libopenmpi-dev)");
        return Files.readString(HEADER);
    }

    private static int define(String h, String name) {
        Matcher m = Pattern.compile("#define " + name + "\\s+(\\S+)").matcher(h);
        assertTrue(m.find(), name + " defined in mpi.h");
        String v = m.group(1);
        return v.matches("-?\\d+") ? Integer.parseInt(v) : define(h, v);
    }

    /** The position of {@code member} in the anonymous enum of mpi.h that lists it. */
    private static int enumPosition(String h, String member) {
        Matcher m = Pattern.compile("enum \\{([^}]*)\\}").matcher(h);
        while (m.find()) {
            List<String> members = Arrays.stream(m.group(1).replaceAll("/\\*.*?\\*/", "").split(","))
                    .map(s -> s.trim().split("\\s")[0]).toList();
            if (members.contains(member)) {
                assertTrue(m.group(1).indexOf('=') < 0 || m.group(1).indexOf('=') > m.group(1).indexOf(member),
                        "no explicit value before " + member);
                return members.indexOf(member);
            }
        }
        throw new AssertionError(member + " is in no enum of mpi.h");
    }

    @Test
    void constantsMatchTheInstalledHeader() throws IOException {
        String h = header();
        assertEquals(OpenMpiAbi.SUCCESS, define(h, "MPI_SUCCESS"));
        assertEquals(OpenMpiAbi.MAX_ERROR_STRING, define(h, "MPI_MAX_ERROR_STRING"));
        assertEquals(OpenMpiAbi.MAX_LIBRARY_VERSION_STRING, define(h, "MPI_MAX_LIBRARY_VERSION_STRING"));
        assertEquals(OpenMpiAbi.COMM_TYPE_SHARED, enumPosition(h, "MPI_COMM_TYPE_SHARED"));
        assertEquals(OpenMpiAbi.THREAD_SERIALIZED, enumPosition(h, "MPI_THREAD_SERIALIZED"));
        assertEquals("MPI_THREAD_SERIALIZED", OpenMpiAbi.threadLevelName(enumPosition(h, "MPI_THREAD_SERIALIZED")));
        assertEquals("MPI_THREAD_SINGLE", OpenMpiAbi.threadLevelName(enumPosition(h, "MPI_THREAD_SINGLE")));
    }

    @Test
    void handlesAreAddressesOfTheNamedGlobals() throws IOException {
        String h = header();
        assertTrue(h.contains("typedef struct ompi_communicator_t *MPI_Comm;"), "MPI_Comm is a pointer");
        assertTrue(h.contains("typedef struct ompi_datatype_t *MPI_Datatype;"), "MPI_Datatype is a pointer");
        for (String[] handle : new String[][] {{"MPI_COMM_WORLD", "MPI_Comm", OpenMpiAbi.COMM_WORLD},
                {"MPI_BYTE", "MPI_Datatype", OpenMpiAbi.BYTE}, {"MPI_INFO_NULL", "MPI_Info", OpenMpiAbi.INFO_NULL},
                {"MPI_ERRORS_RETURN", "MPI_Errhandler", OpenMpiAbi.ERRORS_RETURN}}) {
            assertTrue(Pattern.compile("#define " + handle[0] + " OMPI_PREDEFINED_GLOBAL\\(\\s*" + handle[1] + ",\\s*"
                    + handle[2] + "\\)").matcher(h).find(), handle[0] + " is &" + handle[2]);
        }
        assertTrue(h.contains("#define OMPI_PREDEFINED_GLOBAL(type, global) ((type) ((void *) &(global)))"),
                "a predefined handle is the global's address");
    }

    @Test
    void loadsTheLibraryOnce() {
        assumeTrue(Files.exists(Path.of("/usr/lib/x86_64-linux-gnu", OpenMpiAbi.LIBRARY)), OpenMpiAbi.LIBRARY + " not installed");
        LibMpi lib = LibMpi.load("");
        assertEquals(OpenMpiAbi.LIBRARY, lib.library);
        assertNotNull(lib.commWorld);
        assertSame(lib, LibMpi.load(null));
    }

    @Test
    void aMissingLibrarySaysWhatWasTriedAndWhatToInstall() {
        BootstrapException e = assertThrows(BootstrapException.class, () -> LibMpi.load("/nonexistent/libmpi.so.40"));
        assertTrue(e.getMessage().contains("tried '/nonexistent/libmpi.so.40' (from JSHMEM_MPI_LIBRARY)"), e.getMessage());
        assertTrue(e.getMessage().contains("apt-get install openmpi-bin libopenmpi3"), e.getMessage());
    }

    @Test
    void aLibraryThatIsNotOpenMpisIsNamedSo() {
        BootstrapException e = assertThrows(BootstrapException.class, () -> LibMpi.load("libc.so.6"));
        assertTrue(e.getMessage().contains("has no symbol ompi_mpi_comm_world: it is not Open MPI's libmpi"), e.getMessage());
    }
}
