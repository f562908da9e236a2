package org.jshmem.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad settings of the remote transport, named before any memory is touched, and the one backend
 * it does not carry yet. (A PE of another node that dies: {@link PeFailureTest}.)
 */
class RemoteSettingsTest {

    @Test
    void badNodeOfRankIsNamedBeforeAnyMemoryIsTouched() {
        JobResult wrongCount = MpiJob.of(3, InitProgram.class).env("JSHMEM_NODE_OF_RANK", "0,1").run();
        assertFalse(wrongCount.succeeded());
        assertTrue(wrongCount.output().contains("JSHMEM_NODE_OF_RANK gives 2 node ids (0,1) but the job has 3 PEs: give one"
                + " node id per rank, in rank order, e.g. JSHMEM_NODE_OF_RANK=0,0,1"), wrongCount::toString);
        JobResult notANumber = MpiJob.of(2, InitProgram.class).env("JSHMEM_NODE_OF_RANK", "0,x").run();
        assertFalse(notANumber.succeeded());
        assertTrue(notANumber.output().contains("JSHMEM_NODE_OF_RANK=0,x is invalid: entry 1 (for rank 1) is 'x', not a node id"),
                notANumber::toString);
        JobResult badTransport = MpiJob.of(2, InitProgram.class).env("JSHMEM_TRANSPORT", "rdma").run();
        assertFalse(badTransport.succeeded());
        assertTrue(badTransport.output().contains("JSHMEM_TRANSPORT=rdma is invalid: expected one of auto, remote"),
                badTransport::toString);
        JobResult badProtocol = MpiJob.of(2, InitProgram.class).env("JSHMEM_TRANSPORT", "remote")
                .env("JSHMEM_REMOTE_PROTOCOL", "ucx").run();
        assertFalse(badProtocol.succeeded());
        assertTrue(badProtocol.output().contains("JSHMEM_REMOTE_PROTOCOL=ucx is invalid: expected one of auto, rma, messages"),
                badProtocol::toString);
        // all four stop before the node's file exists (settings are read, and the node map made, first);
        // HygieneTest watches the shared-memory directory as a whole
    }

    /**
     * An MPI whose one-sided layer cannot make a window over jshmem's memory (as on the GPU machine's
     * Open MPI; here by leaving it only osc/sm, which serves windows MPI allocates), with the one-sided
     * protocol asked for: jshmem's error names the call and the way out, instead of MPI aborting the
     * job, and the node's file is gone.
     */
    @Test
    void anMpiThatCannotMakeTheWindowIsNamedWithTheWayOut(@TempDir Path tmp) throws IOException {
        Path shm = Files.createDirectories(tmp.resolve("shm"));
        JobResult r = MpiJob.of(2, InitProgram.class).env("JSHMEM_TRANSPORT", "remote").env("JSHMEM_BACKEND", "host")
                .env("JSHMEM_REMOTE_PROTOCOL", "rma").env("OMPI_MCA_osc", "sm").env("JSHMEM_SHM_DIR", shm.toString())
                .env("JSHMEM_SYMMETRIC_SIZE", "4M").run();
        assertFalse(r.succeeded());
        assertTrue(r.output().contains("the remote transport (PEs on other nodes, or JSHMEM_TRANSPORT / JSHMEM_NODE_OF_RANK)"
                + " could not create its MPI window: MPI_Win_create of"), r::toString);
        assertTrue(r.output().contains("`ompi_info | grep osc` lists what is built"), r::toString);
        assertFalse(r.output().contains("MPI_ERRORS_ARE_FATAL"), () -> "jshmem reports it, MPI does not abort: " + r);
        try (Stream<Path> left = Files.list(shm)) {
            assertEquals(List.of(), left.toList(), "files left in the shm directory");
        }
    }

    /** The same MPI with the default protocol: the PEs find that no window can be made and take two-sided requests. */
    @Test
    void anMpiThatCannotMakeTheWindowCarriesTheTransportOnMessages() {
        JobResult r = MpiJob.of(3, InitProgram.class).env("JSHMEM_TRANSPORT", "remote").env("JSHMEM_BACKEND", "host")
                .env("OMPI_MCA_osc", "sm").env("JSHMEM_SYMMETRIC_SIZE", "4M").run();
        assertTrue(r.succeeded(), r::toString);
        for (int pe = 0; pe < 3; pe++) {
            String describe = r.value(pe, "describe");
            assertTrue(describe.startsWith("host shared memory, MPI two-sided requests across 3 nodes (remote transport)"),
                    "PE " + pe + ": " + describe);
        }
    }

    /**
     * GPU heaps across nodes ride on the two-sided protocol: asking for one-sided windows with a GPU
     * heap stops at init, before any memory is touched, saying what to set. On a GPU machine only:
     * without one, the cuda backend stops earlier.
     */
    @Test
    @Tag("gpu")
    void gpuHeapAcrossNodesOnOneSidedWindowsIsRefusedWithTheWayOut() {
        JobResult r = MpiJob.of(2, InitProgram.class).env("JSHMEM_TRANSPORT", "remote").env("JSHMEM_BACKEND", "cuda")
                .env("JSHMEM_REMOTE_PROTOCOL", "rma").run();
        assertFalse(r.succeeded());
        assertTrue(r.output().contains("GPU heaps with PEs on other nodes (2 nodes: JSHMEM_TRANSPORT=remote or"
                + " JSHMEM_NODE_OF_RANK makes peers remote) need the remote transport's two-sided protocol, but"
                + " JSHMEM_REMOTE_PROTOCOL=rma asks for MPI one-sided windows, which cannot reach GPU memory. Unset"
                + " JSHMEM_REMOTE_PROTOCOL (auto takes the two-sided protocol for GPU heaps) or set it to messages."),
                r::toString);
    }

    /** A GPU heap across two "nodes" on the default protocol: it starts, on two-sided requests. */
    @Test
    @Tag("gpu")
    void gpuHeapAcrossNodesStartsOnTwoSidedRequests() {
        JobResult r = MpiJob.of(2, InitProgram.class).env("JSHMEM_TRANSPORT", "remote").env("JSHMEM_BACKEND", "cuda").run();
        assertTrue(r.succeeded(), r::toString);
        for (int pe = 0; pe < 2; pe++) {
            assertTrue(r.value(pe, "describe").contains("GPU memory on")
                    && r.value(pe, "describe").contains("MPI two-sided requests across 2 nodes (remote transport)"),
                    () -> r.toString());
        }
    }
}
