package org.jshmem.gpu.shim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A platform whose vendor driver is absent is refused with the driver's name, before jshmem's shim is
 * extracted and loaded; where the driver is present the shim is probed as before.
 */
class ShimPlatformTest {

    @Test
    void hipWithoutTheAmdDriverNamesIt() {
        String cause = ShimPlatform.unavailabilityCause("hip");
        String noDriver = "no AMD GPU driver (/dev/kfd is absent)";
        if (Files.exists(Path.of("/dev/kfd"))) {
            assertNotEquals(noDriver, cause);
        } else {
            assertEquals(noDriver, cause);
        }
    }

    @Test
    void cudaWithoutTheNvidiaDriverNamesIt() {
        String cause = ShimPlatform.unavailabilityCause("cuda");
        String noDriver = "no NVIDIA driver (libcuda.so.1 is not installed)";
        if (driverLoads()) {
            assertNotEquals(noDriver, cause);
        } else {
            assertEquals(noDriver, cause);
        }
    }

    private static boolean driverLoads() {
        try (Arena a = Arena.ofConfined()) {
            SymbolLookup.libraryLookup("libcuda.so.1", a);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
