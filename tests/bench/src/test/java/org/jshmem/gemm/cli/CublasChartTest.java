package org.jshmem.gemm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class CublasChartTest {
    /** GemmMain's own header: the reader is tied to what the writer writes. */
    private static final String OURS = GemmReport.CSV_HEADER + "\n" + """
            none,bf16,3840,3840,4096,1,"NVIDIA H200",0.2,600.0,,,,0.000,,1.0,"none 3840x3840x4096 BF16: a, b"
            none,bf16,8192,8192,8192,1,"NVIDIA H200",1.4,800.0,,,,0.000,,1.0,"x"
            none,fp16,8192,8192,8192,1,"NVIDIA H200",1.4,700.0,,,,0.000,,1.0,"x"
            all_reduce,bf16,8192,8192,8192,2,"NVIDIA H200",1.0,500.0,,,,0.000,,1.0,"not the GEMM alone"
            """;
    private static final String ANCHOR = """
            # NVIDIA H200 SMs 132 torch 2.11.0+cu130
            library,dtype,m,n,k,us,tflops
            cublas,bfloat16,8192,8192,8192,1400.0,750.0
            cublas,bfloat16,3840,3840,4096,200.0,500.0
            cublas,float16,8192,8192,8192,1400.0,700.0
            """;

    private static List<CublasChart.Comparison> compare(Path dir, String ours, String anchor) throws Exception {
        Path o = Files.writeString(dir.resolve("ours.csv"), ours), a = Files.writeString(dir.resolve("anchor.csv"), anchor);
        return CublasChart.compare(CublasChart.read(o, List.of("collective", "tflops_per_pe")),
                CublasChart.read(a, List.of("tflops")));
    }

    @Test
    void pairsEachShapeInTheAnchorsOrderWithRatiosAndGeometricMeans(@TempDir Path dir) throws Exception {
        List<CublasChart.Comparison> cs = compare(dir, OURS, ANCHOR);
        assertEquals(List.of("bf16", "fp16"), cs.stream().map(CublasChart.Comparison::type).toList());
        CublasChart.Comparison bf16 = cs.getFirst();
        assertEquals("NVIDIA H200", bf16.device());
        assertEquals(List.of(new CublasChart.Row("8192x8192x8192", 800.0, 750.0, Double.NaN),
                new CublasChart.Row("3840x3840x4096", 600.0, 500.0, Double.NaN)), bf16.rows());
        assertEquals(Math.sqrt(800.0 / 750.0 * 1.2), bf16.geomean(null), 1e-12);
        assertEquals(1.2, bf16.geomean(CublasChart.WAVE_QUANTISED), 1e-12);
        assertEquals(1.0, cs.get(1).geomean(null), 1e-12);
        String table = CublasChart.table(bf16);
        assertTrue(table.contains("| 3840x3840x4096 | 600.0 | 500.0 | 1.200 |"), table);
        assertTrue(table.contains("wave-quantised 1.200"), table);
        assertTrue(!bf16.hasAlike() && !table.contains("timed alike"), table);
    }

    @Test
    void addsCublasTimedAlikeWhereGemmMainRanTheReference(@TempDir Path dir) throws Exception {
        String withReference = OURS.replace("1.4,800.0,,,,", "1.4,800.0,1.6,700.0,0.875,").replace("0.2,600.0,,,,",
                "0.2,600.0,0.2,640.0,0.9375,");
        CublasChart.Comparison bf16 = compare(dir, withReference, ANCHOR).getFirst();
        assertTrue(bf16.hasAlike());
        assertEquals(List.of(new CublasChart.Row("8192x8192x8192", 800.0, 750.0, 700.0),
                new CublasChart.Row("3840x3840x4096", 600.0, 500.0, 640.0)), bf16.rows());
        assertEquals(Math.sqrt(800.0 / 700.0 * 600.0 / 640.0), bf16.geomeanAlike(null), 1e-12);
        assertEquals(600.0 / 640.0, bf16.geomeanAlike(CublasChart.WAVE_QUANTISED), 1e-12);
        String table = CublasChart.table(bf16);
        assertTrue(table.contains("| 3840x3840x4096 | 600.0 | 500.0 | 1.200 | 640.0 | 0.938 |"), table);
        assertTrue(table.contains("against cuBLAS timed alike: all 2 shapes"), table);
    }

    @Test
    void refusesAShapeTheAnchorDidNotRun(@TempDir Path dir) {
        String anchor = ANCHOR.replace("cublas,bfloat16,3840,3840,4096,200.0,500.0\n", "");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> compare(dir, OURS, anchor));
        assertTrue(e.getMessage().contains("bf16 3840x3840x4096"), e.getMessage());
    }

    @Test
    void refusesTheFilesTheWrongWayRound(@TempDir Path dir) throws Exception {
        Path o = Files.writeString(dir.resolve("ours.csv"), OURS), a = Files.writeString(dir.resolve("anchor.csv"), ANCHOR);
        StringWriter err = new StringWriter();
        CommandLine cmd = CublasChart.command();
        cmd.setErr(new PrintWriter(err));
        assertEquals(1, cmd.execute("--jshmem", a.toString(), "--cublas", o.toString()));
        assertTrue(err.toString().startsWith("gemm-vs-cublas: " + a + " has no column collective"), err.toString());
    }

    @Test
    void refusesACsvWithoutTheGemmAlone(@TempDir Path dir) {
        String fusedOnly = OURS.lines().filter(l -> !l.startsWith("none,")).map(l -> l + "\n").reduce("", String::concat);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> compare(dir, fusedOnly, ANCHOR));
        assertTrue(e.getMessage().startsWith("no GEMM-alone rows"), e.getMessage());
    }

    @Test
    void refusesARowCutShort(@TempDir Path dir) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> compare(dir, OURS + "none,bf16,4096,4096\n", ANCHOR));
        assertTrue(e.getMessage().contains("a row of 4 fields under a header of 16"), e.getMessage());
    }

    @Test
    void drawsAChartPerType(@TempDir Path dir) throws Exception {
        Path o = Files.writeString(dir.resolve("ours.csv"), OURS), a = Files.writeString(dir.resolve("anchor.csv"), ANCHOR);
        int rc = CublasChart.command().execute("--jshmem", o.toString(), "--cublas", a.toString(),
                "-o", dir.resolve("charts").toString());
        assertEquals(0, rc);
        assertTrue(Files.size(dir.resolve("charts/gemm-vs-cublas-bf16.png")) > 0);
        assertTrue(Files.size(dir.resolve("charts/gemm-vs-cublas-fp16.png")) > 0);
    }
}
