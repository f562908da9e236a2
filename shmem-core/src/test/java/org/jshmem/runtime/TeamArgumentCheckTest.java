package org.jshmem.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The message of an allocation mismatch: what differed, each PE's call, how to fix it. */
class TeamArgumentCheckTest {

    @Test
    void peListsRunsAsRanges() {
        assertEquals("PE 3", TeamArgumentCheck.peList(List.of(3)));
        assertEquals("PEs 0, 1", TeamArgumentCheck.peList(List.of(0, 1)));
        assertEquals("PEs 0-2", TeamArgumentCheck.peList(List.of(0, 1, 2)));
        assertEquals("PEs 0, 2, 5-7, 9, 10", TeamArgumentCheck.peList(List.of(0, 2, 5, 6, 7, 9, 10)));
    }

    @Test
    void allocationMessageGroupsThePesByCall() {
        assertEquals("collective call mismatch: malloc was called with different arguments on different PEs:"
                + " malloc(1024) on PEs 0, 1, 3; malloc(2048) on PE 2. Every PE must make the same allocation calls (malloc, calloc, align, mallocWithHints, realloc, free)"
                + " in the same order with the same arguments; this call allocated and freed nothing.",
                TeamArgumentCheck.allocationMessage(new String[] {"malloc(1024)", "malloc(1024)", "malloc(2048)", "malloc(1024)"}));
        assertEquals("collective call mismatch: the PEs made different symmetric allocation calls: free(heap offset 0)"
                + " on PE 0; malloc(64) on PE 1. Every PE must make the same allocation calls (malloc, calloc, align,"
                + " mallocWithHints, realloc, free) in the same order with the same arguments; this call allocated and"
                + " freed nothing.", TeamArgumentCheck.allocationMessage(new String[] {"free(heap offset 0)", "malloc(64)"}));
    }
}
