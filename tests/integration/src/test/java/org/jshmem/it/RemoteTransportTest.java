package org.jshmem.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The remote transport on real jobs of 2 to 4 PEs of this machine, in both test modes: every peer
 * remote ({@code JSHMEM_TRANSPORT=remote}) and two "nodes" ({@code JSHMEM_NODE_OF_RANK}), on both
 * protocols (one-sided, and two-sided requests: {@code -messages}), with
 * {@link RemoteProgram}: ptr only within a node, a target spinning outside jshmem seeing remote
 * atomics, no lost atomic updates under contention of local and remote PEs, signals after data,
 * fences. (The API suite itself runs on the transport too: {@link ApiTest}.)
 */
class RemoteTransportTest {

    @ParameterizedTest(name = "{0} PEs, {1}")
    @CsvSource({"2, remote", "3, remote", "4, remote", "3, two-nodes", "4, two-nodes",
            "2, remote-messages", "3, remote-messages", "4, two-nodes-messages"})
    void remoteTransportKeepsOpenShmemSemantics(int n, String mode) {
        assertKeepsOpenShmemSemantics(n, mode);
    }

    /** Runs {@link RemoteProgram} on {@code n} PEs in transport {@code mode} and checks every report. */
    static void assertKeepsOpenShmemSemantics(int n, String mode) {
        MpiJob job = MpiJob.of(n, RemoteProgram.class).env("JSHMEM_SYMMETRIC_SIZE", "16M").timeout(Duration.ofSeconds(120));
        MpiJob.transportEnv(mode, n).forEach(job::env);
        job.env("JSHMEM_BACKEND", "host");   // the transport's semantics on host heaps (ptr within a node)
        JobResult r = job.run();
        assertTrue(r.succeeded(), r::toString);
        int[] node = new int[n];
        for (int pe = 0; pe < n; pe++) {
            node[pe] = mode.startsWith("remote") ? pe : pe * 2 / n;
        }
        for (int pe = 0; pe < n; pe++) {
            String describe = r.value(pe, "describe");
            String across = " across " + (mode.startsWith("remote") ? n : 2) + " nodes (remote transport)";
            assertTrue(mode.endsWith("-messages") ? describe.contains("MPI two-sided requests" + across)
                    : describe.contains("MPI one-sided" + across) || describe.contains("MPI two-sided requests" + across),
                    describe);   // the default protocol is two-sided where MPI cannot make the windows
            StringBuilder ptr = new StringBuilder();
            int sameNode = 0;
            for (int q = 0; q < n; q++) {
                ptr.append(node[q] == node[pe] ? 'y' : 'n');
                sameNode += node[q] == node[pe] ? 1 : 0;
            }
            assertEquals(ptr.toString(), r.value(pe, "ptr"), "PE " + pe + ": ptr present exactly for the PEs of its node");
            assertEquals(Integer.toString(sameNode), r.value(pe, "sharedTeam"), "PE " + pe + ": the shared team is its node");
            assertEquals("0", r.value(pe, "signalDataMismatches"), "PE " + pe + ": data seen with its signal");
            assertEquals("returned", r.value(pe, "emptyStrided"), "PE " + pe + ": strided put and get of no elements");
            assertEquals("yes", r.value(pe, "done"));
        }
        assertEquals("3", r.value(0, "spinSawAtomics"), "remote add and compare-and-swap seen by a PE spinning outside jshmem");
        assertEquals("1", r.value(0, "spinCasOld"));
        assertEquals(Long.toString((long) n * RemoteProgram.ADDS), r.value(0, "sumAdds"), "no lost fetch_add");
        assertEquals(Long.toString((long) n * RemoteProgram.ADDS), r.value(0, "sumIntAdds"), "no lost int add");
        assertEquals(Long.toString((long) n * RemoteProgram.ADDS / 10), r.value(0, "sumCas"), "no lost compare-and-swap");
        assertEquals(r.value(0, "intCasExpected"), r.value(0, "sumIntCas"), "no lost int compare-and-swap");
        assertEquals("0", r.value(0, "fenceViolations"), "a put after a fence never seen before the put before it");
        for (int pe = 0; pe < n; pe++) {
            assertEquals(java.util.List.of(), ShmFiles.ofJob(ShmFiles.DEFAULT_DIR, r.longValue(pe, "pid")), "files left");
        }
    }
}
