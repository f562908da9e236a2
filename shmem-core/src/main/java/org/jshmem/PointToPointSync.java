package org.jshmem;

import java.util.Arrays;

/**
 * Point-to-point synchronisation (OpenSHMEM 1.5 sections 9.8 and 9.10): signal reads and waits, and
 * waits and tests on this PE's symmetric variables ("ivars"); the signalling side is
 * {@link SignalOperations}.
 *
 * <p>Ordering: a put-with-signal delivers its data before its signal, so a PE that sees the
 * signal (through {@link #signalWaitUntil} or {@link #signalFetch}) sees the data. Waits and
 * tests read with acquire order: what the writer did before its release store or atomic is
 * visible after the wait returns. Waits end in a {@link PeFailedException} if a PE dies.
 *
 * <p>The typed overloads repeat one shape per Java type on purpose (OpenSHMEM's typed API, as
 * {@code shmem_long_put} etc.): each is a one-line default method the JIT inlines into a direct
 * call with a constant element layout.
 */
public sealed interface PointToPointSync permits Shmem {

    /** Reads this PE's signal at {@code signalOffset} of {@code signal} (acquire). */
    long signalFetch(SymmetricSegment signal, long signalOffset);

    /**
     * Waits until this PE's signal satisfies {@code cmp value}, comparing both as unsigned 64-bit
     * values (a signal of -1 is 2<sup>64</sup>-1, greater than any other: see {@link Cmp}); returns
     * the signal's value then.
     */
    long signalWaitUntil(SymmetricSegment signal, long signalOffset, Cmp cmp, long value);

    /** Waits until this PE's int at byte {@code offset} of {@code ivar} satisfies {@code cmp value}. */
    default void waitUntilInt(SymmetricSegment ivar, long offset, Cmp cmp, int value) {
        Args.nonNull("waitUntilInt", "ivar", ivar, "cmp", cmp);
        Shmem s = (Shmem) this;
        long at = s.ivars("waitUntilInt", ivar, offset, 1, 4);
        long t = s.trace().begin("waitUntilInt");
        try {
            for (int n = 0; !cmp.test(s.loadLocal(at, 4), value); ) {
                n = s.runtime().idle(n, "waitUntilInt");
            }
        } catch (WaitTimeoutException e) {
            throw s.runtime().stuck(e, "waits until the int at offset " + offset + " of " + ivar + " is " + cmp
                    + " " + value + "; it is " + s.loadLocal(at, 4));
        } finally {
            s.trace().end("waitUntilInt", "wait", t);   // a wait that failed too
        }
    }

    /** Whether this PE's int at byte {@code offset} of {@code ivar} satisfies {@code cmp value} now. */
    default boolean testInt(SymmetricSegment ivar, long offset, Cmp cmp, int value) {
        Args.nonNull("testInt", "ivar", ivar, "cmp", cmp);
        Shmem s = (Shmem) this;
        return cmp.test(s.loadLocal(s.ivars("testInt", ivar, offset, 1, 4), 4), value);
    }

    /**
     * Waits until every one of the {@code count} ints from byte {@code offset} of {@code ivars}
     * satisfies {@code cmp value}, except those whose {@code ignore} entry is true
     * ({@code ignore} may be null).
     */
    default void waitUntilAllInt(SymmetricSegment ivars, long offset, int count, boolean[] ignore, Cmp cmp, int value) {
        Args.nonNull("waitUntilAllInt", "ivars", ivars, "cmp", cmp);
        waitFor((Shmem) this, "waitUntilAllInt", ivars, offset, count, 4, ignore, cmp, value, Want.ALL);
    }

    /** Waits until one of the ints satisfies {@code cmp value}; returns its index, or -1 if all are ignored. */
    default int waitUntilAnyInt(SymmetricSegment ivars, long offset, int count, boolean[] ignore, Cmp cmp, int value) {
        Args.nonNull("waitUntilAnyInt", "ivars", ivars, "cmp", cmp);
        int[] hit = waitFor((Shmem) this, "waitUntilAnyInt", ivars, offset, count, 4, ignore, cmp, value, Want.ANY);
        return hit.length == 0 ? -1 : hit[0];
    }

