package org.jshmem.perf;

import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;

import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Bus bandwidth against PE count, from CSVs of runs with different PE counts: the suite's CSVs
 * ({@code perf ... --csv}; the collectives' latency turned into bus bandwidth) and
 * {@code GpuCollectivesBench}'s (which has a bus bandwidth column), and anchors turned into the suite's
 * schema by {@code scripts/anchor-to-csv.sh} (NVSHMEM, NCCL). One line per library, collective and
 * message size; writes a PNG and prints the points.
 *
 * <pre>java -cp 'build/lib/*' org.jshmem.perf.ScalingChart -o scaling.png --sizes 8K,1M cpu-*.csv gpu-*.csv</pre>
 *
 * <p>Bus bandwidth follows nccl-tests, for {@code S} bytes per PE (per PE pair for alltoall) in
 * {@code t}: all-reduce {@code 2(n-1)/n x S/t}; fcollect and alltoall {@code (n-1) x S/t};
 * broadcast {@code S/t}. The suite's collective timings include a barrier per call.
 */
@Command(name = "scaling-chart", mixinStandardHelpOptions = true,
        description = "Bus bandwidth of the collectives against the number of PEs, as a PNG chart.")
public final class ScalingChart implements Callable<Integer> {
    @Parameters(paramLabel = "CSV", arity = "1..*", description = "Result files: perf's CSVs, GpuCollectivesBench's and anchor-to-csv.sh's.")
    private List<Path> files;

    @Option(names = {"-o", "--output"}, paramLabel = "PNG", required = true, description = "The chart to write.")
    private Path output;

    @Option(names = "--sizes", paramLabel = "SIZE", split = ",", converter = PerfMain.SizeConverter.class,
            defaultValue = "8K,1M,8M", description = "Message sizes (bytes per PE) to draw a line for (default: ${DEFAULT-VALUE}).")
    private List<Long> sizes;

    @Option(names = "--title", paramLabel = "TEXT", defaultValue = "Collectives: bus bandwidth against PEs",
            description = "Chart title.")
    private String title;

    /** One measured point: which line it belongs to, the PE count and its bus bandwidth in GB/s. */
    record Point(String line, int pes, double busGBps) {
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new ScalingChart()).execute(args));
    }

    @Override
    public Integer call() {
        List<Point> points = new ArrayList<>();
        for (Path f : files) {
            points.addAll(read(f, sizes));
        }
        if (points.isEmpty()) {
            throw new CommandLine.ParameterException(new CommandLine(this),
                    "no collective figures at sizes " + sizes + " in " + files);
        }
        Map<String, List<Point>> lines = new TreeMap<>();
        points.forEach(p -> lines.computeIfAbsent(p.line(), k -> new ArrayList<>()).add(p));
        XYChart chart = new XYChartBuilder().width(960).height(600).title(title).xAxisTitle("PEs")
                .yAxisTitle("bus bandwidth (GB/s), log scale").build();
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setxAxisTickLabelsFormattingFunction(v -> v == Math.rint(v) ? Integer.toString(v.intValue()) : "");
        lines.forEach((name, ps) -> {
            ps.sort(Comparator.comparingInt(Point::pes));
            chart.addSeries(name, ps.stream().mapToDouble(Point::pes).toArray(), ps.stream().mapToDouble(Point::busGBps).toArray());
            ps.forEach(p -> System.out.printf(Locale.ROOT, "%-40s %3d PEs %10.3f GB/s%n", name, p.pes(), p.busGBps()));
        });
        return Charts.writePng(chart, output) ? 0 : 1;
    }

    /** The points of {@code file} at {@code sizes}: GpuCollectivesBench's CSV or the suite's. */
    static List<Point> read(Path file, List<Long> sizes) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        boolean gpuBench = lines.stream().filter(l -> !l.startsWith("#")).findFirst().orElse("").startsWith("collective,");
        return gpuBench ? gpuBench(lines, sizes) : suite(Csv.read(file), sizes);
    }

    private static List<Point> gpuBench(List<String> lines, List<Long> sizes) {
        List<Point> points = new ArrayList<>();
        for (String l : lines) {
            // collective,form,bytes,iters,us_per_call,busbw_GBps,algorithm,pes: the algorithm may hold commas
            // (quoted or bare), so the fields are read from both ends
            String[] f = l.split(",");
            boolean data = !l.startsWith("#") && !l.startsWith("collective,") && f.length >= 8;
            if (!data || !sizes.contains(Long.parseLong(f[2]))) {
                continue;
            }
            points.add(new Point("jshmem " + f[0] + " " + f[1] + " " + Sizes.format(Long.parseLong(f[2])), Integer.parseInt(f[f.length - 1]),
                    Double.parseDouble(f[5])));
        }
        return points;
    }

    private static List<Point> suite(List<Row> rows, List<Long> sizes) {
        List<Point> points = new ArrayList<>();
        for (Row r : rows) {
            double factor = switch (r.benchmark()) {
                case "reduce" -> 2.0 * (r.pes() - 1) / r.pes();
                case "fcollect", "alltoall" -> r.pes() - 1;
                case "broadcast" -> 1;
                default -> 0;
            };
            if (factor == 0 || !r.unit().equals("us") || !sizes.contains(r.sizeBytes())) {
                continue;
            }
            String op = r.op().equals(r.benchmark()) ? "" : " " + r.op();
            String line = r.library() + " " + r.benchmark() + op + " " + r.type() + " " + r.form() + " "
                    + Sizes.format(r.sizeBytes());
            points.add(new Point(line, r.pes(), factor * r.sizeBytes() / (r.median() * 1e3)));
        }
        return points;
    }
}
