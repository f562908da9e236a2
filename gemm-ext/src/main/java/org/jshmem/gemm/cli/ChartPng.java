package org.jshmem.gemm.cli;

import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * The GEMM tools' charts: a bar chart per shape ({@link #shapeBars}), written as a PNG beside a
 * benchmark's CSV ({@link #write}). Drawing text needs fonts: on a machine
 * without any (a bare GPU host: Java throws "No physical fonts found" or "Fontconfig head is null"),
 * the chart is skipped with a warning and no partial file, and the run that made the figures
 * does not fail for it.
 */
public final class ChartPng {
    private ChartPng() {
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
    public static boolean write(Chart<?, ?> chart, Path png) {
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
