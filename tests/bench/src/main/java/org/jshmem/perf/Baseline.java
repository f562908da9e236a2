package org.jshmem.perf;

import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Another library's figures, read from a CSV of the suite's schema (for example the OpenSHMEM
 * anchor's, made by {@code scripts/anchor-to-csv.sh}), to print and draw beside ours.
 *
 * @param label the library's name (its {@code library} column), shown in tables and legends
 * @param rows  its rows
 */
public record Baseline(String label, List<Row> rows) {

    /** Reads {@code file}; the label is its {@code library} column (the file name when that is mixed or missing). */
    public static Baseline load(Path file) {
        List<Row> rows = Csv.read(file);
        if (rows.isEmpty()) {
            throw new IllegalArgumentException(file + " has no rows");
        }
        List<String> libs = rows.stream().map(Row::library).distinct().toList();
        String label = libs.size() == 1 ? libs.getFirst() : file.getFileName().toString().replaceFirst("\\.csv$", "");
        return new Baseline(label, rows);
    }

    /**
     * The row measuring the same case as {@code r} in the same form (a device put is not compared
     * with a host put), preferring the same number of PEs. A CSV without a {@code form} column
     * reads as the host form.
     */
    public Optional<Row> match(Row r) {
        return rows.stream().filter(o -> o.sameCase(r) && o.form().equals(r.form()))
                .min(Comparator.comparingInt((Row o) -> o.pes() == r.pes() ? 0 : 1));
    }

    /** Whether it has any row of benchmark {@code name}. */
    public boolean covers(String name) {
        return rows.stream().anyMatch(r -> r.benchmark().equals(name));
    }

    /** Whether it has any row of benchmark {@code name} measured in {@code form}. */
    public boolean covers(String name, String form) {
        return rows.stream().anyMatch(r -> r.benchmark().equals(name) && r.form().equals(form));
    }
}
