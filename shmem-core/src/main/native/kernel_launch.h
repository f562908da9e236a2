/* kernel_launch.h - how the runtime launches its own kernels: jshmemk_launch.
 *
 * Through the driver on CUDA: cuLaunchKernel (cuLaunchKernelEx when chained), with the kernel's
 * CUfunction looked up once per device. The runtime's launch (<<<>>>, cudaLaunchKernelEx) finds
 * the kernel again on every call, a few tenths of a microsecond more per launch, and small
 * operations on a stream are bound by the host's launches.
 *
 * Chained launches: back to back on a stream, a small kernel of the runtime (a barrier, a quiet,
 * a one-block collective) spends about as long waiting to be scheduled after the previous kernel
 * as it runs. On CUDA devices of compute capability 9.0 and up, a chained launch (programmatic
 * dependent launch) lets the kernel be scheduled while the stream's previous kernel still runs;
 * the kernel's first statement, jshmemk_chain_start(), waits until that kernel has finished and
 * its memory operations are visible, so stream order is kept and only the launch gap goes. Only
 * one-block kernels are chained, and the SM copy between GPUs where no GPU is shared by several PEs
 * (GpuBackend decides): a many-block kernel scheduled early could hold the SMs that a peer's kernel on
 * the same GPU needs. JSHMEM_GPU_LAUNCH_CHAINING=0 launches plainly; HIP always does. Chaining
 * takes about a microsecond off each on-stream collective; the barrier kernel gains nothing from it
 * and is launched plainly. Measured by `perf --form on_stream reduce reduce_scatter barrier_latency`
 * with JSHMEM_GPU_LAUNCH_CHAINING=0 and 1 (docs/performance.md).
 * A kernel that was not launched chained passes jshmemk_chain_start() at once. Module kernels are
 * chained by their caller (jshmem_rt_launch's JSHMEM_LAUNCH_CHAINED, Kernel.launchChained).
 */
#ifndef JSHMEM_KERNEL_LAUNCH_H
#define JSHMEM_KERNEL_LAUNCH_H

#include <stdio.h>
#include <stdlib.h>

#include <type_traits>

#include <jshmem/jshmem_state.h>

#include "gpu.h"
#include "shim_driver.h"
#include "shim_internal.h"

/* First statement of a chained kernel: wait for the previous grid, then let the next be scheduled. */
__device__ __forceinline__ void jshmemk_chain_start() {
#if !JSHMEM_IS_HIP && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

/* Traced stream operations. When the job traces, the host numbers each barrier, sync and collective it
 * queues on a stream and sets that number on its thread around the call (jshmem_rt_trace_op); a runtime
 * kernel that takes a jshmemk_op as its first parameter gets it from jshmemk_launch, with a record per
 * block reserved on the host in the trace ring's part for these kernels (jshmem_rt_trace_ops_ring), and
 * each block writes its span there (jshmemk_span, kernel_trace.cuh): no atomic on the device, where a
 * grid's blocks would queue on one counter. The host finds the operation's span on its stream's track
 * from its kernels' spans: no event between the kernels, which would cost the host two calls and break
 * the chaining of launches. records == NULL: not traced (or the part is full); the kernel then only tests
 * the pointer. */
struct jshmemk_op {
  unsigned id;
  jshmem_trace_record_t *records; /* block b's record is records[b] */
};
extern thread_local unsigned jshmemk_trace_op;
extern thread_local unsigned jshmemk_trace_kernels; /* kernels queued under it so far */
/* Counts a kernel of this thread's traced operation on `st` and reserves its `grid` blocks' records;
 * NULL when the stream is being captured (a graph would replay them; the kernel is not counted) or the
 * records are all taken (the blocks are counted as lost). */
jshmem_trace_record_t *jshmemk_trace_reserve(unsigned grid, gpuStream_t st);

/* Whether the runtime's sync kernels at stream boundaries (the on-stream barrier and sync, the
 * collectives' separate entry and exit syncs) fence: JSHMEM_GPU_BOUNDARY_FENCES=1 restores the
 * quiet and the release/acquire of a block barrier; by default they publish and poll relaxed, since
 * the stream's earlier work is complete and visible when such a kernel starts and nothing after it
 * starts before it ends. That takes about a fifth off a barrier on a stream (`perf --form on_stream
 * barrier_latency`, with JSHMEM_GPU_BOUNDARY_FENCES=0 and 1). */
static inline int jshmemk_boundary_fences(void) {
  static const int fences = [] {   /* read once; C++ makes the first call's initialisation thread-safe */
    const char *v = getenv("JSHMEM_GPU_BOUNDARY_FENCES");
    return v != NULL && v[0] == '1';
  }();
  return fences;
}

#if !JSHMEM_IS_HIP
/* Whether the calling thread's bound device takes chained launches (cached per device). */
static inline int jshmemk_chaining_on(void) {
  static const bool enabled = [] {
    const char *v = getenv("JSHMEM_GPU_LAUNCH_CHAINING");
    return v == NULL || v[0] != '0';
  }();
  /* 0: not asked yet; threads that race to ask store the same answer, atomically */
  static signed char device_ok[JSHMEM_MAX_DEVICES];
  int dev = jshmem_bound_device();
  if (!enabled || dev < 0 || dev >= JSHMEM_MAX_DEVICES) return 0;
  signed char ok = __atomic_load_n(&device_ok[dev], __ATOMIC_RELAXED);
  if (ok == 0) {
    int major = 0;
    ok = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) == cudaSuccess && major >= 9 ? 1 : -1;
    __atomic_store_n(&device_ok[dev], ok, __ATOMIC_RELAXED);
  }
  return ok > 0;
}

