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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The collectives on a GPU heap, 2 PEs (tag "gpu": run on the GPU machine, see README): every
 * collective x type x operation, blocking and on a stream ({@link GpuCollectivesProgram}), on the
 * world, the shared team, a 2-PE split (a slot of its own), a 1-PE strided sub-team and a 2D split
 * (1-PE rows sharing a slot, a 2-PE column), at odd sizes that cross the one-block, two-shot and
 * copy-engine thresholds, in place too, compared with the sequential reference; plus collectives
 * back to back on one stream, a reused team slot, and misaligned elements. Further jobs move the
 * thresholds so that every shape runs every collective: many blocks + two-shot + copy engines;
 * one fused block + one-shot; a few blocks (long grid-stride loops); and the copy collectives for
 * the blocking forms ({@code JSHMEM_COLLECTIVES=copy}). One job of 4 PEs runs the copy engines'
 * schedules (pulls and pushes, one side stream and several).
 */
@Tag("gpu")
class GpuCollectivesTest {
    private static final int NP = 2;
    private static final String[] TEAMS = {"world", "shared", "strided:0:1:2", "strided:1:1:1", "2d:1"};
    /** What the collectives' description says when a service kernel runs the host-called small ones. */
    private static final String SERVED = "small_ones_on_a_service_kernel";

    /**
     * With the defaults (low-latency reductions up to 4 KiB, one block up to 32 KiB, one-shot while
     * (n-1) x bytes <= 256 KiB, copy engines from 8 MiB per piece): reductions of 1..251 elements
     * low-latency, in place too, 3001 low-latency for bytes and one fused block for the rest,
     * 20011 many blocks (80 KB of floats), 200003 two-shot for every type of 2 bytes or more (byte:
     * one-shot, many blocks); in place two-shot above 4 KiB. Chains of 100 (low-latency, back to
     * back: both parities of the lines) and 300007 ints (many blocks, two-shot). The other
     * collectives: 1..3001 one fused block.
     */
    @Test
    void everyCollectiveBlockingAndOnAStream() {
        // under a transport test mode (GPU heaps across "nodes") the blocking forms are the two-level ones
        // and the on-stream forms run them once the stream is idle: the same results are checked
        String transport = System.getProperty("jshmem.test.transport");
        String describes = transport == null || transport.isBlank() ? "GPU_collectives" : "two-level_collectives_across_nodes";
        check("1,7,251,3001,20011,200003", "1,7,251,3001,100003", Map.of(), describes, TEAMS);
    }

    @Test
    void manyBlocksTwoShotAndCopyEnginesEverywhere() {
        check("1,7,3001,20011", "1,7,3001,20011", Map.of("JSHMEM_GPU_COLL_ONE_BLOCK_MAX", "0",
                "JSHMEM_GPU_REDUCE_ONESHOT_MAX", "0", "JSHMEM_GPU_COLL_CE_MIN", "1", "JSHMEM_GPU_REDUCESCATTER_CE_MIN", "1",
                "JSHMEM_GPU_REDUCE_LL_MAX", "0"),
                "GPU_collectives",
                "world", "strided:0:1:2", "strided:1:1:1");
    }

    @Test
    void oneFusedBlockAndOneShotEverywhere() {
        check("1,251,200003", "7,100003", Map.of("JSHMEM_GPU_COLL_ONE_BLOCK_MAX", "1G",
                "JSHMEM_GPU_REDUCE_ONESHOT_MAX", "1G", "JSHMEM_GPU_COLL_CE_MIN", "0", "JSHMEM_GPU_REDUCE_LL_MAX", "0"),
                "GPU_collectives",
                "world", "strided:1:1:1");
    }

    /**
     * Low-latency reductions on 3 PEs (a rotation that is not a swap) at sizes around the lines'
     * room: 511 and 512 longs fill 4 KiB, 513 does not fit; 2047 and 2048 shorts, 4095 and 4096
     * bytes likewise; odd sizes end in a part-filled line. The world, a 2-PE strided team and
     * a 2-D split (rows of 2 and 1 PEs); the program's back-to-back chains alternate the parities.
     */
    @Test
    void lowLatencyReductionsAroundTheirLimitOnThreePes() {
        check(3, "1,3,511,512,513,2047,2048,4095,4096", "7", Map.of(), "GPU_collectives",
                "world", "strided:0:2:2", "2d:2");
    }

