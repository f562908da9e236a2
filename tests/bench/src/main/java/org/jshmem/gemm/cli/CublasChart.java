package org.jshmem.gemm.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.ToDoubleFunction;
import org.jshmem.gemm.GemmCollective;
import org.jshmem.perf.Charts;
import org.knowm.xchart.CategoryChart;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The GEMM alone against cuBLAS, shape by shape, from the CSVs of one run: GemmMain's
 * ({@code gemm -c none --csv}) and the one-GPU anchor's ({@code ../shared/anchors/run-gemm.sh}, as
 * {@code gpu-run.sh gemm} saves it). For each type it prints the TFLOP/s of both, their ratio and its
 * geometric means (over all shapes, and over the wave-quantised ones), and draws a bar chart
 * ({@code gemm-vs-cublas-<type>.png}). A shape GemmMain ran that the anchor did not is refused.
 *
 * <p>Where GemmMain ran with {@code --reference}, its rows also hold cuBLAS ({@code cublasGemmEx}) timed
 * as gemm-ext is: the same matrices, calls queued back to back on a stream with events around each. The
 * anchor synchronises after every call, so each call starts from an idle GPU with the host's dispatch
 * inside its events, which makes short calls (under about 250 us) look much slower than the same calls
 * queued. Those rows add a column and a ratio "timed alike".
 *
 * <pre>java -cp 'build/lib/*' org.jshmem.gemm.cli.CublasChart --jshmem gemm-alone.csv --cublas anchor-cublas.csv -o DIR</pre>
 */
@Command(name = "gemm-vs-cublas", mixinStandardHelpOptions = true,
        description = "The GEMM alone against cuBLAS per shape: a table and a PNG chart per type.")
public final class CublasChart implements Callable<Integer> {
    /** The shapes where cuBLAS's waves quantise: where Stream-K has the most to gain. */
    static final List<String> WAVE_QUANTISED = List.of("3840x3840x4096", "5120x5120x2048", "1536x6144x8192");

    @Option(names = "--jshmem", paramLabel = "CSV", required = true, description = "GemmMain's CSV (-c none rows).")
    private Path jshmem;

    @Option(names = "--cublas", paramLabel = "CSV", required = true, description = "The anchor's CSV (run-gemm.sh).")
    private Path cublas;

    @Option(names = {"-o", "--output"}, paramLabel = "DIR", description = "Where the charts go (default: no charts).")
    private Path output;

    /**
     * One shape of one type: TFLOP/s of gemm-ext, of the anchor's cuBLAS, and of cuBLAS timed alike
     * (GemmMain's reference, NaN when it ran without {@code --reference}).
     */
    record Row(String shape, double jshmem, double cublas, double alike) {
        double ratio() {
            return jshmem / cublas;
        }

        double ratioAlike() {
            return jshmem / alike;
        }
    }

    /** One GemmMain row's figures: gemm-ext's TFLOP/s and its reference's (NaN if none). */
    private record Ours(double tflops, double alike) {
    }

    /** One type's rows, in the anchor's order, and the device GemmMain ran on. */
    record Comparison(String type, String device, List<Row> rows) {
        /** The geometric mean of the ratios to the anchor over {@code shapes} (null: all). */
        double geomean(List<String> shapes) {
            return geomean(shapes, Row::ratio);
        }

        /** The same for the ratios to cuBLAS timed alike (NaN where a row has none). */
        double geomeanAlike(List<String> shapes) {
            return geomean(shapes, Row::ratioAlike);
        }

        /** Whether every row has cuBLAS timed alike. */
        boolean hasAlike() {
            return rows.stream().noneMatch(r -> Double.isNaN(r.alike()));
        }

        private double geomean(List<String> shapes, ToDoubleFunction<Row> ratio) {
            List<Row> of = shapes == null ? rows : rows.stream().filter(r -> shapes.contains(r.shape())).toList();
            return Math.exp(of.stream().mapToDouble(r -> Math.log(ratio.applyAsDouble(r))).average().orElse(Double.NaN));
        }
    }

