/**
 * jshmem's core: PEs, the symmetric heap, one-sided communication, atomics, signals,
 * synchronisation, teams and collectives, on the host or a GPU backend. Exports the API
 * ({@code org.jshmem}) and the timeline ({@code org.jshmem.trace}: spans of your own, reading a trace); the GPU backend and its FFM bindings are exported to the device
 * library alone. The runtime ({@code org.jshmem.runtime}), the backend contract
 * ({@code org.jshmem.spi}), the backends and the node control plane are internal (see
 * docs/architecture.md). On the class path (bin/jshmemrun, the tests)
 * nothing is hidden: this descriptor applies to programs on the module path.
 */
module org.jshmem.core {
    // OpenMPI's Java bindings: only the MPI bootstrap uses them, and only when started by mpirun.
    requires static mpi.java;
    // HeapLimits: the machine's physical memory, to say when a heap request is beyond it.
    requires java.management;
    requires jdk.management;

    exports org.jshmem;
    exports org.jshmem.trace;
    exports org.jshmem.gpu to org.jshmem.device;
    exports org.jshmem.gpu.shim to org.jshmem.device;

    uses org.jshmem.spi.BackendFactory;
    provides org.jshmem.spi.BackendFactory with
            org.jshmem.host.HostBackendFactory,
            org.jshmem.gpu.GpuBackendFactory.Cuda,
            org.jshmem.gpu.GpuBackendFactory.Hip;
}