    /**
     * A service kernel on every PE ({@code JSHMEM_GPU_SERVICE_US}): the host-called collectives that run as one
     * block (low-latency reductions, one-block fcollect, collect, alltoall, broadcast) are served by it, while
     * the on-stream forms, and the host-called ones too large for one block, launch kernels; both run one protocol
     * over the same team cells back to back (the low-latency call count and lines, the generations). 2 PEs on
     * every team shape, 3 PEs around the low-latency lines' room; team slots freed and reused (the service kernel
     * ends before the wait for the device, and the next call starts it again).
     */
    @Test
    void hostCalledOneBlockCollectivesOnTheServiceKernel() {
        Map<String, String> env = Map.of("JSHMEM_GPU_SERVICE_US", "1000");
        checkMentioning(NP, "1,7,251,3001,20011", "1,7,3001", env, "GPU_collectives", SERVED, TEAMS);
        checkMentioning(3, "1,511,512,513", "7", env, "GPU_collectives", SERVED, "world", "strided:0:2:2", "2d:2");
    }

    /**
     * The same with a service kernel that returns 1 us after each call: nearly every call starts it again, and
     * posts race its return (the wait finds the kernel gone with the call not done, and starts it again).
     */
    @Test
    void serviceKernelThatReturnsAfterEveryCall() {
        checkMentioning(NP, "1,7,251", "1,7,3001", Map.of("JSHMEM_GPU_SERVICE_US", "1"), "GPU_collectives", SERVED,
                "world", "strided:0:1:2", "2d:1");
    }

    @Test
    void threeBlocksWithLongGridStrideLoops() {
        check("7,20011,200003", "3001,100003", Map.of("JSHMEM_GPU_COLL_ONE_BLOCK_MAX", "0",
                "JSHMEM_GPU_COLL_MAX_BLOCKS", "3"), "GPU_collectives", "world", "2d:1");
    }

    @Test
    void copyCollectivesForTheBlockingForms() {
        check("1,7,3001", "1,7,1001", Map.of("JSHMEM_COLLECTIVES", "copy"), "copy_collectives",
                "world", "strided:1:1:1");
    }

    /**
     * 4 PEs, every piece on the copy engines, pulled and pushed, one after the other on one side
     * stream (the default) and spread over three: every schedule of {@code JSHMEM_GPU_COLL_CE_LANES}
     * and {@code JSHMEM_GPU_COLL_CE_MODE} delivers every member's piece to its place, on the world
     * and a strided team.
     */
    @Test
    void copyEnginePullsAndPushesOnOneLaneAndOnSeveralWithFourPes() {
        for (String[] lanesMode : new String[][] {{"1", "pull"}, {"3", "pull"}, {"1", "push"}, {"3", "push"}}) {
            check(4, "7,20011", "1,3001", Map.of("JSHMEM_GPU_COLL_CE_MIN", "1", "JSHMEM_GPU_REDUCESCATTER_CE_MIN", "1",
                    "JSHMEM_GPU_COLL_CE_LANES", lanesMode[0], "JSHMEM_GPU_COLL_CE_MODE", lanesMode[1]),
                    "GPU_collectives", "world", "strided:0:2:2");
        }
    }

    /**
     * 4 PEs, reductions in many blocks, two-shot: teams of 4 and 3 members read the members one after the
     * other from the one after themselves ({@code JSHMEM_GPU_REDUCE_ROTATED_MIN=1}: at every size) and all at
     * once ({@code 0}): every type and operation gives the expected bits both ways (fp16 and bf16 always all at
     * once), in place too, and so does the reduce-scatter; the 2-member team keeps the one way there is.
     */
    @Test
    void twoShotReadingOneMemberAtATimeAndAllAtOnceWithFourPes() {
        for (String rotatedMin : new String[] {"1", "0"}) {
            check(4, "20011,200003", "7", Map.of("JSHMEM_GPU_REDUCE_ROTATED_MIN", rotatedMin, "JSHMEM_GPU_COLL_ONE_BLOCK_MAX", "0",
                    "JSHMEM_GPU_REDUCE_ONESHOT_MAX", "0", "JSHMEM_GPU_REDUCE_LL_MAX", "0"),
                    "GPU_collectives", "world", "strided:1:1:3", "strided:0:2:2");
        }
    }

