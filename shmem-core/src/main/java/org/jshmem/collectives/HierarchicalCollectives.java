package org.jshmem.collectives;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jshmem.DType;
import org.jshmem.ReduceOp;
import org.jshmem.node.NodeMap;
import org.jshmem.spi.Collectives;
import org.jshmem.spi.TeamLayout;

/**
 * Collectives of teams whose PEs are on several nodes, in two levels: the PEs of a node share
 * the work of moving data between nodes, so each piece crosses once per node rather than once per
 * PE, and the rest moves within nodes (shared memory). Built on {@link CopyCollectives}' moves (the
 * backend's copies, the remote transport's between nodes), which it uses as they are where a
 * hierarchy does not pay: a team on one node or with one PE per node, data below
 * {@code JSHMEM_COLL_HIERARCHY_MIN}, and alltoall and reduce-scatter, whose every block has one destination
 * (a two-level reduce-scatter would need symmetric scratch space for the node sums).
 *
 * <ul>
 * <li><b>broadcast</b>: each PE of a node other than the root's fetches a 1/k piece from the root,
 *     then the pieces of its node's other PEs from them.</li>
 * <li><b>fcollect, collect</b>: blocks of the node's PEs are copied within the node; the blocks of
 *     other nodes' PEs are dealt round the node's PEs, each fetching its share across nodes, then
 *     copied from the PE that fetched them.</li>
 * <li><b>reduce</b> of integers (floating-point ones stay in one level: a sum of node sums rounds
 *     differently from the sum in team order, FP16 and BF16 ones to 16 bits between the levels, and
 *     the result would depend on how the PEs sit on nodes): the vector is cut into K shards (K: the most team PEs any node has), shard s
 *     handled on each node by its PE s mod k. (1) Each handler reduces its shards over its node's
 *     PEs into its destination. (2) The handlers of a shard on the G nodes each reduce a 1/G part of
 *     it over the G node sums. (3) They gather the other parts from each other. (4) Every PE copies
 *     the shards it did not handle from its node's handler. Every element is reduced once, by one
 *     PE, so every PE gets the same result.</li>
 * </ul>
 * Every phase ends with a team synchronisation; with k PEs per node on G nodes, a PE moves
 * 1/k of what it moved with {@link CopyCollectives} between nodes, for two more synchronisations
 * (reduce) or one (broadcast, fcollect). Those synchronisations make small data slower than one
 * level; hence the default threshold of 1 MiB, measured by {@code scripts/remote/hierarchy-bench.sh}
 * (two "nodes" of one machine, docs/performance.md). What the levels are for, a node's network link
 * shared by its k PEs, needs separate machines to show.
 */
public final class HierarchicalCollectives implements Collectives {
    private final CopyCollectives flat;
    private final NodeMap nodes;
    private final long hierarchyMin;
    private final Map<TeamLayout, Groups> groups = new ConcurrentHashMap<>();

    /**
     * @param flat         the one-level collectives over the same backend, for what gains nothing from a hierarchy
     * @param nodes        which node each PE of the job is on
     * @param hierarchyMin bytes per PE from which the two levels run ({@code JSHMEM_COLL_HIERARCHY_MIN})
     */
    public HierarchicalCollectives(CopyCollectives flat, NodeMap nodes, long hierarchyMin) {
        this.flat = flat;
        this.nodes = nodes;
        this.hierarchyMin = hierarchyMin;
    }

    @Override
    public String describe() {
        return "two-level collectives across nodes from " + hierarchyMin + " B (broadcast, fcollect, collect,"
                + " integer reduce), over " + flat.describe();
    }

    /**
     * A team's PEs by node: {@code members[g]} the team indices on its g-th node (nodes in the order
     * their first team PE comes), this PE on node {@code mine} at place {@code rank}.
     */
    record Groups(int[][] members, int mine, int rank, int largest) {
        /** Whether two levels differ from one: several nodes, and several PEs on one of them. */
        boolean pays() {
            return members.length > 1 && largest > 1;
        }

        int[] myNode() {
            return members[mine];
        }
    }

    Groups groups(TeamLayout t) {
        return groups.computeIfAbsent(t, this::groupsOf);
    }

