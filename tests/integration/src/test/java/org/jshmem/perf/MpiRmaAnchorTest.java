package org.jshmem.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.jshmem.it.JobResult;
import org.jshmem.it.MpiJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java anchor of the remote transport ({@code jshmemrun -np 2 mpi-anchor}) on 2 real
 * processes: it makes every case's row, having checked the bytes each case moved (a wrong byte
 * would end it with exit status 1), and refuses a bad sweep and a job of another size. Never timings.
 */
class MpiRmaAnchorTest {
    private static final List<Long> SIZES = List.of(8L, 64L, 512L, 4096L, 32768L);

    @TempDir
    Path dir;

    @Test
    void everyCaseMovesTheRightBytesAndMakesItsRow() {
        Path csv = dir.resolve("mpi-java.csv");
        JobResult job = MpiJob.of(2, MpiRmaAnchor.class)
                .args("--min", "8", "--max", "32K", "--factor", "8", "--reps", "2", "--iters", "50", "--warmup-ms", "0",
                        "--csv", csv.toString())
                .run();
        assertTrue(job.succeeded(), job::toString);
        List<Row> rows = Csv.read(csv);
        List<String> benches = List.of("put_bw", "get_bw", "put_nbi_bw", "get_nbi_bw", "put_latency", "get_latency");
        for (String bench : benches) {
            Set<Long> sizes = rows.stream().filter(r -> r.benchmark().equals(bench)).map(Row::sizeBytes)
                    .collect(Collectors.toSet());
            assertEquals(Set.copyOf(SIZES), sizes, bench + "'s sizes\n" + job);
        }
        assertEquals(benches.size() * SIZES.size(), rows.size(), job::toString);
        for (Row r : rows) {
            assertEquals("mpi-java", r.library());
            assertEquals(2, r.pes());
            assertEquals(50, r.iterations());
            assertEquals(r.benchmark().endsWith("_bw") ? "GB/s" : "us", r.unit(), r.toString());
            assertTrue(r.min() > 0 && r.min() <= r.median() && r.median() <= r.max(), r.toString());
        }
        assertEquals(rows.size(), job.linesWith("mpi-java,").size(), "the rows on standard output too\n" + job);
    }

    @Test
    void aBadSweepIsAUsageErrorBeforeMpiStarts() {
        JobResult job = MpiJob.of(2, MpiRmaAnchor.class).args("--min", "8K", "--max", "4K").run();
        assertEquals(2, job.exitCode(), job::toString);
        assertFalse(job.linesWith("size sweep needs 0 < min <= max (got min 8K, max 4K)").isEmpty(), job::toString);
        JobResult tooLarge = MpiJob.of(2, MpiRmaAnchor.class).args("--max", "2G").run();
        assertEquals(2, tooLarge.exitCode(), tooLarge::toString);
        assertFalse(tooLarge.linesWith("--max at most 1G (MPI counts are int)").isEmpty(), tooLarge::toString);
    }

    @Test
    void refusesAJobOfOneProcess() {
        JobResult job = MpiJob.of(1, MpiRmaAnchor.class).args("--max", "4K", "--warmup-ms", "0").run();
        assertEquals(2, job.exitCode(), job::toString);
        assertFalse(job.linesWith("needs exactly 2 processes (mpirun -np 2), got 1").isEmpty(), job::toString);
    }
}
