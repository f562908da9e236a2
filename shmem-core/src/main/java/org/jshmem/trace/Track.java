package org.jshmem.trace;

import java.util.HashMap;
import java.util.Map;

/**
 * One thread's recorded calls: spans in parallel arrays that grow by doubling up to a fixed
 * capacity (past it, spans are counted as dropped), and the small transfers counted per name and
 * peer. Written by its thread only; read at close, when the PE's calls have ended.
 */
final class Track {
    /** Spans one thread keeps; more are counted in {@link #dropped}, not recorded. */
    static final int CAPACITY = 1 << 20;

    final long threadId;
    final String threadName;
    private final int nPes;
    String[] names = new String[256];
    String[] categories = new String[256];
    long[] starts = new long[256];
    long[] ends = new long[256];
    int[] peers = new int[256];
    long[] bytes = new long[256];
    int[] teams = new int[256];
    long[] values = new long[256];
    int count;
    long dropped;
    /** Per name: count and bytes of the small transfers to each PE, {@code [2 * pe]} and {@code [2 * pe + 1]}. */
    final Map<String, long[]> small = new HashMap<>();

    Track(Thread thread, int nPes) {
        this(thread.threadId(), thread.getName(), nPes);
    }

    /** A track that is not a thread's: a block of this PE's kernels ({@code id} clear of thread ids). */
    Track(long id, String name, int nPes) {
        this.threadId = id;
        this.threadName = name;
        this.nPes = nPes;
    }

    void span(String name, String category, long start, long end, int peer, long size, int team) {
        span(name, category, start, end, peer, size, team, -1);
    }

    /** A span with a number of its own ({@code value}: a GPU span's, e.g. the fused GEMM's tile; -1: none). */
    void span(String name, String category, long start, long end, int peer, long size, int team, long value) {
        if (count == names.length && !grow()) {
            dropped++;
            return;
        }
        int i = count++;
        names[i] = name;
        categories[i] = category;
        starts[i] = start;
        ends[i] = end;
        peers[i] = peer;
        bytes[i] = size;
        teams[i] = team;
        values[i] = value;
    }

    void count(String name, int peer, long size) {
        long[] c = small.get(name);
        if (c == null) {
            c = new long[2 * nPes];
            small.put(name, c);
        }
        int at = 2 * Math.max(0, Math.min(peer, nPes - 1));
        c[at]++;
        c[at + 1] += size;
    }

    private boolean grow() {
        if (names.length >= CAPACITY) {
            return false;
        }
        int n = names.length * 2;
        names = java.util.Arrays.copyOf(names, n);
        categories = java.util.Arrays.copyOf(categories, n);
        starts = java.util.Arrays.copyOf(starts, n);
        ends = java.util.Arrays.copyOf(ends, n);
        peers = java.util.Arrays.copyOf(peers, n);
        bytes = java.util.Arrays.copyOf(bytes, n);
        teams = java.util.Arrays.copyOf(teams, n);
        values = java.util.Arrays.copyOf(values, n);
        return true;
    }
}
