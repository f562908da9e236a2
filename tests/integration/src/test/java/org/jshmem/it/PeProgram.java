package org.jshmem.it;

/** Helpers for the programs the tests run on every PE. */
public final class PeProgram {
    private PeProgram() {
    }

    /** Prints {@code PE <pe> <key> <value>}, the line format {@link JobResult} parses. */
    public static void report(int pe, String key, Object value) {
        System.out.println("PE " + pe + " " + key + " " + value);
        System.out.flush();
    }
}