    /**
     * Waits until at least one of the ints satisfies {@code cmp value}; returns the indices of all
     * that do (empty if all are ignored).
     */
    default int[] waitUntilSomeInt(SymmetricSegment ivars, long offset, int count, boolean[] ignore, Cmp cmp, int value) {
        Args.nonNull("waitUntilSomeInt", "ivars", ivars, "cmp", cmp);
        return waitFor((Shmem) this, "waitUntilSomeInt", ivars, offset, count, 4, ignore, cmp, value, Want.SOME);
    }

    /** Whether every not-ignored int satisfies {@code cmp value} now. */
    default boolean testAllInt(SymmetricSegment ivars, long offset, int count, boolean[] ignore, Cmp cmp, int value) {
        Args.nonNull("testAllInt", "ivars", ivars, "cmp", cmp);
        Shmem s = (Shmem) this;
        long at = s.ivars("testAllInt", ivars, offset, count, 4);
        return scan(s, at, count, 4, ignore, cmp, value).length == count - ignored(ignore, count, "testAllInt");
    }

    /** The index of a not-ignored int that satisfies {@code cmp value} now, or -1. */
    default int testAnyInt(SymmetricSegment ivars, long offset, int count, boolean[] ignore, Cmp cmp, int value) {
        Args.nonNull("testAnyInt", "ivars", ivars, "cmp", cmp);
        Shmem s = (Shmem) this;
        int[] hit = scan(s, s.ivars("testAnyInt", ivars, offset, count, 4), count, 4, ignore, cmp, value);
        return hit.length == 0 ? -1 : hit[0];
    }

    /** The indices of the not-ignored ints that satisfy {@code cmp value} now. */
    default int[] testSomeInt(SymmetricSegment ivars, long offset, int count, boolean[] ignore, Cmp cmp, int value) {
        Args.nonNull("testSomeInt", "ivars", ivars, "cmp", cmp);
        Shmem s = (Shmem) this;
        return scan(s, s.ivars("testSomeInt", ivars, offset, count, 4), count, 4, ignore, cmp, value);
    }

    /** Waits until this PE's long at byte {@code offset} of {@code ivar} satisfies {@code cmp value}. */
    default void waitUntilLong(SymmetricSegment ivar, long offset, Cmp cmp, long value) {
        Args.nonNull("waitUntilLong", "ivar", ivar, "cmp", cmp);
        Shmem s = (Shmem) this;
        long at = s.ivars("waitUntilLong", ivar, offset, 1, 8);
        long t = s.trace().begin("waitUntilLong");
        try {
            for (int n = 0; !cmp.test(s.loadLocal(at, 8), value); ) {
                n = s.runtime().idle(n, "waitUntilLong");
            }
        } catch (WaitTimeoutException e) {
            throw s.runtime().stuck(e, "waits until the long at offset " + offset + " of " + ivar + " is " + cmp
                    + " " + value + "; it is " + s.loadLocal(at, 8));
        } finally {
            s.trace().end("waitUntilLong", "wait", t);   // a wait that failed too
        }
    }

    /** Whether this PE's long at byte {@code offset} of {@code ivar} satisfies {@code cmp value} now. */
    default boolean testLong(SymmetricSegment ivar, long offset, Cmp cmp, long value) {
        Args.nonNull("testLong", "ivar", ivar, "cmp", cmp);
        Shmem s = (Shmem) this;
        return cmp.test(s.loadLocal(s.ivars("testLong", ivar, offset, 1, 8), 8), value);
    }

    /**
     * Waits until every one of the {@code count} longs from byte {@code offset} of {@code ivars}
     * satisfies {@code cmp value}, except those whose {@code ignore} entry is true
     * ({@code ignore} may be null).
     */
    default void waitUntilAllLong(SymmetricSegment ivars, long offset, int count, boolean[] ignore, Cmp cmp, long value) {
        Args.nonNull("waitUntilAllLong", "ivars", ivars, "cmp", cmp);
        waitFor((Shmem) this, "waitUntilAllLong", ivars, offset, count, 8, ignore, cmp, value, Want.ALL);
    }

    /** Waits until one of the longs satisfies {@code cmp value}; returns its index, or -1 if all are ignored. */
    default int waitUntilAnyLong(SymmetricSegment ivars, long offset, int count, boolean[] ignore, Cmp cmp, long value) {
        Args.nonNull("waitUntilAnyLong", "ivars", ivars, "cmp", cmp);
        int[] hit = waitFor((Shmem) this, "waitUntilAnyLong", ivars, offset, count, 8, ignore, cmp, value, Want.ANY);
        return hit.length == 0 ? -1 : hit[0];
    }

