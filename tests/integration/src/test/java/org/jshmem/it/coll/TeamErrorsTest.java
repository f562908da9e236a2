package org.jshmem.it.coll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.jshmem.it.JobResult;
import org.jshmem.it.MpiJob;
import org.junit.jupiter.api.Test;

/** Bad arguments, team slots, and (with JSHMEM_DEBUG=1) collective calls that differ between PEs; 3 PEs each. */
class TeamErrorsTest {
    private static JobResult errorsJob;

    /** The errors-and-slots job, run once for the tests that read it. */
    private static synchronized JobResult errorsJob() {
        if (errorsJob == null) {
            errorsJob = run();
        }
        return errorsJob;
    }

    private static JobResult run(String... args) {
        MpiJob job = MpiJob.of(3, TeamErrorsProgram.class).args(args).timeout(Duration.ofSeconds(120))
                .env("JSHMEM_SPIN", "0");   // 3 PEs on 2 cores: yield at once
        if (args.length > 0 && args[0].equals("mismatch")) {
            job.env("JSHMEM_DEBUG", "1");
        }
        JobResult r = RankOutput.run(job, 3);
        assertTrue(r.succeeded(), () -> "job failed: " + r);
        for (int pe = 0; pe < 3; pe++) {
            assertEquals("ok", r.value(pe, "done"), "PE " + pe);
        }
        return r;
    }

    private static void expectError(JobResult r, int pe, String key, String type, String... fragments) {
        String v = r.value(pe, "err." + key);
        assertTrue(v.startsWith(type + ": "), () -> "PE " + pe + " " + key + ": expected " + type + ", got " + v);
        for (String f : fragments) {
            assertTrue(v.contains(f), () -> "PE " + pe + " " + key + ": message lacks '" + f + "': " + v);
        }
    }

    @Test
    void badArgumentsAreRejectedOnEveryPeAndTheTeamStaysUsable() {
        JobResult r = errorsJob();
        for (int pe = 0; pe < 3; pe++) {
            expectError(r, pe, "rootOutOfRange", "PeOutOfRangeException", "broadcast", "root", "PE 3 is out of range",
                    "team world has 3 PEs (0..2)");
            expectError(r, pe, "rootNegative", "PeOutOfRangeException", "PE -1 is out of range");
            expectError(r, pe, "bitwiseOnFloat", "IllegalArgumentException", "AND is a bitwise operation",
                    "FLOAT is a floating-point type");
            expectError(r, pe, "bitwiseOnBf16", "IllegalArgumentException", "XOR is a bitwise operation", "BF16");
            expectError(r, pe, "reduceDestTooSmall", "HeapBoundsException", "dest is too small", "needs 24 bytes",
                    "has 16");
            expectError(r, pe, "fcollectDestTooSmall", "HeapBoundsException", "dest is too small", "needs 2400 bytes");
            expectError(r, pe, "alltoallSrcTooSmall", "HeapBoundsException", "src is too small", "needs 2400 bytes");
            expectError(r, pe, "fcollectOverlap", "IllegalArgumentException", "overlap", "separate segments");
            expectError(r, pe, "reducePartialOverlap", "IllegalArgumentException", "overlap", "may be the same range");
            expectError(r, pe, "negativeCount", "IllegalArgumentException", "must not be negative");
            expectError(r, pe, "reduceScatterSrcTooSmall", "HeapBoundsException", "Team.reduceScatter", "src is too small",
                    "needs 2400 bytes");
            expectError(r, pe, "reduceScatterDestTooSmall", "HeapBoundsException", "dest is too small", "needs 24 bytes",
                    "has 16");
            expectError(r, pe, "reduceScatterOverlap", "IllegalArgumentException", "overlap", "separate segments");
            expectError(r, pe, "reduceScatterBitwiseOnFloat", "IllegalArgumentException", "OR is a bitwise operation",
                    "DOUBLE");
            expectError(r, pe, "reduceScatterNullOp", "NullPointerException", "Team.reduceScatter", "op");
            expectError(r, pe, "nullType", "NullPointerException", "type is null");
            expectError(r, pe, "splitOutside", "IllegalArgumentException", "splitStrided(0, 2, 3)", "the last would be 4");
            expectError(r, pe, "splitEmpty", "IllegalArgumentException", "size >= 1");
            expectError(r, pe, "split2dZero", "IllegalArgumentException", "xRange must be >= 1");
            expectError(r, pe, "worldPeOutOfRange", "PeOutOfRangeException", "worldPe", "PE 3 is out of range");
            expectError(r, pe, "translateOutOfRange", "PeOutOfRangeException", "translatePe", "PE -1");
            expectError(r, pe, "useAfterDestroy", "ShmemStateException", "was destroyed");
            expectError(r, pe, "freedSegment", "ShmemStateException", "was freed");
            expectError(r, pe, "collectTooSmall", "HeapBoundsException", "contribute 48 bytes", "room for 8",
                    "[8, 16, 24]");
            assertEquals("none", r.value(pe, "err.closeWorld"), "closing the world team does nothing");
            assertEquals(pe == 1 ? "0/1/1" : "empty", r.value(pe, "member.single"), "PE " + pe);
            assertEquals("6", r.value(pe, "afterErrors.sum"), "PE " + pe);
        }
    }

