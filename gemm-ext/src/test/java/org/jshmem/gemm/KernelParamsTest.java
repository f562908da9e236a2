package org.jshmem.gemm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemoryLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Java parameter block and jgemm.h's jgemm_params list the same fields, in the same order and sizes. */
class KernelParamsTest {
    @Test
    void layoutMatchesTheKernelHeader() throws IOException {
        String header;
        try (InputStream in = KernelParams.class.getResourceAsStream("/org/jshmem/gemm/kernels/jgemm.h")) {
            header = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String body = header.substring(header.indexOf("typedef struct {"), header.indexOf("} jgemm_params;"));
        List<String> cFields = new ArrayList<>();
        List<Long> cSizes = new ArrayList<>();
        for (String line : body.split("\n")) {
            String code = line.replaceAll("/\\*.*?\\*/", "").trim();
            if (!code.endsWith(";")) {
                continue;
            }
            String[] parts = code.substring(0, code.length() - 1).split(",");
            String first = parts[0].trim();
            String type = first.substring(0, first.lastIndexOf(' ')).trim();
            boolean pointer = type.contains("*") || first.contains("*");
            long size = pointer || type.contains("long") ? 8L : 4L;
            for (int i = 0; i < parts.length; i++) {
                String name = i == 0 ? first.substring(first.lastIndexOf(' ') + 1) : parts[i];
                cFields.add(name.replace("*", "").trim());
                cSizes.add(size);
            }
        }
        List<String> javaFields = new ArrayList<>();
        List<Long> javaSizes = new ArrayList<>();
        for (MemoryLayout l : KernelParams.LAYOUT.memberLayouts()) {
            javaFields.add(l.name().orElseThrow());
            javaSizes.add(l.byteSize());
        }
        assertEquals(cFields, javaFields);
        assertEquals(cSizes, javaSizes);
        java.util.regex.Matcher size = java.util.regex.Pattern.compile("sizeof\\(jgemm_params\\) == (\\d+)").matcher(header);
        assertTrue(size.find(), "jgemm.h states the block's size in a static_assert");
        assertEquals(Long.parseLong(size.group(1)), KernelParams.LAYOUT.byteSize());
    }
}