    /**
     * Waits until at least one of the longs satisfies {@code cmp value}; returns the indices of all
     * that do (empty if all are ignored).
     */
    default int[] waitUntilSomeLong(SymmetricSegment ivars, long offset, int count, boolean[] ignore, Cmp cmp, long value) {
        Args.nonNull("waitUntilSomeLong", "ivars", ivars, "cmp", cmp);
        return waitFor((Shmem) this, "waitUntilSomeLong", ivars, offset, count, 8, ignore, cmp, value, Want.SOME);
    }

    /** Whether every not-ignored long satisfies {@code cmp value} now. */
    default boolean testAllLong(SymmetricSegment ivars, long offset, int count, boolean[] ignore, Cmp cmp, long value) {
        Args.nonNull("testAllLong", "ivars", ivars, "cmp", cmp);
        Shmem s = (Shmem) this;
        long at = s.ivars("testAllLong", ivars, offset, count, 8);
        return scan(s, at, count, 8, ignore, cmp, value).length == count - ignored(ignore, count, "testAllLong");
    }

    /** The index of a not-ignored long that satisfies {@code cmp value} now, or -1. */
    default int testAnyLong(SymmetricSegment ivars, long offset, int count, boolean[] ignore, Cmp cmp, long value) {
        Args.nonNull("testAnyLong", "ivars", ivars, "cmp", cmp);
        Shmem s = (Shmem) this;
        int[] hit = scan(s, s.ivars("testAnyLong", ivars, offset, count, 8), count, 8, ignore, cmp, value);
        return hit.length == 0 ? -1 : hit[0];
    }

    /** The indices of the not-ignored longs that satisfy {@code cmp value} now. */
    default int[] testSomeLong(SymmetricSegment ivars, long offset, int count, boolean[] ignore, Cmp cmp, long value) {
        Args.nonNull("testSomeLong", "ivars", ivars, "cmp", cmp);
        Shmem s = (Shmem) this;
        return scan(s, s.ivars("testSomeLong", ivars, offset, count, 8), count, 8, ignore, cmp, value);
    }

    // The vector forms (OpenSHMEM 1.5's shmem_*_wait_until_all_vector etc.): variable i is compared with
    // values[i]. {@code ignore} is OpenSHMEM's status array (true: leave the variable out), may be null.

    /** Waits until every not-ignored int {@code i} from byte {@code offset} of {@code ivars} satisfies {@code cmp values[i]}. */
    default void waitUntilAllVectorInt(SymmetricSegment ivars, long offset, int count, boolean[] ignore, Cmp cmp,
                                      int[] values) {
        Args.nonNull("waitUntilAllVectorInt", "ivars", ivars, "cmp", cmp, "values", values);
        waitFor((Shmem) this, "waitUntilAllVectorInt", ivars, offset, count, 4, ignore, cmp, 0, values, null, Want.ALL);
    }

    /** Waits until one not-ignored int {@code i} satisfies {@code cmp values[i]}; returns its index, or -1 if all are ignored. */
    default int waitUntilAnyVectorInt(SymmetricSegment ivars, long offset, int count, boolean[] ignore, Cmp cmp,
                                     int[] values) {
        Args.nonNull("waitUntilAnyVectorInt", "ivars", ivars, "cmp", cmp, "values", values);
        int[] hit = waitFor((Shmem) this, "waitUntilAnyVectorInt", ivars, offset, count, 4, ignore, cmp, 0, values, null,
                Want.ANY);
        return hit.length == 0 ? -1 : hit[0];
    }

    /** Waits until at least one not-ignored int {@code i} satisfies {@code cmp values[i]}; returns the indices of all that do. */
    default int[] waitUntilSomeVectorInt(SymmetricSegment ivars, long offset, int count, boolean[] ignore, Cmp cmp,
                                        int[] values) {
        Args.nonNull("waitUntilSomeVectorInt", "ivars", ivars, "cmp", cmp, "values", values);
        return waitFor((Shmem) this, "waitUntilSomeVectorInt", ivars, offset, count, 4, ignore, cmp, 0, values, null,
                Want.SOME);
    }

    /** Whether every not-ignored int {@code i} satisfies {@code cmp values[i]} now. */
    default boolean testAllVectorInt(SymmetricSegment ivars, long offset, int count, boolean[] ignore, Cmp cmp,
                                    int[] values) {
        Args.nonNull("testAllVectorInt", "ivars", ivars, "cmp", cmp, "values", values);
        int[] hit = testVector((Shmem) this, "testAllVectorInt", ivars, offset, count, 4, ignore, cmp, values, null);
        return hit.length == count - ignored(ignore, count, "testAllVectorInt");
    }

