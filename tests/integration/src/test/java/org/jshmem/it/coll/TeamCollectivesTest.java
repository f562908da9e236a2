package org.jshmem.it.coll;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.it.JobResult;
import org.jshmem.it.MpiJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Every collective x type x operation on 1, 2, 3, 4 and 8 PEs, on the world, the shared team,
 * strided sub-teams and 2D splits, at sizes that are not multiples of anything convenient and
 * that cross every algorithm's threshold; the PEs report CRCs of their results and this test
 * compares them with a sequential reference ({@link Reference}). Further jobs run the other
 * algorithms by moving the thresholds (staging off, one-shot everywhere, two-shot everywhere), and
 * the copy collectives (what heaps Java cannot read use) on the host heap.
 */
// independent jobs: several may run at once (the parallelism of tests/integration/pom.xml)
@Execution(ExecutionMode.CONCURRENT)
class TeamCollectivesTest {
    /**
     * Sizes in elements, with the default thresholds (staged up to 2 KiB, one-shot while
     * (n-1) x bytes is at most 8 KiB): 1, 7 and 251 staged for every type (251 longs: 2008 bytes);
     * 3001 one-shot for 1- and 2-byte types on 2 PEs, two-shot for the others; 20011 two-shot. The
     * forced-algorithm jobs run every algorithm on every type;
     * {@link #largeReduceOverTheThresholdOnThreePes} a size over a million.
     */
    private static final String REDUCE_SIZES = "1,7,251,3001,20011";
    private static final String SMALL_REDUCE_SIZES = "1,7,251,3001";
    private static final String OTHER_SIZES = "1,7,251,3001";

    @Test
    void onePe() {
        check(1, SMALL_REDUCE_SIZES, "1,7,1001", Map.of(), "world", "shared", "strided:0:1:1", "2d:1");
    }

    @Test
    void twoPes() {
        check(2, REDUCE_SIZES, OTHER_SIZES, Map.of(), "world", "shared", "strided:1:1:1", "2d:1");
    }

    @Test
    void threePes() {
        check(3, REDUCE_SIZES, OTHER_SIZES, Map.of(), "world", "strided:0:2:2", "2d:2");
    }

    @Test
    void fourPesStridedAnd2d() {
        check(4, REDUCE_SIZES, OTHER_SIZES, Map.of(), "world", "strided:1:2:2", "2d:2", "2d:3");
    }

    /** Eight PEs (oversubscribed here; on a GPU machine, eight GPUs or eight PEs sharing fewer): ragged 2D rows, a strided team. */
    @Test
    void eightPesOddTeamShapes() {
        check(8, "1,251,3001", "1,7,251", Map.of(), "world", "strided:1:2:3", "2d:3");
    }

    @Test
    void largeReduceOverTheThresholdOnThreePes() {
        check(3, "1000003", "100003", Map.of("JSHMEM_SYMMETRIC_SIZE", "128M"), "world");
    }

    @Test
    void withoutStagingEveryReductionOneShot() {
        check(3, SMALL_REDUCE_SIZES, "1,7,3001", Map.of("JSHMEM_COLL_STAGED_MAX", "0", "JSHMEM_REDUCE_ONESHOT_MAX", "1G"),
                "world", "strided:1:1:2");
    }

    @Test
    void withoutStagingEveryReductionTwoShot() {
        check(4, "1,2,7,3001", "1,7", Map.of("JSHMEM_COLL_STAGED_MAX", "0", "JSHMEM_REDUCE_ONESHOT_MAX", "0"),
                "world", "2d:3");
    }

    @Test
    void copyCollectivesThroughTheBackend() {
        check(3, "1,2,7,3001", "1,7,1001", Map.of("JSHMEM_COLLECTIVES", "copy"), "world", "strided:1:1:2");
    }

    /**
     * PEs on two "nodes" of the remote transport ({@code JSHMEM_NODE_OF_RANK}), where broadcast,
     * fcollect, collect and integer reductions take two levels ({@code HierarchicalCollectives}) from
     * {@code JSHMEM_COLL_HIERARCHY_MIN}, moved to 16 KiB: 2 + 2 PEs interleaved (0,1,0,1), world and
     * a 3-PE team of 2 + 1 (PEs 0, 1, 2); sizes on both sides of the threshold for every type.
     */
    @Test
    void twoLevelsAcrossInterleavedNodes() {
        check(4, "251,3001,20011", "251,3001,20011", Map.of("JSHMEM_NODE_OF_RANK", "0,1,0,1", "JSHMEM_BACKEND", "host",
                "JSHMEM_COLL_HIERARCHY_MIN", "16K"), "world", "strided:0:1:3");
    }

    /** Two levels where the nodes hold 2 and 1 PEs; and with the default threshold (1 MiB), a 1.6 MB integer reduce. */
    @Test
    void twoLevelsAcrossUnevenNodes() {
        check(3, "3001,20011", "3001,20011", Map.of("JSHMEM_NODE_OF_RANK", "0,0,1", "JSHMEM_BACKEND", "host",
                "JSHMEM_COLL_HIERARCHY_MIN", "16K"), "world");
        check(3, "200003", "1", Map.of("JSHMEM_NODE_OF_RANK", "0,0,1", "JSHMEM_BACKEND", "host"), "ops=SUM,XOR", "world");
    }

    private void check(int np, String reduceSizes, String otherSizes, Map<String, String> env, String... teamArgs) {
        List<String> args = new ArrayList<>(List.of(reduceSizes, otherSizes));
        args.addAll(List.of(teamArgs));
        List<ReduceOp> ops = List.of(ReduceOp.values());
        String[] teams = teamArgs;
        if (teamArgs[0].startsWith("ops=")) {
            ops = CollectivesProgram.opsFilter(teamArgs[0]);
            teams = java.util.Arrays.copyOfRange(teamArgs, 1, teamArgs.length);
        }
        MpiJob job = MpiJob.of(np, CollectivesProgram.class).args(args.toArray(String[]::new)).timeout(Duration.ofSeconds(150));
        if (np > 2) {
            job.env("JSHMEM_SPIN", "0");   // more PEs than this machine's 2 cores: yield at once (documented use)
        }
        env.forEach(job::env);
        JobResult r = RankOutput.run(job, np);
        if (!r.succeeded()) {
            fail("job failed: " + r);
        }
        List<String> problems = new ArrayList<>();
        int checked = CollectivesCheck.verify(r, np, reduceSizes, otherSizes, ops, teams, List.of(""), problems);
        if (!problems.isEmpty()) {
            fail(problems.size() + " of " + checked + " results wrong; first ones:\n  "
                    + String.join("\n  ", problems.subList(0, Math.min(25, problems.size()))));
        }
        assertTrue(checked > 0, "nothing checked");
        System.out.println("[coll] " + np + " PEs " + String.join(" ", teamArgs) + " " + env + ": " + checked
                + " results checked against the reference in " + r.elapsed().toMillis() + " ms of job");
    }
}
