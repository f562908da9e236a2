package org.jshmem.device;

import org.jshmem.Shmem;
import org.jshmem.gpu.GpuBackend;
import org.jshmem.gpu.shim.Shim;

/**
 * The GPU this PE runs on, for code that sizes kernels to it (persistent grids, tile choices).
 *
 * @param platform              "cuda" or "hip"
 * @param name                  the device's name, e.g. "NVIDIA H100 80GB HBM3"
 * @param ccMajor               compute capability major (HIP: the gfx major the runtime reports)
 * @param ccMinor               compute capability minor
 * @param multiprocessors       SMs (CUDA) or CUs (HIP) of the whole device
 * @param multiprocessorsPerPe  this PE's share when several PEs share the device: a kernel whose
 *                              blocks wait for other PEs' kernels must not launch more blocks than this
 * @param memoryBytes           device memory
 * @param nodeSharesDevices     whether any device of this node serves several PEs of the job; the
 *                              same on every PE of the node (collective choices may depend on it)
 */
public record DeviceInfo(String platform, String name, int ccMajor, int ccMinor, int multiprocessors,
                         int multiprocessorsPerPe, long memoryBytes, boolean nodeSharesDevices) {

    /** The device of this PE; throws {@link org.jshmem.ShmemStateException} on a host heap. */
    public static DeviceInfo of(Shmem shmem) {
        GpuBackend gpu = shmem.unwrap(GpuBackend.class);
        Shim.DeviceInfo d = gpu.deviceInfo();
        return new DeviceInfo(Shim.platform(), d.name(), d.ccMajor(), d.ccMinor(), d.multiprocessors(),
                gpu.multiprocessorsPerPe(), d.memoryBytes(), gpu.nodeSharesDevices());
    }

    /** The device of this PE, or empty when its heap is in host memory. */
    public static java.util.Optional<DeviceInfo> find(Shmem shmem) {
        try {
            shmem.unwrap(GpuBackend.class);
        } catch (org.jshmem.ShmemStateException hostHeap) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(of(shmem));
    }

    /** Whether this is an NVIDIA Hopper GPU (sm_90: H100, H200). */
    public boolean isHopper() {
        return "cuda".equals(platform) && ccMajor == 9;
    }

    /** A key naming the compile target, for caches: platform, name and compute capability. */
    public String targetKey() {
        return platform + ":" + name + ":" + ccMajor + "." + ccMinor;
    }
}