    private void check(String reduceSizes, String otherSizes, Map<String, String> env, String describes,
                       String... teams) {
        check(NP, reduceSizes, otherSizes, env, describes, teams);
    }

    private void check(int np, String reduceSizes, String otherSizes, Map<String, String> env, String describes,
                       String... teams) {
        checkMentioning(np, reduceSizes, otherSizes, env, describes, "", teams);
    }

    /** {@code mentions}: what the collectives' description must also contain ("" for nothing). */
    private void checkMentioning(int np, String reduceSizes, String otherSizes, Map<String, String> env, String describes,
                       String mentions, String... teams) {
        List<String> args = new ArrayList<>(List.of(reduceSizes, otherSizes));
        args.addAll(List.of(teams));
        String backend = System.getProperty("jshmem.test.backend");
        MpiJob job = MpiJob.of(np, GpuCollectivesProgram.class).args(args.toArray(String[]::new))
                .env("JSHMEM_BACKEND", backend != null && !backend.isBlank() ? backend : "cuda")
                .timeout(Duration.ofSeconds(600));
        env.forEach(job::env);
        JobResult r = RankOutput.run(job, np);
        if (!r.succeeded()) {
            fail("job failed: " + r);
        }
        List<String> problems = new ArrayList<>();
        int checked = CollectivesCheck.verify(r, np, reduceSizes, otherSizes, List.of(ReduceOp.values()), teams,
                List.of("host/", "stream/"), problems);
        CollectivesCheck refs = new CollectivesCheck();
        int[] world = java.util.stream.IntStream.range(0, np).toArray();
        String misaligned = refs.crc("misaligned", () -> Reference.reduce(DType.FLOAT, ReduceOp.SUM, world,
                GpuCollectivesProgram.MISALIGNED,
                CollectivesProgram.seed("misaligned", DType.FLOAT, GpuCollectivesProgram.MISALIGNED)));
        for (int pe = 0; pe < np; pe++) {
            Map<String, String> got = r.reports(pe);
            String how = got.getOrDefault("collectives", "?");
            if (!how.startsWith(describes) || !how.contains(mentions)) {
                problems.add("PE " + pe + " runs " + how + ", expected " + describes + " with " + mentions);
            }
            for (String spec : teams) {
                for (String label : CollectivesCheck.labels(spec)) {
                    if (CollectivesCheck.members(label, np, pe) == null) {
                        continue;
                    }
                    for (long n : GpuCollectivesProgram.CHAIN_SIZES) {
                        CollectivesCheck.expect(problems, pe, "chain." + label + "." + n,
                                got.get("chain." + label + "." + n), "0");
                        checked++;
                    }
                }
            }
            CollectivesCheck.expect(problems, pe, "reuse", got.get("reuse"), "0");
            CollectivesCheck.expect(problems, pe, "misaligned.host", got.get("misaligned.host"), misaligned);
            CollectivesCheck.expect(problems, pe, "misaligned.stream", got.get("misaligned.stream"),
                    "IllegalArgumentException");
            checked += 3;
        }
        if (!problems.isEmpty()) {
            fail(problems.size() + " of " + checked + " results wrong; first ones:\n  "
                    + String.join("\n  ", problems.subList(0, Math.min(25, problems.size()))));
        }
        assertTrue(checked > 0, "nothing checked");
        System.out.println("[gpu coll] " + np + " PEs " + String.join(" ", teams) + " " + env + ": " + checked
                + " results checked against the reference in " + r.elapsed().toMillis() + " ms of job");
    }
}
