package org.jshmem.spi;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.jshmem.BootstrapException;
import org.jshmem.ShmemConfig;
import org.jshmem.ShmemConfig.BackendKind;
import org.jshmem.bootstrap.Bootstrap;
import org.jshmem.node.NodeSharedMemory;

/**
 * Makes a {@link Backend}. Every backend (host included) registers its factory through
 * {@link ServiceLoader} ({@code META-INF/services/org.jshmem.spi.BackendFactory}, and
 * {@code provides} in a module) and says whether it can run here (as Netty's native transports
 * do); the SPI knows no backend by name.
 */
public interface BackendFactory {
    /** The kind this factory makes ({@code HOST}, {@code CUDA} or {@code HIP}). */
    BackendKind kind();

    /** Whether a driver and a device for this kind are present. */
    boolean isAvailable();

    /** Why {@link #isAvailable()} is false, or null. */
    String unavailabilityCause();

    /** Whether the heap lives in the node's shared-memory file (so it is sized there). */
    default boolean isHost() {
        return kind() == BackendKind.HOST;
    }

    /**
     * Whether its heaps work with PEs on other nodes (reached through the node's remote
     * transport). The core refuses, before touching memory, a job across nodes on a backend that
     * says no.
     */
    default boolean supportsRemotePeers() {
        return false;
    }

    /** Collective: sets up the heap of this kind on every PE. */
    Backend open(ShmemConfig config, Bootstrap boot, NodeSharedMemory node);

    /** The factory for {@code kind}: AUTO takes the first available kind other than host, else host. */
    static BackendFactory choose(BackendKind kind) {
        List<BackendFactory> all = new ArrayList<>();
        ServiceLoader.load(BackendFactory.class, BackendFactory.class.getClassLoader()).forEach(all::add);
        if (kind == BackendKind.AUTO) {
            for (BackendFactory f : all) {
                if (f.kind() != BackendKind.HOST && f.isAvailable()) {
                    return f;
                }
            }
            kind = BackendKind.HOST;
        }
        for (BackendFactory f : all) {
            if (f.kind() == kind) {
                if (!f.isAvailable()) {
                    throw new BootstrapException("JSHMEM_BACKEND=" + kind.name().toLowerCase() + " but it cannot run here: "
                            + f.unavailabilityCause() + ". Use JSHMEM_BACKEND=host (or auto) on machines without a GPU.");
                }
                return f;
            }
        }
        throw new BootstrapException("JSHMEM_BACKEND=" + kind.name().toLowerCase() + " but this build of jshmem has no "
                + kind.name().toLowerCase() + " backend. Use JSHMEM_BACKEND=host or auto.");
    }
}
