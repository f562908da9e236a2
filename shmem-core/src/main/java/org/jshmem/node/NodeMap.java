package org.jshmem.node;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jshmem.BootstrapException;
import org.jshmem.ShmemConfig.RemoteSettings;
import org.jshmem.ShmemConfig.TransportKind;
import org.jshmem.bootstrap.Bootstrap;

/**
 * Which node each PE runs on: PEs of one node share memory (the node's shared-memory file), PEs
 * of different nodes reach each other through the remote transport. Nodes are numbered 0, 1, ...
 * in the order of their lowest PE; a node's PEs keep their world order, and a PE's index among
 * them places its heap in the node's file.
 *
 * <p>Where it comes from ({@link #of}): the machines' host names; {@code JSHMEM_NODE_OF_RANK}
 * (node ids of one's choosing, which must not put PEs of two machines on one node); or
 * {@code JSHMEM_TRANSPORT=remote}, a node per PE.
 */
public final class NodeMap {
    private final int me;
    private final int[] nodeOf;
    private final int[] indexOnNode;
    private final int[] leaders;
    private final int[] localPes;

    private NodeMap(int[] ids, int me) {
        this.me = me;
        int n = ids.length;
        nodeOf = new int[n];
        indexOnNode = new int[n];
        List<Integer> firstIds = new ArrayList<>();
        List<Integer> leaderList = new ArrayList<>();
        List<Integer> counts = new ArrayList<>();
        for (int pe = 0; pe < n; pe++) {
            int node = firstIds.indexOf(ids[pe]);
            if (node < 0) {
                node = firstIds.size();
                firstIds.add(ids[pe]);
                leaderList.add(pe);
                counts.add(0);
            }
            nodeOf[pe] = node;
            indexOnNode[pe] = counts.get(node);
            counts.set(node, counts.get(node) + 1);
        }
        leaders = leaderList.stream().mapToInt(Integer::intValue).toArray();
        localPes = java.util.stream.IntStream.range(0, n).filter(pe -> nodeOf[pe] == nodeOf[me]).toArray();
    }

    /** The map of node ids {@code ids} (any non-negative numbers, one per PE) seen from PE {@code me}. */
    public static NodeMap of(int[] ids, int me) {
        return new NodeMap(ids.clone(), me);
    }

    /** One node holding every PE of a job of {@code nPes}: the single-node job. */
    public static NodeMap singleNode(int nPes, int me) {
        return new NodeMap(new int[nPes], me);
    }

    /**
     * Collective: the job's map from the settings and the machines the PEs run on (their host
     * names, exchanged through {@code boot}).
     *
     * @throws BootstrapException if {@code JSHMEM_NODE_OF_RANK} does not give one id per rank, or
     *                            puts ranks of different machines on one node
     */
    public static NodeMap of(RemoteSettings settings, Bootstrap boot) {
        int n = boot.size();
        String[] hosts = hostNames(boot);
        int[] machine = new int[n];
        for (int pe = 0; pe < n; pe++) {
            machine[pe] = Arrays.asList(hosts).indexOf(hosts[pe]);
        }
        if (settings.transport() == TransportKind.REMOTE) {
            return new NodeMap(java.util.stream.IntStream.range(0, n).toArray(), boot.rank());
        }
        List<Integer> given = settings.nodeOfRank();
        if (given.isEmpty()) {
            return new NodeMap(machine, boot.rank());
        }
        if (given.size() != n) {
            throw new BootstrapException("JSHMEM_NODE_OF_RANK gives " + given.size() + " node id" + (given.size() == 1 ? "" : "s")
                    + " (" + join(given) + ") but the job has " + n + " PEs: give one node id per rank, in rank order,"
                    + " e.g. JSHMEM_NODE_OF_RANK=" + example(n) + ", or unset it to take the nodes from the host names.");
        }
        int[] ids = given.stream().mapToInt(Integer::intValue).toArray();
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++) {
                if (ids[a] == ids[b] && machine[a] != machine[b]) {
                    throw new BootstrapException("JSHMEM_NODE_OF_RANK=" + join(given) + " puts ranks " + a + " and " + b
                            + " on node " + ids[a] + ", but they run on different machines (" + hosts[a] + " and " + hosts[b]
                            + "): ranks of one node id share memory, so they must run on one machine. Give them"
                            + " different node ids.");
                }
            }
        }
        return new NodeMap(ids, boot.rank());
    }

    private static String[] hostNames(Bootstrap boot) {
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            host = System.getenv().getOrDefault("HOSTNAME", "localhost");
        }
        return NodeSharedMemory.exchange(boot, host);
    }

    private static String join(List<Integer> ids) {
        return String.join(",", ids.stream().map(String::valueOf).toList());
    }

    private static String example(int n) {
        int[] ids = new int[n];
        for (int pe = 0; pe < n; pe++) {
            ids[pe] = pe * 2 / Math.max(n, 1);
        }
        return String.join(",", Arrays.stream(ids).mapToObj(String::valueOf).toList());
    }

    /** PEs in the job. */
    public int nPes() {
        return nodeOf.length;
    }

    /** Nodes in the job. */
    public int nodes() {
        return leaders.length;
    }

    /** Whether the job has PEs on more than one node (then the remote transport runs). */
    public boolean spansNodes() {
        return leaders.length > 1;
    }

    /** The node of PE {@code pe}. */
    public int nodeOf(int pe) {
        return nodeOf[pe];
    }

    /** This PE's node. */
    public int myNode() {
        return nodeOf[me];
    }

    /** Whether PE {@code pe} shares this PE's node (and so its memory). */
    public boolean isLocal(int pe) {
        return nodeOf[pe] == nodeOf[me];
    }

    /** PE {@code pe}'s place among its node's PEs, which places its heap in its node's file. */
    public int indexOnNode(int pe) {
        return indexOnNode[pe];
    }

    /** The lowest PE of node {@code node}: it creates the node's file, and takes the node's control words from other nodes. */
    public int leader(int node) {
        return leaders[node];
    }

    /** The PEs of this PE's node, in world order. */
    public int[] localPes() {
        return localPes.clone();
    }

    /** How many PEs this PE's node has. */
    public int localCount() {
        return localPes.length;
    }

    @Override
    public String toString() {
        return nodes() + " node" + (nodes() == 1 ? "" : "s") + " " + Arrays.toString(nodeOf);
    }
}