    public static void main(String[] args) {
        System.exit(command().execute(args));
    }

    /** The command line, which reports bad input by its message, not a stack trace. */
    static CommandLine command() {
        return new CommandLine(new CublasChart()).setExecutionExceptionHandler((e, cmd, parsed) -> {
            cmd.getErr().println("gemm-vs-cublas: " + e.getMessage());
            return 1;
        });
    }

    @Override
    public Integer call() {
        List<Map<String, String>> ours = read(jshmem, List.of("collective", "dtype", "m", "n", "k", "device", "tflops_per_pe"));
        List<Map<String, String>> anchor = read(cublas, List.of("dtype", "m", "n", "k", "tflops"));
        for (Comparison c : compare(ours, anchor)) {
            System.out.print(table(c));
            if (output != null) {
                Charts.writePng(chart(c), output.resolve("gemm-vs-cublas-" + c.type() + ".png"));
            }
        }
        return 0;
    }

    /**
     * Pairs GemmMain's rows (collective none) with the anchor's, per type (bf16, fp16), in the anchor's order.
     *
     * @throws IllegalArgumentException naming a shape GemmMain ran and the anchor did not, or when GemmMain's
     *     rows hold no GEMM alone
     */
    static List<Comparison> compare(List<Map<String, String>> ours, List<Map<String, String>> anchor) {
        Map<String, Map<String, Double>> cublasByType = new LinkedHashMap<>();
        for (Map<String, String> r : anchor) {
            cublasByType.computeIfAbsent(typeName(r.get("dtype")), t -> new LinkedHashMap<>())
                    .put(shape(r), Double.parseDouble(r.get("tflops")));
        }
        Map<String, Map<String, Ours>> oursByType = new LinkedHashMap<>();
        Map<String, String> devices = new LinkedHashMap<>();
        for (Map<String, String> r : ours) {
            if (r.get("collective").equals(GemmCollective.NONE.cliName())) {
                String type = typeName(r.get("dtype"));
                String alike = r.getOrDefault("ref_tflops_per_pe", "");
                oursByType.computeIfAbsent(type, t -> new LinkedHashMap<>()).put(shape(r), new Ours(
                        Double.parseDouble(r.get("tflops_per_pe")), alike.isEmpty() ? Double.NaN : Double.parseDouble(alike)));
                devices.put(type, r.get("device"));
            }
        }
        if (oursByType.isEmpty()) {
            throw new IllegalArgumentException("no GEMM-alone rows (collective none) to compare: run gemm -c none"
                    + " --shapes anchor --csv F, as gpu-run.sh gemm does");
        }
        List<Comparison> out = new ArrayList<>();
        oursByType.forEach((type, figures) -> {
            Map<String, Double> theirs = cublasByType.getOrDefault(type, Map.of());
            figures.keySet().stream().filter(s -> !theirs.containsKey(s)).findFirst().ifPresent(s -> {
                throw new IllegalArgumentException("GemmMain ran " + type + " " + s + ", which the cuBLAS anchor's CSV"
                        + " does not have: compare runs of the same shapes (gpu-run.sh gemm runs the anchor's)");
            });
            List<Row> rows = theirs.entrySet().stream().filter(e -> figures.containsKey(e.getKey()))
                    .map(e -> new Row(e.getKey(), figures.get(e.getKey()).tflops(), e.getValue(), figures.get(e.getKey()).alike()))
                    .toList();
            out.add(new Comparison(type, devices.get(type), rows));
        });
        return out;
    }

