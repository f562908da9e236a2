package org.jshmem.host;

import org.jshmem.internal.Waiter;

/**
 * Host-side barrier among the PEs of a team, through the control block: each member publishes
 * the generation it reached in its own sync cell, then waits until every other member's cell
 * reaches it. Generations only grow, so back-to-back barriers need no reset and no second phase.
 * Used by every backend for host-called synchronisation.
 */
public final class NodeBarrier {
    private final NodeSharedMemory shm;
    private final Waiter waiter;
    private final long[] generation = new long[ControlDescriptor.MAX_TEAMS];

    public NodeBarrier(NodeSharedMemory shm, Waiter waiter) {
        this.shm = shm;
        this.waiter = waiter;
    }

    /**
     * Waits until every member of the team (world PEs {@code start + i*stride}, {@code i < size})
     * has called this for team slot {@code slot} as often as this PE.
     */
    public void sync(int slot, int start, int stride, int size, String waitingIn) {
        long g = ++generation[slot];
        shm.publishSyncGeneration(slot, g);
        int me = shm.myPe();
        for (int i = 0, pe = start; i < size; i++, pe += stride) {
            if (pe != me) {
                for (int n = 0; shm.syncGeneration(slot, pe) < g; ) {
                    n = waiter.idle(n, waitingIn);
                }
            }
        }
    }

    /**
     * Makes a team slot fresh for a new team: this PE's cell and count go back to zero. Every
     * member must call it, and then synchronise on a slot they already share, before using it.
     */
    public void reset(int slot) {
        generation[slot] = 0;
        shm.publishSyncGeneration(slot, 0);
    }
}
