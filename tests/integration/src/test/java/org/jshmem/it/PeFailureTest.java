package org.jshmem.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A PE that dies while the others wait for it, under {@code mpirun --enable-recovery} so that
 * mpirun itself does not end the survivors: jshmem must. They must stop with a PeFailedException
 * naming the dead PE, whether they wait in a barrier or in a waitUntil; the whole job must end
 * within 20 seconds (the job's timeout); and no shared-memory file of the job may be left. The
 * same with the dead PE on another node (the remote transport, forced on this machine).
 */
// the survivors must name the dead PE within the job's timeout: alone, so that other jobs do not slow them
@Isolated
class PeFailureTest {

    @ParameterizedTest(name = "{0} PEs, PE {2} {1}")
    @CsvSource({"4, kill9, 3", "3, kill9, 1", "2, kill9, 0", "3, throw, 2", "3, closeEarly, 1", "2, closeEarly, 1"})
    void survivorsStopNamingTheDeadPe(int n, String how, int victim) {
        JobResult r = MpiJob.of(n, KillProgram.class).args(how, Integer.toString(victim)).mpirun("--enable-recovery")
                .env("JSHMEM_SYMMETRIC_SIZE", "8M").timeout(Duration.ofSeconds(20)).run();
        assertFalse(r.timedOut(), () -> "the survivors did not stop within 20 s: " + r);
        String death = switch (how) {
            case "kill9" -> "PE " + victim + " died (its process " + r.longValue(victim, "pid") + " is gone: killed or crashed)";
            case "throw" -> "PE " + victim + " exited with an error";
            default -> "PE " + victim + " is closing jshmem (in close()), so it will not take part in this call:"
                    + " the PEs made different calls";
        };
        for (int pe = 0; pe < n; pe++) {
            if (pe == victim) {
                assertFalse(r.reports(pe).containsKey("failed"), "the victim got no further");
                continue;
            }
            String waitingIn = pe == 0 ? "barrierAll" : "waitUntilLong";
            String failed = r.value(pe, "failed");
            assertTrue(failed.startsWith(death + ", while PE " + pe + " was waiting in " + waitingIn + "."),
                    "PE " + pe + ": " + failed);
            assertTrue(failed.contains("look at the output of PE " + victim), failed);
            assertEquals(List.of(victim).toString(), r.value(pe, "failedPes"), "PE " + pe);
            String close = r.value(pe, "close");
            if (how.equals("closeEarly")) {
                assertEquals("no exception", close, "PE " + pe + " closes with the PE that closed early");
            } else {
                assertTrue(close.startsWith("PeFailedException | ") && close.contains(death), "PE " + pe + " close: " + close);
            }
        }
        for (int pe = 0; pe < n; pe++) {
            assertEquals(List.of(), ShmFiles.ofJob(ShmFiles.DEFAULT_DIR, r.longValue(pe, "pid")), "files left");
        }
    }

    /**
     * A PE killed while its peers on other nodes wait for it. The survivors' barrier and heartbeat
     * puts to it never return inside Open MPI (it retries them forever), so each survivor must end
     * either with the PeFailedException of its wait or through the {@code RemoteWatchdog}'s report,
     * both naming the dead PE: "on another node stopped answering" for a PE of another node, "died"
     * for one of its own node. The job must end within 60 seconds: a heartbeat silence of 5 s
     * names a remote PE, and a call stuck that long then ends its PE.
     */
    @ParameterizedTest(name = "{0} PEs, {1}, PE {2} killed")
    @CsvSource({"3, remote, 1", "2, remote, 0", "4, two-nodes, 2", "3, remote-messages, 1"})
    @Tag("host-heap")   // on host heaps whatever the suite's backend: the GPU suite leaves it to CI
    void survivorsOnOtherNodesStopNamingTheDeadPe(int n, String mode, int victim) {
        MpiJob job = MpiJob.of(n, KillProgram.class).args("kill9", Integer.toString(victim)).mpirun("--enable-recovery")
                .env("JSHMEM_SYMMETRIC_SIZE", "8M").timeout(Duration.ofSeconds(60));
        MpiJob.transportEnv(mode, n).forEach(job::env);
        job.env("JSHMEM_BACKEND", "host");   // the transport's failure handling, on host heaps
        JobResult r = job.run();
        assertFalse(r.timedOut(), () -> "the survivors did not stop within 60 s: " + r);
        for (int pe = 0; pe < n; pe++) {
            if (pe == victim) {
                continue;
            }
            boolean sameNode = mode.startsWith("two-nodes") && pe * 2 / n == victim * 2 / n;   // as transportEnv splits them
            String death = sameNode
                    ? "PE " + victim + " died (its process " + r.longValue(victim, "pid") + " is gone"
                    : "PE " + victim + " on another node stopped answering";
            String failed = r.reports(pe).get("failed");
            String out = r.peOutput().get(pe);
            String ended = out.lines().filter(l -> l.startsWith("jshmem: org.jshmem.PeFailedException: ")).findFirst()
                    .orElse(null);
            if (failed != null) {
                assertTrue(failed.contains(death), "PE " + pe + " failed with: " + failed);
            } else {
                assertTrue(ended != null, "PE " + pe + " neither reported the failure nor was ended by the watchdog: " + r);
                assertTrue(ended.contains(death) && ended.contains("ends here (exit code 1)"), "PE " + pe + ": " + ended);
            }
        }
        for (int pe = 0; pe < n; pe++) {
            assertEquals(List.of(), ShmFiles.ofJob(ShmFiles.DEFAULT_DIR, r.longValue(pe, "pid")), "files left");
        }
    }
}
