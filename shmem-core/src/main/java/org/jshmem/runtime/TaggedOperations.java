package org.jshmem.runtime;

import java.util.Arrays;
import org.jshmem.trace.Trace;

/**
 * The traced stream operations whose kernels time themselves: each gets a number that tags its kernels
 * ({@link org.jshmem.spi.StreamCapability#tagKernels}); their blocks' spans come back with the device
 * trace, and the operation's span on its stream's track runs from the first block's start to the last
 * block's end. Costs the queuing thread a few array stores, where events cost it two driver calls and
 * break the chaining of the kernels' launches.
 */
final class TaggedOperations {
    /** Operations numbered before further ones go untimed (counted as lost): as many as the device ring holds spans. */
    static final int LIMIT = 1 << 18;

    private final Trace trace;
    private int numbered;
    private String[] names = new String[1024];
    private String[] categories = new String[1024];
    private int[] streams = new int[1024];
    private int[] peers = new int[1024];
    private int[] teams = new int[1024];
    private long[] bytes = new long[1024];
    private long[] starts = new long[1024];
    private long[] ends = new long[1024];
    private long lost;

    TaggedOperations(Trace trace) {
        this.trace = trace;
    }

    /**
     * Numbers an operation about to be queued on the stream numbered {@code stream}, from 1; 0 past
     * {@link #LIMIT} (that operation is then counted as lost).
     */
    synchronized int begin(String name, String category, int stream, int peer, long size, int team) {
        if (numbered == LIMIT) {
            lost++;
            return 0;
        }
        numbered++;
        if (numbered == names.length) {
            int n = Math.min(2 * names.length, LIMIT + 1);
            names = Arrays.copyOf(names, n);
            categories = Arrays.copyOf(categories, n);
            streams = Arrays.copyOf(streams, n);
            peers = Arrays.copyOf(peers, n);
            teams = Arrays.copyOf(teams, n);
            bytes = Arrays.copyOf(bytes, n);
            starts = Arrays.copyOf(starts, n);
            ends = Arrays.copyOf(ends, n);
        }
        int op = numbered;
        names[op] = name;
        categories[op] = category;
        streams[op] = stream;
        peers[op] = peer;
        bytes[op] = size;
        teams[op] = team;
        starts[op] = Long.MAX_VALUE;
        ends[op] = Long.MIN_VALUE;
        return op;
    }

    /** Operation {@code op} queued no kernel (a plain copy, a graph's capture) or failed: it has no span. */
    synchronized void drop(int op) {
        names[op] = null;
    }

    /** A span one block of a kernel of operation {@code op} recorded, on this PE's host clock. */
    synchronized void kernelSpan(int op, long start, long end) {
        if (op > 0 && op <= numbered && names[op] != null) {
            starts[op] = Math.min(starts[op], start);
            ends[op] = Math.max(ends[op], end);
        }
    }

    /** Hands every queued operation's span to the trace; those none of whose blocks' spans came are lost. */
    synchronized void write() {
        for (int op = 1; op <= numbered; op++) {
            if (names[op] == null) {
                continue;   // queued no kernel (a plain copy), was captured into a graph, or failed
            }
            if (starts[op] == Long.MAX_VALUE) {
                lost++;     // the device trace's ring was full
            } else {
                trace.streamSpan(streams[op], names[op], categories[op], starts[op], ends[op], peers[op], bytes[op],
                        teams[op]);
            }
        }
        trace.deviceSummary(lost, 0);
        numbered = 0;
        lost = 0;
    }
}
