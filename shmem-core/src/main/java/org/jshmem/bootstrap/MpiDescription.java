package org.jshmem.bootstrap;

import java.util.function.Supplier;

/** The {@link Bootstrap#describe()} text of both MPI bootstraps, which say which one runs. */
final class MpiDescription {
    private MpiDescription() {
    }

    /**
     * E.g. "Open MPI v4.1.4 (libmpi through FFM), rank 0 of 4": the first part of the
     * library's version string ("MPI" if it cannot be had), how it is reached, the rank.
     */
    static String of(Supplier<String> libraryVersion, String via, int rank, int size) {
        String lib;
        try {
            lib = libraryVersion.get().split("[,\n]")[0].trim();
        } catch (RuntimeException | LinkageError e) {
            lib = "MPI";
        }
        return lib + " (" + via + "), rank " + rank + " of " + size;
    }
}
