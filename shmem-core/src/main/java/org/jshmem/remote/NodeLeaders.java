package org.jshmem.remote;

import java.util.function.IntConsumer;

/** The rank that takes each node's control words (its lowest PE), and this PE's node among them. */
record NodeLeaders(int[] leaders, int myNode) {
    NodeLeaders {
        leaders = leaders.clone();
    }

    /**
     * Runs {@code send} with the leader of every node but this PE's. A node that cannot be reached
     * does not keep the word from the others: the first failure is thrown after.
     */
    void toOtherNodes(IntConsumer send) {
        RuntimeException first = null;
        for (int node = 0; node < leaders.length; node++) {
            if (node != myNode) {
                try {
                    send.accept(leaders[node]);
                } catch (RuntimeException e) {   // that node's leader is gone: the other nodes still get the word
                    first = first == null ? e : first;
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
