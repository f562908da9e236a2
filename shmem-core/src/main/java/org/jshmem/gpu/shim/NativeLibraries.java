package org.jshmem.gpu.shim;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds jshmem's own native libraries: inside the jar under {@code META-INF/native/linux-x86_64/}
 * (extracted once per content into the user's cache, {@link LibraryCache}), or in {@code JSHMEM_NATIVE_DIR}
 * for development builds. A user sets no {@code LD_LIBRARY_PATH} for them.
 */
final class NativeLibraries {
    private static final String RESOURCE_DIR = "/META-INF/native/linux-x86_64/";

    private NativeLibraries() {
    }

    /** Loads {@code lib<name>.so} for the life of the process; throws with where it looked. */
    static SymbolLookup load(String name) {
        String file = "lib" + name + ".so";
        String dir = System.getenv("JSHMEM_NATIVE_DIR");
        Path path;
        if (dir != null && Files.isRegularFile(Path.of(dir, file))) {
            path = Path.of(dir, file);
        } else {
            path = extract(file);
        }
        return SymbolLookup.libraryLookup(path, Arena.global());
    }

    private static Path extract(String file) {
        try (InputStream in = NativeLibraries.class.getResourceAsStream(RESOURCE_DIR + file)) {
            if (in == null) {
                throw new IllegalStateException(file + " is not in this jshmem build (no " + RESOURCE_DIR + file
                        + " in the shmem-core jar, and JSHMEM_NATIVE_DIR is " + System.getenv("JSHMEM_NATIVE_DIR")
                        + "); build the native parts with cmake (see README) before packaging");
            }
            Path root = LibraryCache.defaultRoot();
            LibraryCache.removeOldExtractions(Path.of(System.getProperty("java.io.tmpdir")));
            return LibraryCache.install(root, file, in.readAllBytes());
        } catch (IOException e) {
            throw new IllegalStateException("could not extract " + file + " to jshmem's native-library cache ("
                    + LibraryCache.defaultRoot() + "): " + e.getMessage(), e);
        }
    }
}
