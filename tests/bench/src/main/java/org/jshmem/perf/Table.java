package org.jshmem.perf;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The terminal table of a benchmark: one line per case with its median, minimum and maximum,
 * and for each baseline its median and how many times better ours is ({@code >1}: better,
 * whether the metric is a bandwidth or a latency). Columns that do not vary (one op, one type,
 * no size) are left out.
 */
public final class Table {
    private Table() {
    }

    public static String render(Benchmark b, String form, int pes, List<Row> rows, List<Baseline> baselines) {
        return render(b, form, b.method(), pes, rows, baselines);
    }

    /** The table of {@code b}'s rows measured in {@code form}, headed by {@code method} (how that form measures it). */
    public static String render(Benchmark b, String form, String method, int pes, List<Row> rows,
                                List<Baseline> baselines) {
        StringBuilder out = new StringBuilder();
        out.append(b.name()).append(": ").append(b.summary()).append(" (").append(form).append(" form, ").append(pes)
                .append(pes == 1 ? " PE)" : " PEs)").append('\n');
        out.append("  ").append(method).append('\n');
        if (rows.isEmpty()) {
            out.append("  (no cases selected)\n");
            return out.toString();
        }
        boolean showOp = rows.stream().map(Row::op).distinct().count() > 1;
        boolean showType = rows.stream().map(Row::type).distinct().count() > 1;
        boolean showSize = b.sized();
        List<Baseline> used = baselines.stream().filter(x -> x.covers(b.name(), form)).toList();
        String unit = b.metric().unit();

        List<String> head = new ArrayList<>();
        if (showOp) {
            head.add("op");
        }
        if (showType) {
            head.add("type");
        }
        if (showSize) {
            head.add("size");
        }
        head.addAll(List.of("iters", "median " + unit, "min", "max"));
        for (Baseline x : used) {
            head.add(x.label());
            head.add("x " + x.label());
        }
        List<List<String>> cells = new ArrayList<>();
        for (Row r : rows) {
            List<String> c = new ArrayList<>();
            if (showOp) {
                c.add(r.op());
            }
            if (showType) {
                c.add(r.type());
            }
            if (showSize) {
                c.add(Sizes.format(r.sizeBytes()));
            }
            c.add(Long.toString(r.iterations()));
            c.add(number(r.median()));
            c.add(number(r.min()));
            c.add(number(r.max()));
            for (Baseline x : used) {
                Optional<Row> m = x.match(r);
                c.add(m.map(o -> number(o.median())).orElse("-"));
                c.add(m.map(o -> String.format(Locale.ROOT, "%.2f", b.metric().speedup(r.median(), o.median())))
                        .orElse("-"));
            }
            cells.add(c);
        }
        int[] w = new int[head.size()];
        for (int i = 0; i < w.length; i++) {
            w[i] = head.get(i).length();
            for (List<String> c : cells) {
                w[i] = Math.max(w[i], c.get(i).length());
            }
        }
        int textCols = (showOp ? 1 : 0) + (showType ? 1 : 0);
        out.append(line(head, w, textCols));
        for (List<String> c : cells) {
            out.append(line(c, w, textCols));
        }
        for (Baseline x : used) {
            out.append("  x ").append(x.label()).append(": how many times better jshmem is than ").append(x.label())
                    .append(" (median against median; >1: jshmem better)\n");
        }
        return out.toString();
    }

    private static String line(List<String> cells, int[] w, int leftAligned) {
        StringBuilder b = new StringBuilder(" ");
        for (int i = 0; i < cells.size(); i++) {
            b.append(' ');
            String s = cells.get(i);
            if (i < leftAligned) {
                b.append(s).append(" ".repeat(w[i] - s.length()));
            } else {
                b.append(" ".repeat(w[i] - s.length())).append(s);
            }
        }
        return b.append('\n').toString();
    }

    /** A figure with about four significant digits, no exponent. */
    static String number(double v) {
        double a = Math.abs(v);
        String f = a >= 1000 ? "%.0f" : a >= 100 ? "%.1f" : a >= 10 ? "%.2f" : a >= 1 ? "%.3f" : a >= 0.01 ? "%.4f" : "%.5f";
        return String.format(Locale.ROOT, f, v);
    }
}
