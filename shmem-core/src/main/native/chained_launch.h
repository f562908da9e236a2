/* chained_launch.h - one-block runtime kernels launched with programmatic dependent launch.
 *
 * Back to back on a stream, a small kernel of the runtime (a barrier, a quiet, a one-block
 * collective) spends about as long waiting to be scheduled after the previous kernel as it runs.
 * On CUDA devices of compute capability 9.0 and up, jshmemk_launch_chained lets the kernel be
 * scheduled while the stream's previous kernel still runs; the kernel's first statement,
 * jshmemk_chain_start(), waits until that kernel has finished and its memory operations are
 * visible, so stream order is kept and only the launch gap goes. Only one-block kernels are
 * chained: a many-block kernel scheduled early could hold the SMs that a peer's kernel on the
 * same GPU needs. JSHMEM_GPU_LAUNCH_CHAINING=0 launches plainly; HIP always does.
 * Measured on 2 x H200 (chaining off / on, two interleaved runs each): all-reduce on a stream of
 * 1 KB 7.65-7.69 / 6.82-6.87 us, of 1 MB 15.2 / 14.1-14.2 us; reduce-scatter 1 KB 8.3-9.0 / 7.1 us.
 * The barrier kernel is launched plainly: chained, 1000 on-stream barriers took 5.25-5.28 us each
 * against 5.06-5.12, but a rerun with it plain in both settings showed 5.16 against 5.05, so no gain
 * of chaining it was seen.
 * A kernel that was not launched chained passes jshmemk_chain_start() at once. Module kernels are
 * chained by their caller (jshmem_rt_launch's JSHMEM_LAUNCH_CHAINED, Kernel.launchChained).
 */
#ifndef JSHMEM_CHAINED_LAUNCH_H
#define JSHMEM_CHAINED_LAUNCH_H

#include <stdlib.h>

#include "gpu.h"

/* First statement of a chained kernel: wait for the previous grid, then let the next be scheduled. */
__device__ __forceinline__ void jshmemk_chain_start() {
#if !JSHMEM_IS_HIP && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

/* Whether the runtime's sync kernels at stream boundaries (the on-stream barrier and sync, the
 * collectives' separate entry and exit syncs) fence: JSHMEM_GPU_BOUNDARY_FENCES=1 restores the
 * quiet and the release/acquire of a block barrier; by default they publish and poll relaxed, since
 * the stream's earlier work is complete and visible when such a kernel starts and nothing after it
 * starts before it ends. Measured on 2 x H100, barrier on a stream: 6.61-6.72 us fenced, 5.08-5.14
 * without. */
static inline int jshmemk_boundary_fences(void) {
  static int fences = -1;
  if (fences < 0) {
    const char *v = getenv("JSHMEM_GPU_BOUNDARY_FENCES");
    fences = v != NULL && v[0] == '1';
  }
  return fences;
}

#if !JSHMEM_IS_HIP
/* Whether the calling thread's current device takes chained launches (cached per device). */
static inline int jshmemk_chaining_on(void) {
  static int enabled = -1;
  static signed char device_ok[64];
  if (enabled < 0) {
    const char *v = getenv("JSHMEM_GPU_LAUNCH_CHAINING");
    enabled = v == NULL || v[0] != '0';
  }
  int dev = 0;
  if (!enabled || cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= 64) return 0;
  if (device_ok[dev] == 0) {
    int major = 0;
    device_ok[dev] = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) == cudaSuccess &&
                             major >= 9
                         ? 1
                         : -1;
  }
  return device_ok[dev] > 0;
}
#endif

/* Launches the one-block kernel k with `threads` threads on st; returns the launch's error. */
template <typename... Params, typename... Args>
static gpuError_t jshmemk_launch_chained(void (*k)(Params...), unsigned threads, gpuStream_t st,
                                         Args... args) {
#if JSHMEM_IS_HIP
  hipLaunchKernelGGL(k, dim3(1), dim3(threads), 0, st, args...);
  return hipGetLastError();
#else
  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(1);
  cfg.blockDim = dim3(threads);
  cfg.dynamicSmemBytes = 0;
  cfg.stream = st;
  cfg.attrs = &attr;
  cfg.numAttrs = jshmemk_chaining_on() ? 1 : 0;
  return cudaLaunchKernelEx(&cfg, k, ((Params)args)...);
#endif
}

#endif /* JSHMEM_CHAINED_LAUNCH_H */
