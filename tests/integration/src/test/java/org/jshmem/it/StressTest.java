package org.jshmem.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Ordering and contention over many rounds ({@link StressProgram}), with exact results. The jobs
 * run with {@code JSHMEM_SPIN=0}: the PEs outnumber this machine's cores, and spinning PEs would
 * only keep the one they wait for off a core.
 */
class StressTest {

    private static JobResult run(int n, String mode, int rounds) {
        JobResult r = MpiJob.of(n, StressProgram.class).optimizingCompiler().args(mode, Integer.toString(rounds))
                .env("JSHMEM_SPIN", "0").env("JSHMEM_SYMMETRIC_SIZE", "8M")
                // a stuck wait names itself well before the job's time runs out
                .env("JSHMEM_WAIT_TIMEOUT", "60").timeout(Duration.ofSeconds(180)).run();
        assertTrue(r.succeeded(), r::toString);
        return r;
    }

    @ParameterizedTest(name = "{0} PEs")
    @ValueSource(ints = {2, 4})
    void putFenceFlagIsSeenInOrder(int n) {
        int rounds = 10_000;
        JobResult r = run(n, "fence", rounds);
        for (int pe = 0; pe < n; pe++) {
            int left = (pe + n - 1) % n;
            long sum = 0;
            for (int round = 1; round <= rounds; round++) {
                for (int i = 0; i < StressProgram.FENCE_WORDS; i++) {
                    sum += StressProgram.fenceWord(left, round, i);
                }
            }
            assertEquals(0, r.longValue(pe, "fence.mismatches"), "PE " + pe + ": words not from round and sender");
            assertEquals(sum, r.longValue(pe, "fence.sum"), "PE " + pe + " sum of the words it received");
        }
    }

    @ParameterizedTest(name = "{0} PEs")
    @ValueSource(ints = {2, 4})
    void putWithSignalRingOf100000Rounds(int n) {
        int rounds = 100_000;
        JobResult r = run(n, "ring", rounds);
        for (int pe = 0; pe < n; pe++) {
            int left = (pe + n - 1) % n;
            long sum = 0;
            for (int round = 1; round <= rounds; round++) {
                for (int i = 0; i < StressProgram.RING_WORDS; i++) {
                    sum += StressProgram.ringWord(left, round, i);
                }
            }
            long[] last = new long[StressProgram.RING_WORDS];
            for (int i = 0; i < last.length; i++) {
                last[i] = StressProgram.ringWord(left, rounds, i);
            }
            assertEquals(0, r.longValue(pe, "ring.mismatches"), "PE " + pe + ": words not from round and sender");
            assertEquals(sum, r.longValue(pe, "ring.sum"), "PE " + pe + " sum of the words it received");
            assertEquals(rounds, r.longValue(pe, "ring.signal"), "PE " + pe + " final signal");
            assertEquals(Arrays.toString(last), r.value(pe, "ring.last"), "PE " + pe + " last block");
        }
    }

    @Test
    void fourPesFetchAdd100000TimesEach() {
        int n = 4;
        int rounds = 100_000;
        JobResult r = run(n, "fadd", rounds);
        long calls = (long) n * rounds;
        long unit = 1 + (1L << 32);
        long intSum = 0;
        long longSum = 0;
        for (int pe = 0; pe < n; pe++) {
            assertEquals(0, r.longValue(pe, "fadd.outOfOrder"), "PE " + pe + ": fetched values that did not grow");
            assertEquals(calls, r.longValue(pe, "fadd.intTotal"), "PE " + pe + " int total");
            assertEquals(calls * unit, r.longValue(pe, "fadd.longTotal"), "PE " + pe + " long total");
            intSum += r.longValue(pe, "fadd.intSum");
            longSum += r.longValue(pe, "fadd.longSum");
        }
        // every value 0 .. calls-1 was fetched once: by exactly one PE
        assertEquals(calls * (calls - 1) / 2, intSum, "sum of the int values fetched by all PEs");
        assertEquals(calls * (calls - 1) / 2, longSum, "sum of the long values fetched by all PEs, in units");
    }
}