    /** The index of a not-ignored int {@code i} that satisfies {@code cmp values[i]} now, or -1. */
    default int testAnyVectorInt(SymmetricSegment ivars, long offset, int count, boolean[] ignore, Cmp cmp,
                                int[] values) {
        Args.nonNull("testAnyVectorInt", "ivars", ivars, "cmp", cmp, "values", values);
        int[] hit = testVector((Shmem) this, "testAnyVectorInt", ivars, offset, count, 4, ignore, cmp, values, null);
        return hit.length == 0 ? -1 : hit[0];
    }

    /** The indices of the not-ignored ints {@code i} that satisfy {@code cmp values[i]} now. */
    default int[] testSomeVectorInt(SymmetricSegment ivars, long offset, int count, boolean[] ignore, Cmp cmp,
                                   int[] values) {
        Args.nonNull("testSomeVectorInt", "ivars", ivars, "cmp", cmp, "values", values);
        return testVector((Shmem) this, "testSomeVectorInt", ivars, offset, count, 4, ignore, cmp, values, null);
    }

    // The vector forms (OpenSHMEM 1.5's shmem_*_wait_until_all_vector etc.): variable i is compared with
    // values[i]. {@code ignore} is OpenSHMEM's status array (true: leave the variable out), may be null.

    /** Waits until every not-ignored long {@code i} from byte {@code offset} of {@code ivars} satisfies {@code cmp values[i]}. */
    default void waitUntilAllVectorLong(SymmetricSegment ivars, long offset, int count, boolean[] ignore, Cmp cmp,
                                      long[] values) {
        Args.nonNull("waitUntilAllVectorLong", "ivars", ivars, "cmp", cmp, "values", values);
        waitFor((Shmem) this, "waitUntilAllVectorLong", ivars, offset, count, 8, ignore, cmp, 0, null, values, Want.ALL);
    }

    /** Waits until one not-ignored long {@code i} satisfies {@code cmp values[i]}; returns its index, or -1 if all are ignored. */
    default int waitUntilAnyVectorLong(SymmetricSegment ivars, long offset, int count, boolean[] ignore, Cmp cmp,
                                     long[] values) {
        Args.nonNull("waitUntilAnyVectorLong", "ivars", ivars, "cmp", cmp, "values", values);
        int[] hit = waitFor((Shmem) this, "waitUntilAnyVectorLong", ivars, offset, count, 8, ignore, cmp, 0, null, values,
                Want.ANY);
        return hit.length == 0 ? -1 : hit[0];
    }

    /** Waits until at least one not-ignored long {@code i} satisfies {@code cmp values[i]}; returns the indices of all that do. */
    default int[] waitUntilSomeVectorLong(SymmetricSegment ivars, long offset, int count, boolean[] ignore, Cmp cmp,
                                        long[] values) {
        Args.nonNull("waitUntilSomeVectorLong", "ivars", ivars, "cmp", cmp, "values", values);
        return waitFor((Shmem) this, "waitUntilSomeVectorLong", ivars, offset, count, 8, ignore, cmp, 0, null, values,
                Want.SOME);
    }

    /** Whether every not-ignored long {@code i} satisfies {@code cmp values[i]} now. */
    default boolean testAllVectorLong(SymmetricSegment ivars, long offset, int count, boolean[] ignore, Cmp cmp,
                                    long[] values) {
        Args.nonNull("testAllVectorLong", "ivars", ivars, "cmp", cmp, "values", values);
        int[] hit = testVector((Shmem) this, "testAllVectorLong", ivars, offset, count, 8, ignore, cmp, null, values);
        return hit.length == count - ignored(ignore, count, "testAllVectorLong");
    }

    /** The index of a not-ignored long {@code i} that satisfies {@code cmp values[i]} now, or -1. */
    default int testAnyVectorLong(SymmetricSegment ivars, long offset, int count, boolean[] ignore, Cmp cmp,
                                long[] values) {
        Args.nonNull("testAnyVectorLong", "ivars", ivars, "cmp", cmp, "values", values);
        int[] hit = testVector((Shmem) this, "testAnyVectorLong", ivars, offset, count, 8, ignore, cmp, null, values);
        return hit.length == 0 ? -1 : hit[0];
    }

