package org.jshmem.host;

import org.jshmem.ShmemConfig;
import org.jshmem.ShmemConfig.BackendKind;
import org.jshmem.bootstrap.Bootstrap;
import org.jshmem.node.NodeSharedMemory;
import org.jshmem.spi.Backend;
import org.jshmem.spi.BackendFactory;

/** The host backend's factory, registered through {@link java.util.ServiceLoader}: always available. */
public final class HostBackendFactory implements BackendFactory {
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

    /** Yes: PEs of other nodes go through the node's remote transport. */
    @Override
    public boolean supportsRemotePeers() {
        return true;
    }

    @Override
    public Backend open(ShmemConfig config, Bootstrap boot, NodeSharedMemory node) {
        HostBackend host = new HostBackend(node, config.symmetricSize());
        if (config.prefault()) {
            host.prefault();   // JSHMEM_PREFAULT: first touches at init, not in the first put
        }
        return host;
    }
}
