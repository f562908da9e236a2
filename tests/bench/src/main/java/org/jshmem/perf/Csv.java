package org.jshmem.perf;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The suite's CSV: a header line, then one {@link Row} per line. Lines starting with {@code #}
 * are comments (where the figures come from). Reading goes by column name, so extra columns
 * and another order are accepted; {@code library}, {@code form}, {@code pes},
 * {@code iterations}, {@code repetitions}, {@code min} and {@code max} may be missing.
 *
 * <pre>
 * library,benchmark,form,op,type,pes,size_bytes,iterations,repetitions,unit,median,min,max
 * jshmem,put_bw,host,put,byte,2,4096,20000,5,GB/s,61.2,58.9,63.0
 * </pre>
 */
public final class Csv {
    /** The header line. */
    public static final String HEADER =
            "library,benchmark,form,op,type,pes,size_bytes,iterations,repetitions,unit,median,min,max";

    private Csv() {
    }

    /** One row as a CSV line (no newline). */
    public static String line(Row r) {
        return String.join(",", field(r.library()), field(r.benchmark()), field(r.form()), field(r.op()),
                field(r.type()), Integer.toString(r.pes()), Long.toString(r.sizeBytes()), Long.toString(r.iterations()),
                Integer.toString(r.repetitions()), field(r.unit()), number(r.median()), number(r.min()),
                number(r.max()));
    }

    /** Writes {@code comments} (each as a {@code #} line), the header and the rows. */
    public static void write(Path file, List<String> comments, List<Row> rows) {
        StringBuilder b = new StringBuilder();
        for (String c : comments) {
            b.append("# ").append(c).append('\n');
        }
        b.append(HEADER).append('\n');
        for (Row r : rows) {
            b.append(line(r)).append('\n');
        }
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(file, b);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** Reads a CSV written by {@link #write} (or by hand, see the class comment). */
    public static List<Row> read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        Map<String, Integer> col = null;
        List<Row> rows = new ArrayList<>();
        int n = 0;
        for (String raw : lines) {
            n++;
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split(",", -1);
            if (col == null) {
                col = new HashMap<>();
                for (int i = 0; i < f.length; i++) {
                    col.put(f[i].strip(), i);
                }
                for (String need : List.of("benchmark", "op", "type", "size_bytes", "unit", "median")) {
                    if (!col.containsKey(need)) {
                        throw new IllegalArgumentException(file + ": the header has no '" + need + "' column (expected "
                                + HEADER + ")");
                    }
                }
                continue;
            }
            try {
                double median = Double.parseDouble(get(f, col, "median", null));
                rows.add(new Row(get(f, col, "library", file.getFileName().toString().replaceFirst("\\.csv$", "")),
                        get(f, col, "benchmark", null), get(f, col, "form", "host"), get(f, col, "op", null),
                        get(f, col, "type", null), Integer.parseInt(get(f, col, "pes", "0")),
                        Long.parseLong(get(f, col, "size_bytes", null)), Long.parseLong(get(f, col, "iterations", "0")),
                        Integer.parseInt(get(f, col, "repetitions", "1")), get(f, col, "unit", null), median,
                        Double.parseDouble(get(f, col, "min", Double.toString(median))),
                        Double.parseDouble(get(f, col, "max", Double.toString(median)))));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(file + " line " + n + ": " + e.getMessage() + ": " + raw, e);
            }
        }
        return rows;
    }

    private static String get(String[] f, Map<String, Integer> col, String name, String fallback) {
        Integer i = col.get(name);
        if (i == null || i >= f.length || f[i].isBlank()) {
            if (fallback == null) {
                throw new IllegalArgumentException("missing '" + name + "'");
            }
            return fallback;
        }
        return f[i].strip();
    }

    private static String field(String s) {
        if (s.indexOf(',') >= 0 || s.indexOf('\n') >= 0) {
            throw new IllegalArgumentException("CSV field with a comma or newline: " + s);
        }
        return s;
    }

    /** A figure with 6 significant digits, plain notation, no trailing zeros. */
    static String number(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return "NaN";
        }
        if (v == 0) {
            return "0";
        }
        return new BigDecimal(v).round(new MathContext(6)).stripTrailingZeros().toPlainString();
    }
}