    /** The comparison as a Markdown table with its geometric means. */
    static String table(Comparison c) {
        boolean alike = c.hasAlike();
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%n%s on %s, TFLOP/s%n%n", c.type(), c.device()));
        b.append(alike ? "| m x n x k | jshmem | cuBLAS (anchor) | ratio | cuBLAS timed alike | ratio |\n|---|---|---|---|---|---|\n"
                : "| m x n x k | jshmem | cuBLAS | ratio |\n|---|---|---|---|\n");
        for (Row r : c.rows()) {
            b.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %.3f |", r.shape(), r.jshmem(), r.cublas(), r.ratio()));
            b.append(alike ? String.format(Locale.ROOT, " %.1f | %.3f |%n", r.alike(), r.ratioAlike()) : "\n");
        }
        b.append(String.format(Locale.ROOT, "%ngeometric mean against the anchor: all %d shapes %.3f, wave-quantised %.3f%n",
                c.rows().size(), c.geomean(null), c.geomean(WAVE_QUANTISED)));
        if (alike) {
            b.append(String.format(Locale.ROOT, "geometric mean against cuBLAS timed alike: all %d shapes %.3f, wave-quantised %.3f%n",
                    c.rows().size(), c.geomeanAlike(null), c.geomeanAlike(WAVE_QUANTISED)));
        }
        return b.toString();
    }

    private static CategoryChart chart(Comparison c) {
        CategoryChart chart = Charts.shapeBars(String.format(Locale.ROOT,
                "GEMM alone, %s, %s: jshmem / cuBLAS geomean %.3f%s", c.type(), c.device(), c.geomean(null),
                c.hasAlike() ? String.format(Locale.ROOT, " (anchor), %.3f (timed alike)", c.geomeanAlike(null)) : ""),
                "TFLOP/s");
        List<String> shapes = c.rows().stream().map(Row::shape).toList();
        chart.addSeries("jshmem", shapes, c.rows().stream().map(Row::jshmem).toList());
        chart.addSeries(c.hasAlike() ? "cuBLAS (anchor)" : "cuBLAS", shapes, c.rows().stream().map(Row::cublas).toList());
        if (c.hasAlike()) {
            chart.addSeries("cuBLAS timed alike", shapes, c.rows().stream().map(Row::alike).toList());
        }
        return chart;
    }

    private static String shape(Map<String, String> r) {
        return r.get("m") + "x" + r.get("n") + "x" + r.get("k");
    }

    /** GemmMain writes bf16 / fp16, the anchor bfloat16 / float16. */
    private static String typeName(String dtype) {
        return switch (dtype.toLowerCase(Locale.ROOT)) {
            case "bf16", "bfloat16" -> "bf16";
            case "fp16", "float16" -> "fp16";
            default -> throw new IllegalArgumentException("unknown element type " + dtype + " (bf16 and fp16 are compared)");
        };
    }

    /**
     * A CSV's rows by column name; lines starting with '#' are comments, and fields may be quoted.
     *
     * @throws IllegalArgumentException when a column in {@code needed} is not in its header
     */
    static List<Map<String, String>> read(Path csv, List<String> needed) {
        List<String> lines;
        try {
            lines = Files.readAllLines(csv).stream().filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + csv + ": " + e.getMessage(), e);
        }
        if (lines.isEmpty()) {
            throw new IllegalArgumentException(csv + " is empty: is it a GemmMain or run-gemm.sh CSV?");
        }
        List<String> header = fields(lines.getFirst());
        needed.stream().filter(c -> !header.contains(c)).findFirst().ifPresent(c -> {
            throw new IllegalArgumentException(csv + " has no column " + c + " (its header: " + header + "): is it a"
                    + " GemmMain CSV for --jshmem and a run-gemm.sh one for --cublas?");
        });
        List<Map<String, String>> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            List<String> f = fields(line);
            if (f.size() != header.size()) {
                throw new IllegalArgumentException(csv + ": a row of " + f.size() + " fields under a header of "
                        + header.size() + " (a run cut short?): " + line);
            }
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < header.size(); i++) {
                row.put(header.get(i), f.get(i));
            }
            rows.add(row);
        }
        return rows;
    }

    private static List<String> fields(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (char ch : line.toCharArray()) {
            if (ch == '"') {
                quoted = !quoted;
            } else if (ch == ',' && !quoted) {
                out.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(ch);
            }
        }
        out.add(cur.toString());
        return out;
    }
}
