package org.jshmem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The GPU collectives' algorithm choices, which every member of a team must make alike. */
class GpuCollectiveTuningTest {
    private static final GpuCollectiveTuning T = new GpuCollectiveTuning(256 << 10, 32 << 10, 8 << 20, 0);

    @Test
    void reductionsAreOneShotUpToTheLimitOfPeerBytesAndTwoShotInPlace() {
        assertFalse(T.reduceTwoShot(2, 256 << 10, false));
        assertTrue(T.reduceTwoShot(2, (256 << 10) + 1, false));
        assertFalse(T.reduceTwoShot(3, 128 << 10, false));     // (3-1) x 128K = 256K
        assertTrue(T.reduceTwoShot(3, (128 << 10) + 1, false));
        assertTrue(T.reduceTwoShot(2, 8, true));               // in place: always two-shot
        assertFalse(T.reduceTwoShot(1, Long.MAX_VALUE / 2, false));
        assertTrue(T.reduceTwoShot(64, Long.MAX_VALUE / 2, false));   // no overflow
        GpuCollectiveTuning never = new GpuCollectiveTuning(0, 0, 0, 0);
        assertTrue(never.reduceTwoShot(2, 1, false));
    }

    @Test
    void oneFusedBlockUpToItsLimitThenBlocksByWorkCappedBySms() {
        assertEquals(0, T.blocks(1, 132));
        assertEquals(0, T.blocks(32 << 10, 132));
        assertEquals(1, T.blocks((32 << 10) + 1, 132));
        assertEquals(2, T.blocks((64 << 10) + 1, 132));
        assertEquals(132, T.blocks(64L << 20, 132));
        assertEquals(264, new GpuCollectiveTuning(0, 0, 0, 264).blocks(64L << 20, 132));
        assertEquals(1, new GpuCollectiveTuning(0, 0, 0, 0).blocks(1, 132));
        assertEquals(1, T.blocks(1L << 40, 0));
    }

    @Test
    void copyEnginesFromTheirLimitPerPieceZeroMeaningNever() {
        assertFalse(T.copyEngine((8 << 20) - 1));
        assertTrue(T.copyEngine(8 << 20));
        assertFalse(new GpuCollectiveTuning(0, 0, 0, 0).copyEngine(Long.MAX_VALUE));
        assertTrue(new GpuCollectiveTuning(0, 0, 1, 0).copyEngine(1));
    }

    @Test
    void copyEngineLanesAreZeroForSmKernelsElseTheSettingsLanes() {
        GpuCollectiveTuning three = new GpuCollectiveTuning(0, 0, 8 << 20, 0, 4 << 20, 3, false, 0, 0);
        assertEquals(0, three.copyEngineLanes((8 << 20) - 1));
        assertEquals(3, three.copyEngineLanes(8 << 20));
        assertEquals(0, three.reduceScatterCopyEngineLanes((4 << 20) - 1));
        assertEquals(3, three.reduceScatterCopyEngineLanes(4 << 20));
        assertEquals(0, T.reduceScatterCopyEngineLanes(Long.MAX_VALUE));   // off by default
        // a two-shot all-reduce goes by its slices, bytes / members rounded up
        assertEquals(0, three.reduceCopyEngineLanes(2, (8 << 20) - 2));
        assertEquals(3, three.reduceCopyEngineLanes(2, (8 << 20) - 1));
        assertEquals(3, three.reduceCopyEngineLanes(4, 16 << 20));
        assertEquals(0, three.reduceCopyEngineLanes(1, Long.MAX_VALUE));   // a team of one copies
        assertTrue(three.describe().contains("pulled on 3 lanes"), three.describe());
        assertTrue(T.describe().contains("pushed on 1 lane;"), T.describe());
    }

