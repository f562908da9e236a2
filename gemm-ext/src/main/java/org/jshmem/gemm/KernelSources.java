package org.jshmem.gemm;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * gemm-ext's kernel sources, which travel in its jar ({@code org/jshmem/gemm/kernels/}). The run-time
 * compiler gets one self-contained source: each {@code #include "local.h"} is replaced by that file
 * (once), while {@code <jshmem/...>} headers come from the device library's include directory.
 */
final class KernelSources {
    private static final String ROOT = "/org/jshmem/gemm/kernels/";
    private static final Pattern LOCAL_INCLUDE = Pattern.compile("(?m)^\\s*#\\s*include\\s+\"([^\"]+)\"\\s*$");

    private KernelSources() {
    }

    /** The source of {@code file} with its local includes expanded. */
    static String expanded(String file) {
        return expand(file, new HashSet<>());
    }

    private static String expand(String file, Set<String> seen) {
        if (!seen.add(file)) {
            return "/* " + file + " already included */\n";
        }
        String text = read(file);
        Matcher m = LOCAL_INCLUDE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(expand(m.group(1), seen)));
        }
        m.appendTail(out);
        return "#line 1 \"" + file + "\"\n" + out;
    }

    private static String read(String file) {
        try (InputStream in = KernelSources.class.getResourceAsStream(ROOT + file)) {
            if (in == null) {
                throw new IllegalStateException("kernel source " + file + " is missing from the gemm-ext jar (" + ROOT
                        + file + "); rebuild gemm-ext");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read kernel source " + file + ": " + e.getMessage(), e);
        }
    }
}
