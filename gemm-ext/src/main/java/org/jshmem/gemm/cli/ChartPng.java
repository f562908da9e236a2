package org.jshmem.gemm.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * Writes an XChart chart as a PNG beside a benchmark's CSV. Drawing text needs fonts: on a machine
 * without any (a bare GPU host: Java throws "No physical fonts found" or "Fontconfig head is null"),
 * the chart is skipped with a warning and no partial file, and the run that made the figures
 * does not fail for it.
 */
public final class ChartPng {
    private ChartPng() {
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
