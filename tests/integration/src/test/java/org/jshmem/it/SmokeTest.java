package org.jshmem.it;

import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * One 2-PE job per way PEs reach each other: host shared memory, the remote transport one-sided and
 * two-sided, and the bootstrap through libmpi without the Java bindings. {@code scripts/test.sh --quick}
 * runs these alone (tag "smoke"); the full suite runs them beside the rest.
 */
@Tag("smoke")
class SmokeTest {
    @Test
    void everyApiCallOnSharedMemory() {
        ApiTest.assertEveryCallRight(MpiJob.of(2, ApiProgram.class).env("JSHMEM_SYMMETRIC_SIZE", "40m")
                .timeout(Duration.ofSeconds(120)).run(), 2);
    }

    @Test
    void remoteTransportOneSided() {
        RemoteTransportTest.assertKeepsOpenShmemSemantics(2, "remote");
    }

    @Test
    void remoteTransportTwoSided() {
        RemoteTransportTest.assertKeepsOpenShmemSemantics(2, "remote-messages");
    }

    @Test
    void bootstrapThroughLibmpi() {
        MpiNativeBootstrapTest.assertApiWithoutMpiJar(2);
    }
}
