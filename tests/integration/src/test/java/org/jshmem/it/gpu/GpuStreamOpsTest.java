package org.jshmem.it.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jshmem.it.JobResult;
import org.jshmem.it.MpiJob;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * On-stream operations on a GPU heap (tag "gpu": run on the GPU machine, see README; the CPU
 * build excludes the tag rather than skipping it).
 */
@Tag("gpu")
class GpuStreamOpsTest {
    @ParameterizedTest(name = "{0} PEs")
    @ValueSource(ints = {2})
    void streamOperationsMoveExactData(int np) {
        JobResult r = MpiJob.of(np, StreamOpsProgram.class).env("JSHMEM_BACKEND", "cuda")
                .env("JSHMEM_SYMMETRIC_SIZE", "256M").run();
        assertTrue(r.succeeded(), r::toString);
        for (int pe = 0; pe < np; pe++) {
            assertTrue(r.value(pe, "describe").startsWith("CUDA_GPU_memory"), r::toString);
            for (long bytes : new long[] {8, 4096, (1 << 20) + 24, 16L << 20}) {
                assertEquals(0, r.longValue(pe, "put." + bytes + ".mismatches"), "put " + bytes + " on PE " + pe);
                assertEquals("true", r.value(pe, "put." + bytes + ".elapsedNonNegative"));
                assertEquals(0, r.longValue(pe, "get." + bytes + ".mismatches"), "get " + bytes + " on PE " + pe);
            }
            assertEquals(100, r.longValue(pe, "ring.signal"));
            assertEquals(0, r.longValue(pe, "ring.mismatches"));
            assertEquals("done", r.value(pe, "barriers"));
            assertEquals(0, r.longValue(pe, "gather.mismatches"), "signalled gather on PE " + pe);
            assertEquals(2L * np, r.longValue(pe, "gather.signalled"), "signalled gather's signals on PE " + pe);
            assertEquals(0, r.longValue(pe, "ibput.mismatches"), "block-strided put into PE " + pe);
            assertEquals("ok", r.value(pe, "ibput.overlap"), "ibputOnStream with overlapping blocks on PE " + pe);
            assertEquals(0, r.longValue(pe, "gather.others.mismatches"), "gather of the others' blocks on PE " + pe);
            assertEquals(np, r.longValue(pe, "gather.others.signals"),
                    "gather of the others' blocks: their signals set, its own left, on PE " + pe);
            assertEquals(0, r.longValue(pe, "registered.mismatches"), "registered buffer round trip on PE " + pe);
            assertEquals(0, r.longValue(pe, "backToBack.mismatches"), "two puts then a get on one stream, PE " + pe);
            for (String error : new String[] {"outOfBounds", "overlap", "heap", "host", "afterClose"}) {
                assertEquals("ok", r.value(pe, "registered." + error), "registered." + error + " on PE " + pe);
            }
            int left = (pe + np - 1) % np;
            assertEquals(1000 + left, r.longValue(pe, "p.int"));
            assertEquals(String.valueOf(left + 0.5f), r.value(pe, "p.float"));
            assertEquals((1L << 40) + left, r.longValue(pe, "p.long"));
            assertEquals(String.valueOf(left + 0.25), r.value(pe, "p.double"));
            assertEquals(7 + left + 1, r.longValue(pe, "signalOp.onStream"));
            assertEquals("-1," + Long.MIN_VALUE, r.value(pe, "unsigned.signals"), "2^64-1 and 2^63 met GT/GE/LT waits");
        }
        assertEquals((long) np * (np + 1) / 2, r.longValue(0, "add.signal"));
    }
}
