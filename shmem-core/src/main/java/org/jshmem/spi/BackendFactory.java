package org.jshmem.spi;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.jshmem.BootstrapException;
import org.jshmem.ShmemConfig;
import org.jshmem.ShmemConfig.BackendKind;
import org.jshmem.bootstrap.Bootstrap;
import org.jshmem.host.HostBackend;
import org.jshmem.host.NodeSharedMemory;

/**
 * Makes a {@link Backend}. The host backend is built in; GPU backends register through
 * {@link ServiceLoader} and say whether they can run here (as Netty's native transports do).
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

    /** Collective: sets up the heap of this kind on every PE. */
    Backend open(ShmemConfig config, Bootstrap boot, NodeSharedMemory node);

    /** The factory for {@code kind}: AUTO takes the first available GPU kind, else host. */
    static BackendFactory choose(BackendKind kind) {
        if (kind == BackendKind.HOST) {
            return HOST;
        }
        List<BackendFactory> gpus = new ArrayList<>();
        ServiceLoader.load(BackendFactory.class, BackendFactory.class.getClassLoader()).forEach(gpus::add);
        if (kind == BackendKind.AUTO) {
            for (BackendFactory f : gpus) {
                if (f.isAvailable()) {
                    return f;
                }
            }
            return HOST;
        }
        for (BackendFactory f : gpus) {
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

    /** The built-in host backend's factory. */
    BackendFactory HOST = new BackendFactory() {
        @Override
        public BackendKind kind() {
            return BackendKind.HOST;
        }

        @Override
        public boolean isAvailable() {
            return true;
        }

        @Override
        public String unavailabilityCause() {
            return null;
        }

        @Override
        public Backend open(ShmemConfig config, Bootstrap boot, NodeSharedMemory node) {
            HostBackend host = new HostBackend(node, config.symmetricSize());
            if (config.prefault()) {
                host.prefault();
            }
            return host;
        }
    };
}
