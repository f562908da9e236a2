package org.jshmem.it.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.jshmem.it.JobResult;
import org.jshmem.it.MpiJob;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Device calls to PEs of other nodes through the proxy ({@link DeviceProxyProgram}): puts and gets
 * at thread, warp and block scope below, at and above one request's payload, the atomics, p and g,
 * put_signal and signal_op with the target's kernel waiting at the same time, contended atomics
 * from many threads, and the block barrier over PEs of both nodes. Every peer remote (2 PEs), and
 * two "nodes" of two (4 PEs: the barrier mixes NVLink and the proxy), with debug checks off and on.
 * Tag "gpu": run on the GPU machine.
 */
@Tag("gpu")
class DeviceProxyTest {
    @ParameterizedTest(name = "{0}, {1} PEs, JSHMEM_DEBUG={2}")
    @CsvSource({"remote, 2, 0", "two-nodes, 4, 0", "two-nodes, 4, 1"})
    void kernelsReachPesOfOtherNodes(String mode, int np, int debug) {
        MpiJob job = MpiJob.of(np, DeviceProxyProgram.class).env("JSHMEM_BACKEND", "cuda")
                .env("JSHMEM_DEBUG", Integer.toString(debug)).timeout(Duration.ofSeconds(240));
        MpiJob.transportEnv(mode, np).forEach(job::env);
        JobResult r = job.run();
        assertTrue(r.succeeded(), r::toString);
        for (int pe = 0; pe < np; pe++) {
            String on = " on PE " + pe + "\n" + r;
            assertEquals("true", r.value(pe, "done"), on);
            assertEquals((pe + np / 2) % np, r.longValue(pe, "peer"), on);
            assertEquals(1, r.longValue(pe, "ptr.peerNull"), "jshmem_ptr to a PE of another node is NULL" + on);
            assertEquals(0, r.longValue(pe, "ptr.selfNull"), on);
            for (long n : DeviceProxyProgram.SIZES) {
                assertEquals(0, r.longValue(pe, "put." + n + ".mismatches"), "put of " + n + " bytes" + on);
                assertEquals(0, r.longValue(pe, "get." + n + ".mismatches"), "get of " + n + " bytes" + on);
                assertEquals(0, r.longValue(pe, "signal." + n + ".errors"), "put_signal of " + n + " bytes" + on);
                assertEquals("1,9", r.value(pe, "signal." + n + ".seen"), "the signals of " + n + " bytes" + on);
            }
            assertEquals("0,0,42,0,-9,0,240,48,0,1,2,-4," + Double.doubleToLongBits(2.5) + ",120,5",
                    r.value(pe, "amo.out"), "what the atomics, g and p returned" + on);
            assertEquals("5,42,7,-9,207", r.value(pe, "amo.cells"), on);
            assertEquals("3,-4", r.value(pe, "amo.icells"), on);
            assertEquals(Double.doubleToLongBits(2.5), r.longValue(pe, "amo.double"), on);
            assertEquals(120, r.longValue(pe, "amo.char"), on);
            assertEquals((long) DeviceProxyProgram.CONTENTION_BLOCKS * DeviceProxyProgram.CONTENTION_THREADS
                    * DeviceProxyProgram.CONTENTION_ITERS, r.longValue(pe, "contention.counter"), on);
            assertEquals(0, r.longValue(pe, "barrier.errors"), on);
            assertEquals((long) (np - 1) * DeviceProxyProgram.BARRIER_ROUNDS, r.longValue(pe, "barrier.counter"), on);
        }
    }
}
