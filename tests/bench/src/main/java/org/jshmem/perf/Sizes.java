package org.jshmem.perf;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jshmem.ShmemConfig;

/**
 * A message-size sweep: {@code min, min*factor, ...} up to {@code max}, or an explicit list.
 *
 * @param list the sizes in bytes, ascending
 */
public record Sizes(List<Long> list) {
    public Sizes {
        list = List.copyOf(list);
    }

    /** {@code min, min*factor, min*factor^2, ...} while not above {@code max}. */
    public static Sizes sweep(long min, long max, long factor) {
        if (min <= 0 || max < min) {
            throw new IllegalArgumentException("size sweep needs 0 < min <= max (got min " + format(min) + ", max "
                    + format(max) + ")");
        }
        if (factor < 2) {
            throw new IllegalArgumentException("--factor must be at least 2 (got " + factor + ")");
        }
        List<Long> l = new ArrayList<>();
        for (long s = min; s <= max; s = Math.multiplyExact(s, factor)) {
            l.add(s);
            if (s > Long.MAX_VALUE / factor) {
                break;
            }
        }
        return new Sizes(l);
    }

    public long min() {
        return list.getFirst();
    }

    public long max() {
        return list.getLast();
    }

    /** Parses a byte count such as {@code 8}, {@code 4K}, {@code 16M}, {@code 1G} (binary multiples). */
    public static long parse(String text) {
        return ShmemConfig.parseSize(text);
    }

    /** A size as people write it: {@code 8}, {@code 512}, {@code 4K}, {@code 16M}; exact (no rounding). */
    public static String format(long bytes) {
        String[] units = {"G", "M", "K"};
        int[] shifts = {30, 20, 10};
        for (int i = 0; i < units.length; i++) {
            long m = 1L << shifts[i];
            if (bytes >= m && bytes % m == 0) {
                return bytes / m + units[i];
            }
        }
        return Long.toString(bytes);
    }

    /** Like {@link #format} but with a unit, for chart axes: {@code 8 B}, {@code 4 KB}, {@code 16 MB}. */
    public static String formatBytes(double bytes) {
        if (bytes >= 1 << 30) {
            return trim(bytes / (1 << 30)) + " GB";
        } else if (bytes >= 1 << 20) {
            return trim(bytes / (1 << 20)) + " MB";
        } else if (bytes >= 1 << 10) {
            return trim(bytes / (1 << 10)) + " KB";
        }
        return trim(bytes) + " B";
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.3g", v);
    }
}
