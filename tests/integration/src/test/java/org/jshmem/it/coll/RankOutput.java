package org.jshmem.it.coll;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.jshmem.it.JobResult;
import org.jshmem.it.MpiJob;

/**
 * Runs a job with each PE's output in a file of its own ({@code mpirun --output-filename}) and
 * returns the result with the PEs' outputs one after the other. mpirun forwards the PEs' output
 * in chunks that may end mid-line, so with thousands of report lines the PEs' lines interleave
 * and break; OpenMPI 4.1 still copies the output to the terminal, so nothing is lost from view.
 */
final class RankOutput {
    private RankOutput() {
    }

    static JobResult run(MpiJob job, int np) {
        Path dir;
        try {
            dir = Files.createTempDirectory("jshmem-coll-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            JobResult r = job.mpirun("--output-filename", dir.toString()).run();
            StringBuilder all = new StringBuilder();
            for (int pe = 0; pe < np; pe++) {
                for (String stream : new String[] {"stdout", "stderr"}) {
                    Path f = dir.resolve("1").resolve("rank." + pe).resolve(stream);
                    if (Files.exists(f)) {
                        String text = Files.readString(f);
                        all.append(text);
                        if (!text.isEmpty() && !text.endsWith("\n")) {
                            all.append('\n');
                        }
                    }
                }
            }
            return all.isEmpty() ? r : new JobResult(r.np(), r.exitCode(), r.timedOut(), all.toString(), r.elapsed());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException ignored) {
                // a temporary directory left behind
            }
        }
    }
}
