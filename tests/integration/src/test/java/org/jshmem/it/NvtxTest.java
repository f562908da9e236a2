package org.jshmem.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JSHMEM_NVTX=1 on 2 PEs, with a stand-in for Nsight Systems injected the way nsys injects itself
 * (NVTX_INJECTION64_PATH: build/native/test/libnvtx_probe.so, which writes what each process's NVTX
 * calls did): every PE creates the domain "jshmem", and TraceProgram's calls appear as ranges, balanced
 * and nested, without a trace file being written.
 */
class NvtxTest {
    @TempDir
    Path dir;

    @Test
    void hostCallsAreNvtxRangesInTheJshmemDomain() throws Exception {
        Path probe = Path.of(System.getProperty("jshmem.home"), "build", "native", "test", "libnvtx_probe.so");
        assertTrue(Files.isRegularFile(probe), probe + " is built with the native parts (cmake)");
        JobResult r = MpiJob.of(2, TraceProgram.class).env("JSHMEM_BACKEND", "host").env("JSHMEM_NVTX", "1")
                .env("NVTX_INJECTION64_PATH", probe.toString()).env("JSHMEM_NVTX_PROBE_DIR", dir.toString()).run();
        assertTrue(r.succeeded(), r::toString);
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.sorted().toList();
        }
        assertEquals(2, files.size(), "a record per PE: " + files);
        for (Path f : files) {
            List<String> lines = Files.readAllLines(f);
            assertEquals("domain jshmem", lines.getFirst(), f + ": the domain first");
            List<String> pushed = new ArrayList<>();
            int depth = 0;
            for (String line : lines.subList(1, lines.size())) {
                if (line.startsWith("push ")) {
                    pushed.add(line.substring(5));
                    depth++;
                } else {
                    assertEquals("pop -", line, f.toString());
                    depth--;
                    assertTrue(depth >= 0, f + ": a pop without its push");
                }
            }
            assertEquals(0, depth, f + ": every range closed");
            assertTrue(pushed.stream().filter("barrierAll"::equals).count() >= TraceProgram.BARRIERS + 2, f + ": " + pushed);
            for (String call : List.of("realloc", "free", "setLock", "waitUntilLong", "reduce", "broadcast")) {
                assertTrue(pushed.contains(call), f + ": " + call + " in " + pushed);
            }
            assertTrue(!pushed.contains("program"), "a span begun without a name is no NVTX range: " + pushed);
        }
    }
}