    @Test
    void lowLatencyReductionsUpToTheirBytesOnTeamsOfTwoToEight() {
        GpuCollectiveTuning d = GpuCollectiveTuning.DEFAULT;
        assertEquals(GpuCollectiveTuning.LOW_LATENCY_LIMIT, d.reduceLowLatencyMax());
        assertTrue(d.reduceLowLatency(2, 8));
        assertTrue(d.reduceLowLatency(8, 4096));
        assertFalse(d.reduceLowLatency(2, 4097));
        assertFalse(d.reduceLowLatency(9, 8));    // more members than the lines have room for
        assertFalse(d.reduceLowLatency(1, 8));    // a team of one copies
        assertFalse(T.reduceLowLatency(2, 8));    // off in the four-threshold form
        GpuCollectiveTuning oneKb = new GpuCollectiveTuning(0, 0, 0, 0, 0, 1, true, 1024, 0);
        assertTrue(oneKb.reduceLowLatency(3, 1024));
        assertFalse(oneKb.reduceLowLatency(3, 1025));
        assertTrue(d.describe().contains("low-latency reductions up to 4096 B on up to 8 PEs"), d.describe());
        assertTrue(T.describe().contains("low-latency reductions never"), T.describe());
    }

    @Test
    void serviceKernelOffByDefaultAndItsWaitBounded() {
        assertEquals(0, GpuCollectiveTuning.DEFAULT.serviceMicros());
        assertTrue(GpuCollectiveTuning.DEFAULT.describe().contains("host-called ones launch their kernels"),
                GpuCollectiveTuning.DEFAULT.describe());
        GpuCollectiveTuning served = new GpuCollectiveTuning(0, 0, 0, 0, 0, 1, true, 1024, 0, 500);
        assertEquals(500, served.serviceMicros());
        assertTrue(served.describe().contains("small ones on a service kernel (returns after 500 us idle)"),
                served.describe());
        assertThrows(IllegalArgumentException.class, () -> new GpuCollectiveTuning(0, 0, 0, 0, 0, 1, true, 0, 0, -1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new GpuCollectiveTuning(0, 0, 0, 0, 0, 1, true, 0, 0, GpuCollectiveTuning.SERVICE_MICROS_LIMIT + 1));
        assertTrue(e.getMessage().contains("60000000 microseconds, not 60000001"), e.getMessage());
    }

    @Test
    void rejectsNegativeAndTooManyBlocks() {
        assertThrows(IllegalArgumentException.class, () -> new GpuCollectiveTuning(-1, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new GpuCollectiveTuning(0, 0, 0, 65536));
        assertThrows(IllegalArgumentException.class, () -> new GpuCollectiveTuning(0, 0, 0, 0, 0, 0, true, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new GpuCollectiveTuning(0, 0, 0, 0, 0, 9, true, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new GpuCollectiveTuning(0, 0, 0, 0, 0, 1, true, -1, 0));
        assertThrows(IllegalArgumentException.class, () -> new GpuCollectiveTuning(0, 0, 0, 0, 0, 1, true, 4097, 0));
        assertThrows(IllegalArgumentException.class, () -> new GpuCollectiveTuning(0, 0, 0, 0, 0, 1, true, 0, -1));
        assertTrue(T.describe().contains("one per SM"), T.describe());
    }

    @Test
    void membersOneAtATimeFromTheirBytesOnTeamsOfThreeOrMore() {
        GpuCollectiveTuning d = GpuCollectiveTuning.DEFAULT;
        assertEquals(4 << 20, d.reduceRotatedMin());
        assertTrue(d.reduceRotated(3, 4 << 20));
        assertTrue(d.reduceRotated(8, 64L << 20));
        assertFalse(d.reduceRotated(4, (4 << 20) - 1));
        assertFalse(d.reduceRotated(2, 64L << 20));   // two members: each reads the other only
        assertFalse(T.reduceRotated(4, Long.MAX_VALUE));   // off in the four-threshold form
        assertTrue(d.describe().contains("members one at a time from 4194304 B on 3+ PEs"), d.describe());
        assertTrue(T.describe().contains("members one at a time never"), T.describe());
    }
}
