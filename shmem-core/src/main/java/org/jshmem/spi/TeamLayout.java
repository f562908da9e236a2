package org.jshmem.spi;

import org.jshmem.node.NodeMap;

/**
 * A team as the algorithms see it, the same shape as the device-side {@code jshmem_team_desc_t}:
 * the world PEs {@code start + i * stride} for {@code i < size} (member {@code i} is team PE
 * {@code i}), synchronising through team slot {@code slot} (0 = world, 1 = node-shared).
 *
 * @param myIndex this PE's number in the team
 */
public record TeamLayout(int start, int stride, int size, int slot, int myIndex) {

    public TeamLayout {
        if (size < 1 || start < 0 || stride < 1 || myIndex < 0 || myIndex >= size) {
            throw new IllegalArgumentException("bad team layout: start " + start + ", stride " + stride + ", size " + size
                    + ", my index " + myIndex);
        }
    }

    /**
     * The node-shared team (slot 1) of {@code myPe}: the PEs of its node, when they are evenly
     * spaced in world numbering (a team is a strided range); else {@code myPe} alone.
     */
    public static TeamLayout shared(NodeMap nodes, int myPe) {
        int[] local = nodes.localPes();
        int stride = local.length > 1 ? local[1] - local[0] : 1;
        for (int i = 1; i < local.length; i++) {
            if (local[i] - local[i - 1] != stride) {
                return new TeamLayout(myPe, 1, 1, 1, 0);
            }
        }
        return new TeamLayout(local[0], stride, local.length, 1, (myPe - local[0]) / stride);
    }

    /** The world PE of team PE {@code index}. */
    public int worldPe(int index) {
        return start + index * stride;
    }

    /** This PE's world PE number. */
    public int myWorldPe() {
        return worldPe(myIndex);
    }

    /** The team PE number of world PE {@code worldPe}, or -1 if it is not a member. */
    public int indexOf(int worldPe) {
        int d = worldPe - start;
        if (d < 0 || d % stride != 0 || d / stride >= size) {
            return -1;
        }
        return d / stride;
    }

    @Override
    public String toString() {
        return "start " + start + ", stride " + stride + ", size " + size + ", slot " + slot;
    }
}
