/**
 * jshmem's device library: compile, load and launch CUDA/HIP kernels that use the
 * {@code jshmem/*.h} device API over the symmetric heap. Exports {@code org.jshmem.device}.
 */
module org.jshmem.device {
    requires transitive org.jshmem.core;

    exports org.jshmem.device;
}
