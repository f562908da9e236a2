package org.jshmem.it.gpu;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The source of {@code kernels/device_api_test.cu} (a test resource) and the pieces of it the
 * programs need. The file is a preamble (include, helpers) followed by one section per kernel
 * family, each opening with a documentation block whose first line starts with {@code "/* ===="}.
 */
final class DeviceApiKernels {
    static final String RESOURCE = "/kernels/device_api_test.cu";
    static final String FILE = "device_api_test.cu";
    private static final String SECTION_START = "/* ====";
    private static final Pattern DIRECT = Pattern.compile("extern \"C\" __global__ void (\\w+)\\(");

    private DeviceApiKernels() {
    }

    /** The whole file. */
    static String source() {
        return resource(RESOURCE);
    }

    /** A kernel file of the test resources, whole (e.g. {@code "/kernels/device_proxy_test.cu"}). */
    static String resource(String path) {
        try (InputStream in = DeviceApiKernels.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException(path + " is not on the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + path + ": " + e.getMessage(), e);
        }
    }

    /** The preamble: everything before the first section. */
    static String preamble(String source) {
        int first = sectionStarts(source).getFirst();
        return source.substring(0, first);
    }

    /** The sections, each from its documentation block to the next one (or the end). */
    static List<String> sections(String source) {
        List<Integer> starts = sectionStarts(source);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < starts.size(); i++) {
            int end = i + 1 < starts.size() ? starts.get(i + 1) : source.length();
            out.add(source.substring(starts.get(i), end));
        }
        return out;
    }

    /**
     * A compilable source with only kernel {@code name} (defined directly, {@code extern "C"}):
     * the preamble plus that kernel's section. Compiles in a second instead of the whole file's
     * many seconds, for programs that need one kernel.
     */
    static String only(String source, String name) {
        String decl = "extern \"C\" __global__ void " + name + "(";
        List<String> hits = sections(source).stream().filter(s -> s.contains(decl)).toList();
        if (hits.size() != 1) {
            throw new IllegalArgumentException(FILE + " has " + hits.size() + " sections defining " + name);
        }
        return preamble(source) + hits.getFirst();
    }

    /** Kernels written out as {@code extern "C" __global__ void name(} (not those made by macros). */
    static List<String> directKernels(String source) {
        List<String> out = new ArrayList<>();
        Matcher m = DIRECT.matcher(source);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    private static List<Integer> sectionStarts(String source) {
        List<Integer> starts = new ArrayList<>();
        int at = 0;
        while (at < source.length()) {
            if (source.startsWith(SECTION_START, at)) {
                starts.add(at);
            }
            int nl = source.indexOf('\n', at);
            if (nl < 0) {
                break;
            }
            at = nl + 1;
        }
        if (starts.isEmpty()) {
            throw new IllegalStateException(FILE + " has no section starting with " + SECTION_START);
        }
        return starts;
    }
}
