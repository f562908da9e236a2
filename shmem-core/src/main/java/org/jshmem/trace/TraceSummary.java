package org.jshmem.trace;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code bin/jshmemrun trace-summary FILE}: what a trace holds, per operation (calls, bytes,
 * time), the small transfers counted per peer, and for each GEMM call the share of its
 * communication that was hidden under computation, per PE, with the mean per path (fused,
 * reference) so that the gain from fusing is one number.
 */
public final class TraceSummary {
    private TraceSummary() {
    }

    public static void main(String[] args) {
        if (args.length != 1 || args[0].equals("-h") || args[0].equals("--help")) {
            System.err.println("usage: jshmemrun trace-summary FILE   (a trace written with JSHMEM_TRACE=FILE or jshmemrun --trace FILE)");
            System.exit(args.length == 1 ? 0 : 2);
        }
        Path file = Path.of(args[0]);
        try {
            print(TraceFile.read(file), file, System.out);
        } catch (NoSuchFileException e) {
            System.err.println("trace-summary: " + file + " does not exist (the job writes it at close: did it end?)");
            System.exit(2);
        } catch (IOException | IllegalArgumentException e) {
            System.err.println("trace-summary: cannot read " + file + ": " + e.getMessage());
            System.exit(2);
        }
    }

    /** Prints the summary of {@code trace} read from {@code file}. */
    public static void print(TraceFile trace, Path file, PrintStream out) throws IOException {
        List<TraceFile.Event> spans = trace.events().stream().filter(TraceFile.Event::isSpan).toList();
        long dropped = trace.clocks().values().stream().mapToLong(TraceFile.Clock::dropped).sum();
        long lost = trace.clocks().values().stream().mapToLong(c -> Math.max(0, c.gpuLost())).sum();
        out.printf(Locale.ROOT, "trace %s (%d bytes): %d PEs, %d spans, %d dropped%s%n", file, Files.size(file),
                trace.clocks().size(), spans.size(), dropped,
                lost == 0 ? "" : String.format(Locale.ROOT, ", %d kernel spans lost (the GPU ring was full)", lost));
        StringBuilder clocks = new StringBuilder("clocks onto PE 0's:");
        trace.clocks().forEach((pe, c) -> clocks.append(String.format(Locale.ROOT, " PE %d %+d ns (+/- %d)", pe,
                c.offsetNanos(), c.errorNanos())));
        out.println(clocks);

        record Row(String category, long[] callsBytes, double[] micros) {
        }
        Map<String, Row> rows = new TreeMap<>();
        for (TraceFile.Event e : spans) {
            Row r = rows.computeIfAbsent(e.name(), k -> new Row(e.category(), new long[2], new double[1]));
            r.callsBytes()[0]++;
            r.callsBytes()[1] += Math.max(0, e.arg("bytes"));
            r.micros()[0] += e.duration();
        }
        out.printf(Locale.ROOT, "%n%-28s %-10s %9s %12s %12s %10s%n", "operation", "category", "calls", "bytes", "total ms",
                "mean us");
        rows.forEach((name, r) -> out.printf(Locale.ROOT, "%-28s %-10s %9d %12s %12.3f %10.1f%n", name, r.category(),
                r.callsBytes()[0], bytes(r.callsBytes()[1]), r.micros()[0] / 1e3, r.micros()[0] / r.callsBytes()[0]));

        Map<String, long[]> small = new TreeMap<>();
        for (TraceFile.Event e : trace.events()) {
            if (e.category().equals("rma-small")) {
                long[] s = small.computeIfAbsent(e.name(), k -> new long[2]);
                s[0] += e.arg("count");
                s[1] += e.arg("bytes");
            }
        }
        if (!small.isEmpty()) {
            out.printf(Locale.ROOT, "%nsmall transfers (under %d bytes each, counted per peer, not timed):%n",
                    Trace.SMALL_BYTES);
            small.forEach((name, s) -> out.printf(Locale.ROOT, "%-28s %-10s %9d %12s%n", name, "rma", s[0], bytes(s[1])));
        }
        gemms(trace, out);
    }

    /** Per PE and GEMM (span name): calls, wall time, communication time and the share of it hidden. */
    private static void gemms(TraceFile trace, PrintStream out) {
        record Sums(double[] v) {   // calls, wall, comm, hidden, calls with compute spans
        }
        Map<String, Sums> perPe = new TreeMap<>();
        Map<String, double[]> perPath = new TreeMap<>();   // comm, hidden
        for (int pe : trace.pes()) {
            List<TraceFile.Event> spans = trace.spans(pe);
            for (TraceFile.Event g : spans) {
                if (!g.category().equals("gemm")) {
                    continue;
                }
                Overlap o = Overlap.within(spans, g.start(), g.end());
                boolean computed = spans.stream().anyMatch(e -> Overlap.COMPUTE.contains(e.category())
                        && e.start() < g.end() && e.end() > g.start());
                double[] v = perPe.computeIfAbsent(String.format(Locale.ROOT, "%3d  %s", pe, g.name()),
                        k -> new Sums(new double[5])).v();
                v[0]++;
                v[1] += g.duration();
                v[2] += o.commMicros();
                v[3] += o.hiddenMicros();
                v[4] += computed ? 1 : 0;
                if (computed) {
                    double[] p = perPath.computeIfAbsent(g.name().substring(g.name().lastIndexOf(' ') + 1), k -> new double[2]);
                    p[0] += o.commMicros();
                    p[1] += o.hiddenMicros();
                }
            }
        }
        if (perPe.isEmpty()) {
            out.printf("%nno GEMM call in this trace%n");
            return;
        }
        out.printf(Locale.ROOT, "%nGEMM calls: communication hidden under computation%n%3s  %-32s %6s %12s %12s %8s%n",
                "PE", "GEMM", "calls", "wall ms", "comm ms", "hidden");
        perPe.forEach((key, sums) -> {
            double[] v = sums.v();
            out.printf(Locale.ROOT, "%-37s %6d %12.3f %12.3f %8s%n", key, (long) v[0], v[1] / 1e3, v[2] / 1e3,
                    v[4] == 0 ? "no tiles" : String.format(Locale.ROOT, "%.0f%%", v[2] == 0 ? 0 : 100 * v[3] / v[2]));
        });
        perPath.forEach((path, p) -> out.printf(Locale.ROOT, "hidden, %s path: %.0f%% of its communication time%n",
                path, p[0] == 0 ? 0 : 100 * p[1] / p[0]));
        if (perPath.isEmpty()) {
            out.println("no compute spans under the GEMM calls: a call queued on a stream (runOnStream) ends on the host"
                    + " before its kernel runs; the blocking run() holds its kernel's tiles");
        }
    }

    private static String bytes(long b) {
        if (b == 0) {
            return "-";
        }
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        double v = b;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return u == 0 ? b + " B" : String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }
}