/* cuLaunchKernel, or cuLaunchKernelEx with programmatic stream serialization when `chained`. */
static inline CUresult jshmemk_cu_launch(CUfunction fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                         unsigned bz, unsigned shared_bytes, CUstream stream, void **args,
                                         bool chained) {
  if (!chained)
    return jshmem_g_drv.launchKernel(fn, gx, gy, gz, bx, by, bz, shared_bytes, stream, args, NULL);
  CUlaunchAttribute attr = {};
  attr.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
  attr.value.programmaticStreamSerializationAllowed = 1;
  CUlaunchConfig config = {};
  config.gridDimX = gx;
  config.gridDimY = gy;
  config.gridDimZ = gz;
  config.blockDimX = bx;
  config.blockDimY = by;
  config.blockDimZ = bz;
  config.sharedMemBytes = shared_bytes;
  config.hStream = stream;
  config.attrs = &attr;
  config.numAttrs = 1;
  return jshmem_g_drv.launchKernelEx(&config, fn, args, NULL);
}

/* The CUfunction of runtime kernel K on the calling thread's bound device, looked up on its first
 * launch there; NULL after leaving the reason. */
template <auto K>
static CUfunction jshmemk_function(const char *name) {
  static CUfunction functions[JSHMEM_MAX_DEVICES];
  int dev = jshmem_bound_device();
  if (dev < 0 || dev >= JSHMEM_MAX_DEVICES) {
    jshmem_rt_fail("launch of %s: device %d is outside 0..%d", name, dev, JSHMEM_MAX_DEVICES - 1);
    return NULL;
  }
  CUfunction f = __atomic_load_n(&functions[dev], __ATOMIC_ACQUIRE);
  if (f == NULL) {
    cudaFunction_t found = NULL;
    cudaError_t e = cudaGetFuncBySymbol(&found, (const void *)K);
    if (e != cudaSuccess) {
      jshmem_rt_fail("launch of %s: cudaGetFuncBySymbol: %s (%s)", name, cudaGetErrorString(e), cudaGetErrorName(e));
      return NULL;
    }
    f = (CUfunction)found;
    __atomic_store_n(&functions[dev], f, __ATOMIC_RELEASE);
  }
  return f;
}
#endif

template <auto K, typename Kernel = decltype(K)>
struct jshmemk_launcher;

template <typename... Params>
struct jshmemk_first_is_op : std::false_type {};
template <typename... Rest>
struct jshmemk_first_is_op<jshmemk_op, Rest...> : std::true_type {};

template <auto K, typename... Params>
struct jshmemk_launcher<K, void (*)(Params...)> {
  /* Whether K is a traced operation's kernel: its first parameter a jshmemk_op. */
  static constexpr bool takes_op = jshmemk_first_is_op<Params...>::value;

  static int launch(const char *name, unsigned grid, unsigned threads, gpuStream_t st, bool chained,
                    Params... args) {
#if JSHMEM_IS_HIP
    (void)chained;
    (void)hipGetLastError(); /* so that a stale "not ready" left by a query is not reported below */
    hipLaunchKernelGGL(K, dim3(grid), dim3(threads), 0, st, args...);
    hipError_t e = hipGetLastError();
    if (e != hipSuccess) return jshmem_rt_fail("launch of %s: %s (%s)", name, hipGetErrorString(e), hipGetErrorName(e));
    return 0;
#else
    if (jshmem_bind_device() != 0 || jshmem_drv() != 0) return -1;
    CUfunction fn = jshmemk_function<K>(name);
    if (fn == NULL) return -1;
    void *params[] = {(void *)&args..., NULL};
    CUresult r = jshmemk_cu_launch(fn, grid, 1, 1, threads, 1, 1, 0, (CUstream)st, params,
                                   chained && jshmemk_chaining_on());
    if (r != CUDA_SUCCESS) {
      char what[128];
      snprintf(what, sizeof what, "launch of %s (%u blocks of %u threads)", name, grid, threads);
      return jshmem_drv_fail(what, r);
    }
    return 0;
#endif
  }
};

/* Launches runtime kernel K (`name` for errors) as `grid` blocks of `threads` on st, chained if
 * `chained` (one-block kernels only, see above); the arguments convert to K's parameter types as
 * with <<<>>>. 0, or -1 with the reason. */
template <auto K, typename... Args>
static int jshmemk_launch(const char *name, unsigned grid, unsigned threads, gpuStream_t st, bool chained,
                          Args... args) {
  if constexpr (jshmemk_launcher<K>::takes_op) {   /* the caller's traced operation goes first */
    jshmemk_op op = {jshmemk_trace_op, NULL};
    if (op.id != 0) op.records = jshmemk_trace_reserve(grid, st);
    return jshmemk_launcher<K>::launch(name, grid, threads, st, chained, op, args...);
  } else
    return jshmemk_launcher<K>::launch(name, grid, threads, st, chained, args...);
}

#endif /* JSHMEM_KERNEL_LAUNCH_H */