    private Groups groupsOf(TeamLayout t) {
        Map<Integer, List<Integer>> byNode = new LinkedHashMap<>();
        for (int i = 0; i < t.size(); i++) {
            byNode.computeIfAbsent(nodes.nodeOf(t.worldPe(i)), x -> new ArrayList<>()).add(i);
        }
        int[][] members = byNode.values().stream().map(l -> l.stream().mapToInt(Integer::intValue).toArray())
                .toArray(int[][]::new);
        int largest = 0;
        int mine = -1;
        int rank = -1;
        for (int g = 0; g < members.length; g++) {
            largest = Math.max(largest, members[g].length);
            for (int r = 0; r < members[g].length; r++) {
                if (members[g][r] == t.myIndex()) {
                    mine = g;
                    rank = r;
                }
            }
        }
        return new Groups(members, mine, rank, largest);
    }

    @Override
    public void sync(TeamLayout t) {
        flat.sync(t);
    }

    @Override
    public void sumScan(TeamLayout t, DType type, long dest, long src, long nelems, boolean inclusive) {
        flat.sumScan(t, type, dest, src, nelems, inclusive);
    }

    @Override
    public void alltoall(TeamLayout t, long dest, long src, long bytesPerPe) {
        flat.alltoall(t, dest, src, bytesPerPe);
    }

    @Override
    public void reduceScatter(TeamLayout t, ReduceOp op, DType type, long dest, long src, long nelemsPerPe) {
        flat.reduceScatter(t, op, type, dest, src, nelemsPerPe);
    }

    // ---------------------------------------------------------------- broadcast

    @Override
    public void broadcast(TeamLayout t, long dest, long src, long bytes, int root) {
        Groups g = groups(t);
        if (!g.pays() || bytes < hierarchyMin) {
            flat.broadcast(t, dest, src, bytes, root);
            return;
        }
        int me = t.myIndex();
        if (me == root && dest != src) {
            flat.copyIn(t, dest, root, src, bytes);
        }
        flat.sync(t, "Team.broadcast");
        int[] node = g.myNode();
        boolean rootsNode = nodes.isLocal(t.worldPe(root));
        int k = node.length;
        if (rootsNode) {
            if (me != root) {
                flat.copyIn(t, dest, root, src, bytes);
            }
        } else {
            long lo = Reducer.sliceStart(bytes, g.rank(), k);
            flat.copyIn(t, dest + lo, root, src + lo, Reducer.sliceStart(bytes, g.rank() + 1, k) - lo);
        }
        flat.sync(t, "Team.broadcast");
        if (!rootsNode) {
            for (int j = 1; j < k; j++) {
                int r = (g.rank() + j) % k;
                long lo = Reducer.sliceStart(bytes, r, k);
                flat.copyIn(t, dest + lo, node[r], dest + lo, Reducer.sliceStart(bytes, r + 1, k) - lo);
            }
        }
        flat.sync(t, "Team.broadcast");
    }

    // ---------------------------------------------------------------- fcollect, collect

    @Override
    public void fcollect(TeamLayout t, long dest, long src, long bytes) {
        Groups g = groups(t);
        if (!g.pays() || bytes < hierarchyMin) {
            flat.fcollect(t, dest, src, bytes);
            return;
        }
        long[] at = new long[t.size() + 1];
        for (int i = 0; i < t.size(); i++) {
            at[i + 1] = at[i] + bytes;
        }
        flat.sync(t, "Team.fcollect");
        gather(t, g, dest, at, src, "Team.fcollect");
    }

    /** With several PEs on a node of several: hierarchical if any member contributes {@code JSHMEM_COLL_HIERARCHY_MIN} or more. */
    @Override
    public long collect(TeamLayout t, long dest, long destCapacity, long src, long bytes) {
        Groups g = groups(t);
        if (!g.pays()) {
            return flat.collect(t, dest, destCapacity, src, bytes);
        }
        int n = t.size();
        long[] counts = flat.exchange(t, bytes, "Team.collect");
        long[] at = new long[n + 1];
        long largest = 0;
        for (int i = 0; i < n; i++) {
            at[i + 1] = at[i] + counts[i];
            largest = Math.max(largest, counts[i]);
        }
        if (at[n] > destCapacity) {
            flat.sync(t, "Team.collect");
            throw Collectives.collectTooSmall(counts, dest, destCapacity);
        }
        if (largest >= hierarchyMin) {
            gather(t, g, dest, at, src, "Team.collect");
        } else {
            flat.copyBlocks(t, dest, at, src);
            flat.sync(t, "Team.collect");
        }
        return at[n];
    }

