package org.jshmem.perf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Graphics2D;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.CategoryChart;

class ChartsTest {
    private static final byte[] PNG_MAGIC = {(byte) 0x89, 'P', 'N', 'G'};

    private static CategoryChart chart() {
        CategoryChart c = new CategoryChart(400, 300);
        c.addSeries("s", List.of("a", "b"), List.of(1.0, 2.0));
        return c;
    }

    @Test
    void writesAPngIntoANewFolder(@TempDir Path dir) throws Exception {
        Path png = dir.resolve("sub/chart.png");
        assertTrue(Charts.writePng(chart(), png));
        assertArrayEquals(PNG_MAGIC, Arrays.copyOf(Files.readAllBytes(png), 4));
    }

    /** What a host without fonts does to AWT (java.lang.Error: "No physical fonts found"), from paint. */
    @Test
    void aChartJavaCannotDrawLeavesNoFileAndDoesNotThrow(@TempDir Path dir) {
        CategoryChart fontless = new CategoryChart(400, 300) {
            @Override
            public void paint(Graphics2D g, int width, int height) {
                throw new Error("Probable fatal error: No physical fonts found.");
            }
        };
        fontless.addSeries("s", List.of("a"), List.of(1.0));
        Path png = dir.resolve("chart.png");
        assertFalse(Charts.writePng(fontless, png));
        assertFalse(Files.exists(png), "no empty or partial PNG left behind");
    }
}
