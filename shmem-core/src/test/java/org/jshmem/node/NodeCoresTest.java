package org.jshmem.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class NodeCoresTest {
    @Test
    void cpuLists() {
        assertEquals(4, NodeCores.parseCpuList("0-3\n"));
        assertEquals(7, NodeCores.parseCpuList("0-3,8,10-11"));
        assertEquals(1, NodeCores.parseCpuList("0"));
        assertEquals(0, NodeCores.parseCpuList("junk"));
        assertEquals(0, NodeCores.parseCpuList(null));
    }

    @Test
    void cgroupQuotas() {
        assertEquals(0, NodeCores.cgroupQuota("max 100000\n"));
        assertEquals(2, NodeCores.cgroupQuota("200000 100000"));
        assertEquals(2, NodeCores.cgroupQuota("150000 100000"));
        assertEquals(1, NodeCores.cgroupQuota("1000 100000"));
        assertEquals(0, NodeCores.cgroupQuota(null));
    }

    @Test
    void atLeastThisProcessesCpus() {
        assertTrue(NodeCores.count() >= 1);
    }
}
