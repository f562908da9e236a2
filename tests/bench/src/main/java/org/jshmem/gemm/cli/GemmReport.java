package org.jshmem.gemm.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jshmem.gemm.cli.GemmBenchmark.Result;
import org.jshmem.perf.Charts;
import org.knowm.xchart.CategoryChart;

/** The gemm command's table, CSV and chart. */
final class GemmReport {
    /** The shapes of the one-GPU cuBLAS anchor (../shared/anchors/gemm_anchor.py), in its order. */
    static final String ANCHOR_SHAPES = "8192x8192x8192,4096x4096x4096,1024x8192x8192,8192x4096x8192,8192x8192x4096,"
            + "8192x5504x4096,3840x3840x4096,1536x6144x8192,5120x5120x2048,2048x2048x2048,512x8192x8192,128x8192x8192";
    static final String CSV_HEADER = "collective,dtype,m,n,k,pes,device,ms,tflops_per_pe,ref_ms,ref_tflops_per_pe,"
            + "speedup,rel_err,ref_rel_err,create_ms,what";

    private GemmReport() {
    }

    static void print(List<Result> results) {
        System.out.printf("%-12s %-5s %-18s %4s %10s %12s %10s %12s %8s %10s%n", "collective", "dtype", "m x n x k",
                "PEs", "ms", "TFLOP/s/PE", "ref ms", "ref TFLOP/s", "speedup", "rel_err");
        for (Result r : results) {
            System.out.printf(Locale.ROOT, "%-12s %-5s %-18s %4d %10.3f %12.1f %10s %12s %8s %10s%n",
                    r.collective().cliName(), r.type().name().toLowerCase(Locale.ROOT), r.shape(), r.nPes(), r.ms(),
                    r.tflopsPerPe(), num(r.refMs(), "%.3f"), num(r.refTflopsPerPe(), "%.1f"),
                    num(r.refMs() / r.ms(), "%.2fx"), r.validated() ? String.format(Locale.ROOT, "%.2e", r.relErr()) : "-");
        }
        for (Result r : results) {
            System.out.println("  " + r.shape() + ": " + r.what() + String.format(Locale.ROOT, "; planned in %.0f ms",
                    r.createMs()));
        }
    }

    private static String num(double v, String format) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, format, v);
    }

    static void csv(List<Result> results, Path file) {
        List<String> lines = new ArrayList<>();
        try {
            if (!Files.exists(file) || Files.size(file) == 0) {
                lines.add(CSV_HEADER);
            }
            for (Result r : results) {
                lines.add(String.join(",", r.collective().cliName(), r.type().name().toLowerCase(Locale.ROOT),
                        Integer.toString(r.shape().m()), Integer.toString(r.shape().n()), Integer.toString(r.shape().k()),
                        Integer.toString(r.nPes()), '"' + r.device() + '"', fmt(r.ms()), fmt(r.tflopsPerPe()),
                        fmt(r.refMs()), fmt(r.refTflopsPerPe()), fmt(r.refMs() / r.ms()), fmt(r.relErr()),
                        fmt(r.refRelErr()), fmt(r.createMs()), '"' + r.what().replace('"', '\'') + '"'));
            }
            if (file.getParent() != null) {
                Files.createDirectories(file.getParent());
            }
            Files.write(file, lines, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static String fmt(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.4g", v);
    }

    static void plot(List<Result> results, Path dir) {
        Result first = results.getFirst();
        String name = "gemm_" + first.collective().cliName() + "_" + first.type().name().toLowerCase(Locale.ROOT)
                + "_" + first.nPes() + "pe";
        CategoryChart chart = Charts.shapeBars("gemm " + first.collective().cliName() + " " + first.type() + ", "
                + first.nPes() + " PEs, " + first.device(), "TFLOP/s per PE");
        List<String> shapes = results.stream().map(r -> r.shape().toString()).toList();
        chart.addSeries("jshmem", shapes, results.stream().map(Result::tflopsPerPe).toList());
        if (results.stream().noneMatch(r -> Double.isNaN(r.refMs()))) {
            chart.addSeries("reference (cuBLAS + collective)", shapes,
                    results.stream().map(Result::refTflopsPerPe).toList());
        }
        Charts.writePng(chart, dir.resolve(name + ".png"));
    }
}