    /**
     * After a synchronisation (every source written): team PE j's source, {@code at[j+1] - at[j]}
     * bytes, into {@code dest + at[j]} of every member.
     */
    private void gather(TeamLayout t, Groups g, long dest, long[] at, long src, String call) {
        int[] node = g.myNode();
        int k = node.length;
        int others = 0;                                        // blocks of other nodes' PEs, dealt round this node's PEs
        for (int j = 0; j < t.size(); j++) {
            if (nodes.isLocal(t.worldPe(j))) {
                flat.copyIn(t, dest + at[j], j, src, at[j + 1] - at[j]);
            } else if (others++ % k == g.rank()) {
                flat.copyIn(t, dest + at[j], j, src, at[j + 1] - at[j]);
            }
        }
        flat.sync(t, call);
        others = 0;
        for (int j = 0; j < t.size(); j++) {
            if (!nodes.isLocal(t.worldPe(j))) {
                int fetcher = others++ % k;
                if (fetcher != g.rank()) {
                    flat.copyIn(t, dest + at[j], node[fetcher], dest + at[j], at[j + 1] - at[j]);
                }
            }
        }
        flat.sync(t, call);
    }

    // ---------------------------------------------------------------- reduce

    @Override
    public void reduce(TeamLayout t, ReduceOp op, DType type, long dest, long src, long nelems) {
        Groups g = groups(t);
        int size = type.byteSize();
        if (!g.pays() || nelems * size < hierarchyMin || !type.isInteger()) {
            flat.reduce(t, op, type, dest, src, nelems);
            return;
        }
        Reducer r = Reducer.of(type, op);
        int[] node = g.myNode();
        int k = node.length;
        int shards = g.largest();
        int nodeCount = g.members().length;
        int part = g.mine();
        int myPe = t.myWorldPe();
        int[] mine = worldPes(t, node);
        int[] handlers = new int[nodeCount];
        flat.sync(t, "Team.reduce");
        for (int s = g.rank(); s < shards; s += k) {          // (1) node sums of this PE's shards
            long lo = Reducer.sliceStart(nelems, s, shards);
            long hi = Reducer.sliceStart(nelems, s + 1, shards);
            flat.reduceFrom(mine, myPe, r, size, src + lo * size, dest + lo * size, hi - lo);
        }
        flat.sync(t, "Team.reduce");
        for (int s = g.rank(); s < shards; s += k) {          // (2) this node's part of each, over the node sums
            handlers(t, g, s, handlers);
            long lo = Reducer.sliceStart(nelems, s, shards);
            long hi = Reducer.sliceStart(nelems, s + 1, shards);
            long a = lo + Reducer.sliceStart(hi - lo, part, nodeCount);
            long b = lo + Reducer.sliceStart(hi - lo, part + 1, nodeCount);
            flat.reduceFrom(handlers, myPe, r, size, dest + a * size, dest + a * size, b - a);
        }
        flat.sync(t, "Team.reduce");
        for (int s = g.rank(); s < shards; s += k) {          // (3) the other nodes' parts, from their handlers
            handlers(t, g, s, handlers);
            long lo = Reducer.sliceStart(nelems, s, shards);
            long hi = Reducer.sliceStart(nelems, s + 1, shards);
            for (int y = 1; y < nodeCount; y++) {
                int other = (part + y) % nodeCount;
                long a = lo + Reducer.sliceStart(hi - lo, other, nodeCount);
                long b = lo + Reducer.sliceStart(hi - lo, other + 1, nodeCount);
                flat.copyIn(t, dest + a * size, t.indexOf(handlers[other]), dest + a * size, (b - a) * size);
            }
        }
        flat.sync(t, "Team.reduce");
        for (int s = 0; s < shards; s++) {                     // (4) the shards of this node's other PEs
            if (s % k != g.rank()) {
                long lo = Reducer.sliceStart(nelems, s, shards);
                long hi = Reducer.sliceStart(nelems, s + 1, shards);
                flat.copyIn(t, dest + lo * size, node[s % k], dest + lo * size, (hi - lo) * size);
            }
        }
        flat.sync(t, "Team.reduce");
    }

    private static int[] worldPes(TeamLayout t, int[] indices) {
        int[] pes = new int[indices.length];
        for (int i = 0; i < pes.length; i++) {
            pes[i] = t.worldPe(indices[i]);
        }
        return pes;
    }

    /** The world PE handling shard s on each node of the team. */
    private static void handlers(TeamLayout t, Groups g, int s, int[] out) {
        for (int y = 0; y < out.length; y++) {
            int[] node = g.members()[y];
            out[y] = t.worldPe(node[s % node.length]);
        }
    }
}
