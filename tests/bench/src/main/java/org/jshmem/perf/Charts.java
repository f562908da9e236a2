package org.jshmem.perf;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * PNG charts with XChart: for a size sweep, the figure against the message size on log axes,
 * one line per operation and type, baselines dashed in the same colour; for benchmarks without
 * a size (atomics, barriers), bars per operation, one series per library and type.
 *
 * <p>The size axis is logarithmic in base 2: XChart's own log axis labels only decades and
 * ignores a label function, so the chart plots log2(size) on a linear axis and labels each
 * whole power of two as a size ({@code 4 KB}); the figure axis is XChart's log10 axis.
 */
public final class Charts {
    private static final Color[] COLORS = {
        new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0xff7f0e),
        new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x17becf),
    };

    private Charts() {
    }

    /** Most lines a sweep chart draws; with more op and type pairs, only the first op's are drawn. */
    static final int MAX_LINES = 10;

    /** Draws {@code rows} of {@code b} (and what the baselines have of it) into {@code png}. */
    public static void write(Path png, Benchmark b, String library, String form, int pes, List<Row> rows,
                             List<Baseline> baselines) {
        String title = b.name() + ": " + b.summary() + " (" + form + ", " + pes + (pes == 1 ? " PE)" : " PEs)");
        if (b.sized() && groups(rows).size() > MAX_LINES) {
            String first = rows.getFirst().op();
            rows = rows.stream().filter(r -> r.op().equals(first)).toList();
            title = b.name() + " " + first + " per type (" + form + ", " + pes + " PEs; every op is in the CSV)";
        }
        String yTitle = switch (b.metric()) {
            case BANDWIDTH -> "bandwidth (GB/s)";
            case LATENCY -> "latency (us)";
            case RATE -> "rate (Mops/s)";
        };
        Chart<?, ?> chart = b.sized() ? sweep(title, yTitle, library, rows, baselines)
                : bars(title, yTitle, library, rows, baselines);
        writePng(chart, png);
    }

    private static XYChart sweep(String title, String yTitle, String library, List<Row> rows, List<Baseline> baselines) {
        XYChart chart = new XYChartBuilder().width(960).height(600).title(title)
                .xAxisTitle("message size (log scale)").yAxisTitle(yTitle + ", log scale").build();
        var st = chart.getStyler();
        st.setYAxisLogarithmic(true);
        // labels between decades help a narrow range and crowd a wide one
        double lo = rows.stream().mapToDouble(Row::median).min().orElse(1);
        double hi = rows.stream().mapToDouble(Row::median).max().orElse(1);
        st.setYAxisLogarithmicDecadeOnly(hi / lo > 300);
        st.setYAxisDecimalPattern("#,##0.####");
        st.setLegendPosition(Styler.LegendPosition.InsideNW);
        st.setxAxisTickLabelsFormattingFunction(Charts::log2SizeLabel);
        st.setMarkerSize(6);
        st.setChartBackgroundColor(Color.WHITE);
        st.setPlotGridLinesColor(new Color(0xdddddd));
        st.setChartTitleFont(st.getChartTitleFont().deriveFont(14f));
        int i = 0;
        for (Map.Entry<String, List<Row>> g : groups(rows).entrySet()) {
            Color color = COLORS[i++ % COLORS.length];
            add(chart, library + suffix(g.getKey(), rows), g.getValue(), color, false);
            for (Baseline x : baselines) {
                List<Row> theirs = new ArrayList<>();
                for (Row r : g.getValue()) {
                    x.match(r).ifPresent(theirs::add);
                }
                if (!theirs.isEmpty()) {
                    add(chart, x.label() + suffix(g.getKey(), rows), theirs, color, true);
                }
            }
        }
        return chart;
    }

    private static void add(XYChart chart, String name, List<Row> rows, Color color, boolean dashed) {
        double[] x = rows.stream().mapToDouble(r -> Math.log(r.sizeBytes()) / Math.log(2)).toArray();
        double[] y = rows.stream().mapToDouble(Row::median).toArray();
        XYSeries s = chart.addSeries(unique(chart.getSeriesMap().keySet(), name), x, y);
        s.setLineColor(color);
        s.setMarkerColor(color);
        s.setMarker(dashed ? SeriesMarkers.DIAMOND : SeriesMarkers.CIRCLE);
        s.setLineStyle(dashed ? new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                new float[] {8f, 5f}, 0f) : SeriesLines.SOLID);
    }

    private static CategoryChart bars(String title, String yTitle, String library, List<Row> rows,
                                      List<Baseline> baselines) {
        Set<String> cats = new LinkedHashSet<>();
        for (Row r : rows) {
            cats.add(r.op());
        }
        List<String> categories = new ArrayList<>(cats);
        CategoryChart chart = new CategoryChartBuilder().width(Math.max(960, 70 * categories.size())).height(600)
                .title(title).xAxisTitle("operation").yAxisTitle(yTitle).build();
        var st = chart.getStyler();
        st.setLegendPosition(Styler.LegendPosition.InsideNW);
        st.setChartBackgroundColor(Color.WHITE);
        st.setPlotGridLinesColor(new Color(0xdddddd));
        st.setXAxisLabelRotation(categories.size() > 6 ? 45 : 0);
        st.setyAxisTickLabelsFormattingFunction(Table::number);
        st.setChartTitleFont(st.getChartTitleFont().deriveFont(14f));
        List<String> types = rows.stream().map(Row::type).distinct().toList();
        int i = 0;
        for (String type : types) {
            List<Row> mine = rows.stream().filter(r -> r.type().equals(type)).toList();
            String typeLabel = type.equals("-") ? "" : " " + type;
            addBars(chart, library + typeLabel, categories, mine, COLORS[i++ % COLORS.length]);
            for (Baseline x : baselines) {
                List<Row> theirs = new ArrayList<>();
                for (Row r : mine) {
                    x.match(r).ifPresent(theirs::add);
                }
                if (!theirs.isEmpty()) {
                    addBars(chart, x.label() + typeLabel, categories, theirs, COLORS[i++ % COLORS.length]);
                }
            }
        }
        return chart;
    }

    private static void addBars(CategoryChart chart, String name, List<String> categories, List<Row> rows, Color c) {
        List<Double> y = new ArrayList<>();
        for (String cat : categories) {
            Optional<Row> r = rows.stream().filter(o -> o.op().equals(cat)).findFirst();
            y.add(r.map(Row::median).orElse(0.0));
        }
        CategorySeries s = chart.addSeries(unique(chart.getSeriesMap().keySet(), name), categories, y);
        s.setFillColor(c);
    }

    /** Label of a tick at log2(size) = {@code v}: the size at whole powers of two, nothing between. */
    static String log2SizeLabel(double v) {
        double r = Math.rint(v);
        if (Math.abs(v - r) > 1e-6 || r < 0 || r > 62) {
            return "";
        }
        return Sizes.formatBytes(Math.pow(2, r));
    }

    /** Rows grouped by op and type, in order. */
    private static Map<String, List<Row>> groups(List<Row> rows) {
        Map<String, List<Row>> m = new LinkedHashMap<>();
        for (Row r : rows) {
            m.computeIfAbsent(r.op() + " " + r.type(), k -> new ArrayList<>()).add(r);
        }
        return m;
    }

    /** A legend suffix naming op and type, only when there are several. */
    private static String suffix(String group, List<Row> rows) {
        boolean ops = rows.stream().map(Row::op).distinct().count() > 1;
        boolean types = rows.stream().map(Row::type).distinct().count() > 1;
        String[] p = group.split(" ");
        String s = (ops ? " " + p[0] : "") + (types ? " " + p[1] : "");
        return s.toLowerCase(Locale.ROOT);
    }

    private static String unique(Set<String> taken, String name) {
        String n = name;
        for (int k = 2; taken.contains(n); k++) {
            n = name + " (" + k + ")";
        }
        return n;
    }

    /**
     * An empty bar chart with one group of bars per GEMM shape ({@code m x n x k} along the x axis,
     * labels turned so that the twelve anchor shapes fit), on white; add one series per library.
     */
    public static CategoryChart shapeBars(String title, String yAxisTitle) {
        CategoryChart chart = new CategoryChartBuilder().width(1000).height(500).title(title)
                .xAxisTitle("m x n x k").yAxisTitle(yAxisTitle).build();
        chart.getStyler().setXAxisLabelRotation(45);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        return chart;
    }

    /**
     * Draws {@code chart} into {@code png} (creating its folder).
     *
     * @return whether the file was written; false (after a warning on stderr) when Java could not draw
     * @throws UncheckedIOException when the file cannot be written
     */
    public static boolean writePng(Chart<?, ?> chart, Path png) {
        try {
            Path parent = png.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            try (OutputStream out = Files.newOutputStream(png)) {
                BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
            }
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + png + ": " + e.getMessage(), e);
        } catch (VirtualMachineError e) {
            throw e;                                    // out of memory is not a missing font
        } catch (RuntimeException | Error e) {          // AWT without fonts; the figures are in the CSV
            try {
                Files.deleteIfExists(png);
            } catch (IOException ignored) {
                // the warning below names the file either way
            }
            System.err.println("warning: no chart " + png + ": Java could not draw it (" + e
                    + "). The figures are in the CSV; install fonts (Debian: fonts-dejavu-core) for charts.");
            return false;
        }
    }
}
