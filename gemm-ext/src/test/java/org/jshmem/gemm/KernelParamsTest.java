package org.jshmem.gemm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemoryLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
        Matcher decl = Pattern.compile("(?m)^\\s*([a-z_ ]+?)(\\s*\\*?)\\s*([a-z0-9_, *]+);").matcher(body);
        while (decl.find()) {
            String type = decl.group(1).trim();
            boolean pointerType = !decl.group(2).isBlank();
            for (String name : decl.group(3).split(",")) {
                boolean pointer = pointerType || name.trim().startsWith("*");
                cFields.add(name.replace("*", "").trim());
                cSizes.add(pointer || type.contains("long") ? 8L : 4L);
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
        assertEquals(168, KernelParams.LAYOUT.byteSize());
    }
}