    @Test
    void teamSlotsRunOutCleanlyAndAreReusedManyTimes() {
        JobResult r = errorsJob();
        for (int pe = 0; pe < 3; pe++) {
            assertEquals("61", r.value(pe, "slots.made"), "64 slots less world, shared and the one close() uses");
            assertTrue(r.value(pe, "slots.failure").startsWith("ShmemException: ") && r.value(pe, "slots.failure")
                    .contains("no free team slot: at most 61 split teams can exist at once on a PE (jshmem keeps 3 of"
                            + " its 64 team slots, for world, shared and close())"), r.value(pe, "slots.failure"));
            assertEquals(Long.toString(expectedReuseSum(pe, 3)), r.value(pe, "slots.reuseSum"), "PE " + pe);
        }
        assertEquals("ok", r.value(0, "nonMemberCloses"));
        assertEquals("ok", r.value(1, "nonMemberCloses"));
    }

    /** What TeamErrorsProgram.slots() adds up on {@code pe}, computed from the team shapes. */
    private static long expectedReuseSum(int pe, int n) {
        long sum = 0;
        for (int round = 0; round < 200; round++) {
            if (round % 3 == 2) {
                int last = pe % 2;
                for (int q = pe % 2; q < n; q += 2) {
                    last = q;
                }
                sum += round + last;
            }
            int[] members;
            if (round % 3 == 0) {
                members = n > 1 ? java.util.stream.IntStream.range(0, n / 2).map(i -> 1 + 2 * i).toArray() : new int[] {0};
            } else {
                members = java.util.stream.IntStream.range(0, n).toArray();
            }
            boolean in = java.util.Arrays.stream(members).anyMatch(m -> m == pe);
            if (in) {
                for (int m : members) {
                    sum += round * 10L + m;
                }
                sum += round * 10L + members[members.length - 1];
            }
        }
        return sum;
    }

    @Test
    void mismatchedArgumentsFailOnEveryMemberNamingThePes() {
        JobResult r = run("mismatch");
        for (int pe = 0; pe < 3; pe++) {
            expectError(r, pe, "count", "CollectiveMismatchException", "JSHMEM_DEBUG=1", "team world",
                    "PE 2 differs from PE 0", "nelems 5", "nelems 4");
            expectError(r, pe, "kind", "CollectiveMismatchException", "PE 1, PE 2 differ from PE 0", "broadcast",
                    "fcollect");
            expectError(r, pe, "split", "CollectiveMismatchException", "PE 1, PE 2 differ from PE 0",
                    "splitStrided(0, 1, 2)", "splitStrided(0, 1, 3)");
            assertEquals("6", r.value(pe, "afterMismatch.sum"), "PE " + pe);
        }
        for (int pe = 1; pe < 3; pe++) {
            expectError(r, pe, "subteamOp", "CollectiveMismatchException", "PE 2 (team PE 1) differs from PE 1 (team PE 0)",
                    "reduce(MAX", "reduce(SUM");
            assertEquals("none", r.value(pe, "err.subteamSame"));
        }
        assertTrue(r.reports(0).get("err.subteamOp") == null, "PE 0 is not in the sub-team");
    }
}
