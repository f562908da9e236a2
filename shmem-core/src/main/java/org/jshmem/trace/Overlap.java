package org.jshmem.trace;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * How much of a PE's communication ran while it computed, inside one window (a fused GEMM call):
 * the time covered by communication spans (transfers, waits, publications, collectives) that is
 * also covered by compute spans (GEMM tiles) of any of the PE's threads, over the communication
 * time. 1: all of it hidden; 0: none (communication after computation, as on the reference path).
 *
 * @param commMicros    time with some communication going on
 * @param hiddenMicros  the part of it with some computation going on too
 */
public record Overlap(double commMicros, double hiddenMicros) {
    /** The categories that count as communication. */
    public static final Set<String> COMMUNICATION = Set.of("comm", "rma", "wait", "collective", "barrier");
    /** The categories that count as computation. */
    public static final Set<String> COMPUTE = Set.of("compute");

    /** The hidden share, 0 to 1 (0 without communication). */
    public double hiddenShare() {
        return commMicros == 0 ? 0 : hiddenMicros / commMicros;
    }

    /** The overlap within {@code [from, to]} of {@code spans} (one PE's). */
    public static Overlap within(List<TraceFile.Event> spans, double from, double to) {
        List<double[]> comm = union(spans, COMMUNICATION, from, to);
        List<double[]> compute = union(spans, COMPUTE, from, to);
        double total = 0;
        double hidden = 0;
        int j = 0;
        for (double[] c : comm) {
            total += c[1] - c[0];
            while (j < compute.size() && compute.get(j)[1] <= c[0]) {
                j++;
            }
            for (int k = j; k < compute.size() && compute.get(k)[0] < c[1]; k++) {
                hidden += Math.min(c[1], compute.get(k)[1]) - Math.max(c[0], compute.get(k)[0]);
            }
        }
        return new Overlap(total, hidden);
    }

    /** The union of the spans of {@code categories}, clipped to the window, as sorted disjoint intervals. */
    static List<double[]> union(List<TraceFile.Event> spans, Set<String> categories, double from, double to) {
        List<double[]> in = new ArrayList<>();
        for (TraceFile.Event e : spans) {
            if (categories.contains(e.category()) && e.end() > from && e.start() < to) {
                in.add(new double[] {Math.max(from, e.start()), Math.min(to, e.end())});
            }
        }
        in.sort(Comparator.comparingDouble(x -> x[0]));
        List<double[]> out = new ArrayList<>();
        for (double[] x : in) {
            if (!out.isEmpty() && x[0] <= out.getLast()[1]) {
                out.getLast()[1] = Math.max(out.getLast()[1], x[1]);
            } else {
                out.add(x);
            }
        }
        return out;
    }
}
