package org.jshmem.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jshmem.it.JobResult;
import org.jshmem.it.MpiJob;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The GPU forms on a GPU heap (tag "gpu": run on the GPU machine with
 * {@code gpu-run.sh gpu-tests}): every benchmark each form implements, with a tiny sweep, on 2
 * PEs, with a made-up NVSHMEM baseline in that form. Checks that every case the form defines
 * produced a row with a finite positive figure and that the baseline's ratio is shown; never
 * timings.
 */
@Tag("gpu")
class PerfGpuSmokeTest {
    static final int ITERS = 20;
    static final int REPS = 2;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"device", "on_stream", "graph"})
    void everyBenchmarkOfTheFormProducesItsRows(String formName) throws IOException {
        Form form = Forms.find(formName).orElseThrow();
        List<Benchmark> supported = Registry.all().stream().filter(form::supports).toList();
        assertFalse(supported.isEmpty());
        Path baseline = dir.resolve("nvshmem.csv");
        Files.writeString(baseline, "library,benchmark,form,op,type,pes,size_bytes,iterations,repetitions,unit,median,min,max\n"
                + "nvshmem,put_bw," + formName + ",put,byte,2,4096,100,1,GB/s,9.6,9.6,9.6\n");
        Path csv = dir.resolve(formName + ".csv");
        List<String> args = new ArrayList<>(supported.stream().map(Benchmark::name).toList());
        args.addAll(List.of("--form", formName, "--sizes", "8,4K", "--iters", Integer.toString(ITERS), "--reps",
                Integer.toString(REPS), "--warmup", "1", "--warmup-ms", "0", "--progress", "never", "--csv", csv.toString(),
                "--baseline", baseline.toString()));
        JobResult job = MpiJob.of(2, PerfMain.class).env("JSHMEM_BACKEND", "cuda")
                .args(args.toArray(String[]::new))
                .timeout(Duration.ofSeconds(240))
                .run();
        assertTrue(job.succeeded(), job::toString);
        List<Row> rows = Csv.read(csv);
        RunOptions options = new RunOptions(List.of(8L, 4096L), null, null, null, (long) ITERS, REPS, 1, 0, Set.of(),
                Set.of());
        for (Benchmark b : supported) {
            List<String> want = options.cases(b, form).stream().map(c -> c.op() + "/" + c.type() + "/" + c.size())
                    .toList();
            assertFalse(want.isEmpty(), b.name());
            List<String> got = rows.stream().filter(r -> r.benchmark().equals(b.name()))
                    .map(r -> r.op() + "/" + r.type() + "/" + r.sizeBytes()).toList();
            assertEquals(want, got, b.name() + "\n" + job);
        }
        for (Row r : rows) {
            assertEquals(formName, r.form());
            assertEquals(2, r.pes());
            assertEquals(ITERS, r.iterations());
            assertTrue(Double.isFinite(r.median()) && r.median() > 0, r.toString());
            assertTrue(r.min() <= r.median() && r.median() <= r.max(), r.toString());
        }
        assertFalse(job.linesWith("x nvshmem").isEmpty(), job::toString);
        assertTrue(job.linesWith("skipped").isEmpty(), job::toString);
    }
}