    /** The indices of the not-ignored longs {@code i} that satisfy {@code cmp values[i]} now. */
    default int[] testSomeVectorLong(SymmetricSegment ivars, long offset, int count, boolean[] ignore, Cmp cmp,
                                   long[] values) {
        Args.nonNull("testSomeVectorLong", "ivars", ivars, "cmp", cmp, "values", values);
        return testVector((Shmem) this, "testSomeVectorLong", ivars, offset, count, 8, ignore, cmp, null, values);
    }

    /** What a multi-variable wait waits for. */
    enum Want { ALL, ANY, SOME }

    private static int[] waitFor(Shmem s, String call, SymmetricSegment ivars, long offset, int count, int width,
                                 boolean[] ignore, Cmp cmp, long value, Want want) {
        return waitFor(s, call, ivars, offset, count, width, ignore, cmp, value, null, null, want);
    }

    /** Waits on {@code count} ivars compared with {@code value}, or element-wise with {@code ints} or {@code longs}. */
    private static int[] waitFor(Shmem s, String call, SymmetricSegment ivars, long offset, int count, int width,
                                 boolean[] ignore, Cmp cmp, long value, int[] ints, long[] longs, Want want) {
        long at = s.ivars(call, ivars, offset, count, width);
        checkValues(call, count, ints, longs);
        int active = count - ignored(ignore, count, call);
        if (active == 0) {
            return new int[0];
        }
        long t = s.trace().begin(call);
        try {
            for (int n = 0; ; n = s.runtime().idle(n, call)) {
                int[] hit = scan(s, at, count, width, ignore, cmp, value, ints, longs);
                if (want == Want.ALL ? hit.length == active : hit.length > 0) {
                    return hit;
                }
            }
        } catch (WaitTimeoutException e) {
            int[] hit = scan(s, at, count, width, ignore, cmp, value, ints, longs);
            throw s.runtime().stuck(e, "waits until " + want.name().toLowerCase(java.util.Locale.ROOT) + " of the "
                    + active + " watched " + (width == 4 ? "ints" : "longs") + " from offset " + offset + " of " + ivars
                    + " are " + cmp + " " + (ints != null || longs != null ? "their values" : Long.toString(value))
                    + "; " + hit.length + " are (indices " + java.util.Arrays.toString(hit) + ")");
        } finally {
            s.trace().end(call, "wait", t);   // a wait that failed too
        }
    }

    private static int[] scan(Shmem s, long at, int count, int width, boolean[] ignore, Cmp cmp, long value) {
        return scan(s, at, count, width, ignore, cmp, value, null, null);
    }

    private static int[] scan(Shmem s, long at, int count, int width, boolean[] ignore, Cmp cmp, long value,
                              int[] ints, long[] longs) {
        int[] hit = new int[count];
        int found = 0;
        for (int i = 0; i < count; i++) {
            long want = ints != null ? ints[i] : longs != null ? longs[i] : value;
            if ((ignore == null || !ignore[i]) && cmp.test(s.loadLocal(at + (long) i * width, width), want)) {
                hit[found++] = i;
            }
        }
        return found == count ? hit : Arrays.copyOf(hit, found);
    }

    /** The vector forms' comparison values: one per variable. */
    private static void checkValues(String call, int count, int[] ints, long[] longs) {
        int length = ints != null ? ints.length : longs != null ? longs.length : count;
        if (length < count) {
            throw new IllegalArgumentException(call + ": the values array has " + length + " entries for " + count
                    + " variables (one comparison value per variable)");
        }
    }

    /** A vector test: checked like the waits, then one scan. */
    private static int[] testVector(Shmem s, String call, SymmetricSegment ivars, long offset, int count, int width,
                                    boolean[] ignore, Cmp cmp, int[] ints, long[] longs) {
        long at = s.ivars(call, ivars, offset, count, width);
        checkValues(call, count, ints, longs);
        ignored(ignore, count, call);
        return scan(s, at, count, width, ignore, cmp, 0, ints, longs);
    }

    private static int ignored(boolean[] ignore, int count, String call) {
        if (ignore == null) {
            return 0;
        }
        if (ignore.length < count) {
            throw new IllegalArgumentException(call + ": the ignore array has " + ignore.length + " entries for "
                    + count + " variables");
        }
        int n = 0;
        for (int i = 0; i < count; i++) {
            n += ignore[i] ? 1 : 0;
        }
        return n;
    }
}
