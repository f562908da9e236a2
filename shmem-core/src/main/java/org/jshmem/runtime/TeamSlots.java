package org.jshmem.runtime;

import static org.jshmem.node.ControlDescriptor.MAX_TEAMS;
import static org.jshmem.node.ControlDescriptor.SYNC_AUX;
import static org.jshmem.node.ControlDescriptor.USER_TEAMS;

import org.jshmem.ShmemException;
import org.jshmem.spi.TeamLayout;
import org.jshmem.node.NodeBarrier;

/**
 * This PE's team slots (0 .. MAX_TEAMS-1; 0 = world, 1 = node-shared, MAX_TEAMS-1 = close(): so
 * USER_TEAMS = 61 for split teams), and how the members of a
 * parent team agree on free slots for new teams: each publishes the mask of slots it has free in
 * its SYNC_AUX word of the parent's slot, they synchronise, and all take the lowest slots free
 * on every member. Disjoint teams made by one split (the x-teams of a 2D split) share a slot,
 * since a slot's cells are per PE.
 */
final class TeamSlots {
    private long busy = 0b11 | 1L << org.jshmem.node.ControlDescriptor.CLOSE_SLOT;   // world, node-shared, close()

    /**
     * Collective over {@code parent}: the {@code count} lowest slots free on every member of it.
     * The parent's SYNC_AUX word may be written again after the next sync of the parent.
     *
     * @throws ShmemException on every member if fewer than {@code count} slots are free everywhere
     */
    int[] agree(NodeBarrier barrier, TeamLayout parent, int count, String call) {
        long[] free = barrier.exchange(parent.slot(), parent.start(), parent.stride(), parent.size(), SYNC_AUX, ~busy, call);
        long common = -1L;
        for (long f : free) {
            common &= f;
        }
        int[] slots = new int[count];
        for (int i = 0; i < count; i++) {
            if (common == 0) {
                barrier.sync(parent.slot(), parent.start(), parent.stride(), parent.size(), call);
                throw new ShmemException(call + ": no free team slot: at most " + USER_TEAMS + " split teams can"
                        + " exist at once on a PE (jshmem keeps " + (MAX_TEAMS - USER_TEAMS) + " of its " + MAX_TEAMS
                        + " team slots, for world, shared and close()), and the members of the parent team have "
                        + Long.bitCount(~busy) + " free on this PE but " + Long.bitCount(andAll(free)) + " in common."
                        + " Destroy (close) teams you no longer need.");
            }
            slots[i] = Long.numberOfTrailingZeros(common);
            common &= common - 1;
        }
        return slots;
    }

    private static long andAll(long[] masks) {
        long m = -1L;
        for (long f : masks) {
            m &= f;
        }
        return m;
    }

    void take(int slot) {
        busy |= 1L << slot;
    }

    void release(int slot) {
        busy &= ~(1L << slot);
    }
}
