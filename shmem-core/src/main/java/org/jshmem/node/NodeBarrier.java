package org.jshmem.node;

import org.jshmem.WaitTimeoutException;


/**
 * Host-side barrier among the PEs of a team, through the control block: each member publishes
 * the generation it reached in its own sync cell, then waits until every other member's cell
 * reaches it. Generations only grow, so back-to-back barriers need no reset and no second phase.
 * Used by every backend for host-called synchronisation.
 *
 * <p>A team is the world PEs {@code start + i * stride}, {@code i < size}, with a team slot
 * {@code 0 .. MAX_TEAMS-1} that no other team of its members uses at the same time.
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
     * Waits until every member of the team has called this for team slot {@code slot} as often
     * as this PE (since the team was {@linkplain #join joined}).
     */
    public void sync(int slot, int start, int stride, int size, String waitingIn) {
        long g = ++generation[slot];
        shm.publishSyncGeneration(slot, g);
        int me = shm.myPe();
        try {
            for (int i = 0, pe = start; i < size; i++, pe += stride) {
                if (pe != me) {
                    for (int n = 0; shm.syncGeneration(slot, pe) < g; ) {
                        n = waiter.idle(n, waitingIn, start, stride, size);
                    }
                }
            }
        } catch (WaitTimeoutException e) {
            throw Waiter.stuck(e, arrivals(slot, start, stride, size, g));
        }
    }

    /** Which members have reached synchronisation {@code g} of the slot, and which have not. */
    private String arrivals(int slot, int start, int stride, int size, long g) {
        java.util.List<Integer> arrived = new java.util.ArrayList<>();
        java.util.List<String> missing = new java.util.ArrayList<>();
        for (int i = 0, pe = start; i < size; i++, pe += stride) {
            long reached = shm.syncGeneration(slot, pe);
            if (reached >= g) {
                arrived.add(pe);
            } else {
                missing.add(pe + " (" + (g - reached) + " behind)");
            }
        }
        return "a synchronisation of the team of world PEs " + start + ", stride " + stride + ", size " + size
                + " (slot " + slot + "); PEs " + arrived + " have reached it, PEs " + missing
                + " have not: they are in another call, or called a different one";
    }

    /** The generation the next {@link #sync} of {@code slot} will publish. */
    public long nextGeneration(int slot) {
        return generation[slot] + 1;
    }

    /**
     * Shares one word with the team: writes {@code value} into this PE's {@code field}
     * ({@link ControlDescriptor#SYNC_AUX}), synchronises,
     * and returns every member's word in team order. A member may write the field again only
     * after a further {@link #sync} of the team (by then every member has read it).
     */
    public long[] exchange(int slot, int start, int stride, int size, long field, long value, String waitingIn) {
        shm.publishSyncWord(slot, field, value);
        sync(slot, start, stride, size, waitingIn);
        long[] all = new long[size];
        for (int i = 0, pe = start; i < size; i++, pe += stride) {
            all[i] = shm.syncWord(slot, pe, field);
        }
        return all;
    }

    /**
     * Like {@link #exchange}, for argument checks: the word goes into one of the two
     * {@link ControlDescriptor#SYNC_CHECK} words, chosen by the parity of the generation this
     * synchronisation reaches, so that a member may share a check word again at its very next
     * synchronisation of the team: every member reads this word before it publishes the next
     * generation, and the next-but-one, which reuses the word, waits for that.
     */
    public long[] exchangeCheck(int slot, int start, int stride, int size, long value, String waitingIn) {
        long field = ControlDescriptor.SYNC_CHECK + (nextGeneration(slot) & 1) * Long.BYTES;
        return exchange(slot, start, stride, size, field, value, waitingIn);
    }

    /**
     * Makes team slot {@code slot} ready for a new team with these members: every member starts
     * from the highest generation any of them has reached in the slot (cells are never lowered,
     * so a PE still reading a cell for the slot's previous team waits correctly). Every member
     * calls it, while none of them uses the slot, and then synchronises on a team they already
     * share (the parent) before the first {@link #sync} of the new team.
     */
    public void join(int slot, int start, int stride, int size) {
        long g = 0;
        for (int i = 0, pe = start; i < size; i++, pe += stride) {
            g = Math.max(g, shm.syncGeneration(slot, pe));
        }
        generation[slot] = g;
        shm.publishSyncGeneration(slot, g);
    }
}
