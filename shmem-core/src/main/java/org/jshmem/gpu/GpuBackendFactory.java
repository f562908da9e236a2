package org.jshmem.gpu;

import org.jshmem.ShmemConfig;
import org.jshmem.ShmemConfig.BackendKind;
import org.jshmem.bootstrap.Bootstrap;
import org.jshmem.node.NodeSharedMemory;
import org.jshmem.spi.Backend;
import org.jshmem.spi.BackendFactory;
import org.jshmem.gpu.shim.ShimPlatform;

/** The GPU backends, registered through {@link java.util.ServiceLoader}: one for CUDA, one for HIP. */
public abstract class GpuBackendFactory implements BackendFactory {
    private final BackendKind kind;
    private final String platform;
    private String cause;
    private boolean probed;

    GpuBackendFactory(BackendKind kind, String platform) {
        this.kind = kind;
        this.platform = platform;
    }

    @Override
    public BackendKind kind() {
        return kind;
    }

    @Override
    public synchronized boolean isAvailable() {
        if (!probed) {
            cause = ShimPlatform.unavailabilityCause(platform);
            probed = true;
        }
        return cause == null;
    }

    @Override
    public synchronized String unavailabilityCause() {
        return isAvailable() ? null : cause;
    }

    @Override
    public Backend open(ShmemConfig config, Bootstrap boot, NodeSharedMemory node) {
        ShimPlatform.choose(platform);
        return new GpuBackend(config, boot, platform, node);
    }

    /** Through the remote transport's two-sided requests, which the target PE applies to its GPU heap. */
    @Override
    public boolean supportsRemotePeers() {
        return true;
    }

    /** CUDA (NVIDIA). */
    public static final class Cuda extends GpuBackendFactory {
        public Cuda() {
            super(BackendKind.CUDA, "cuda");
        }
    }

    /** HIP (AMD). */
    public static final class Hip extends GpuBackendFactory {
        public Hip() {
            super(BackendKind.HIP, "hip");
        }
    }
}
