/*
 * shim_runtime.cu - the runtime wrappers behind shim.h: devices, memory, IPC, streams, events,
 * copies, stream memory operations and host atomics; one source for CUDA (nvcc) and HIP (hipcc).
 * Modules and launches are in shim_module.cu, run-time compilation in shim_rtc.cu.
 *
 * CUDA: cudart is linked statically and every driver-API function (modules, launches, stream
 * memory operations) is reached through cudaGetDriverEntryPointByVersion, so the library needs
 * neither libcudart.so nor a link against libcuda.so: only the driver the machine already has.
 * NVRTC / hiprtc are loaded with dlopen on first use, so that they are optional.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jshmem/jshmem_state.h>

#include "fg_alloc.h"
#include "shim.h"
#include "shim_internal.h"

#if !JSHMEM_IS_HIP
#include "shim_driver.h"
#endif

static_assert(JSHMEM_RT_HANDLE_MAX == FG_HANDLE_MAX, "shim.h and fg_alloc.h disagree on the handle size");

/* ------------------------------------------------------------------------------------------
 * Device binding: the process's device (set_device) and the device each thread is bound to.
 * ------------------------------------------------------------------------------------------ */
static int g_device = -1;
static thread_local int t_bound = -1;

int jshmem_bind_device(void) {
  int want = __atomic_load_n(&g_device, __ATOMIC_ACQUIRE);
  if (want < 0) {
    if (t_bound >= 0) return 0;
    /* No device chosen: keep the runtime's, but make it current for this thread once, which
     * also makes its primary context current for the driver API (module loads, launches). */
    GPU_TRY(gpuGetDevice(&want));
  } else if (t_bound == want) {
    return 0;
  }
  GPU_TRY(gpuSetDevice(want));
  t_bound = want;
  return 0;
}

int jshmem_bound_device(void) { return t_bound; }

/* ------------------------------------------------------------------------------------------
 * CUDA driver API through the runtime's entry-point query (no libcuda.so at link time).
 * ------------------------------------------------------------------------------------------ */
#if !JSHMEM_IS_HIP
/* The ABI version asked for: the PFN_*_vNNNN types of shim_driver.h are the newest at or before 12.0. */
#define JSHMEM_DRIVER_ABI 12000

struct jshmem_driver_api jshmem_g_drv;
static pthread_once_t g_drv_once = PTHREAD_ONCE_INIT;
static char g_drv_error[512];

static void drv_load(void) {
  const struct {
    const char *name;
    void **slot;
  } table[] = {
      {"cuGetErrorString", (void **)&jshmem_g_drv.getErrorString},
      {"cuGetErrorName", (void **)&jshmem_g_drv.getErrorName},
      {"cuModuleLoadData", (void **)&jshmem_g_drv.moduleLoadData},
      {"cuModuleUnload", (void **)&jshmem_g_drv.moduleUnload},
      {"cuModuleGetFunction", (void **)&jshmem_g_drv.moduleGetFunction},
      {"cuModuleGetGlobal", (void **)&jshmem_g_drv.moduleGetGlobal},
      {"cuLaunchKernel", (void **)&jshmem_g_drv.launchKernel},
      {"cuLaunchCooperativeKernel", (void **)&jshmem_g_drv.launchCooperativeKernel},
      {"cuLaunchKernelEx", (void **)&jshmem_g_drv.launchKernelEx},
      {"cuOccupancyMaxActiveBlocksPerMultiprocessor", (void **)&jshmem_g_drv.occupancyMaxActiveBlocksPerMultiprocessor},
      {"cuOccupancyMaxActiveClusters", (void **)&jshmem_g_drv.occupancyMaxActiveClusters},
      {"cuFuncSetAttribute", (void **)&jshmem_g_drv.funcSetAttribute},
      {"cuStreamWaitValue64", (void **)&jshmem_g_drv.streamWaitValue64},
      {"cuStreamWriteValue32", (void **)&jshmem_g_drv.streamWriteValue32},
      {"cuStreamWriteValue64", (void **)&jshmem_g_drv.streamWriteValue64},
      {"cuMemcpyAsync", (void **)&jshmem_g_drv.memcpyAsync},
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
    cudaError_t e = cudaGetDriverEntryPointByVersion(table[i].name, table[i].slot, JSHMEM_DRIVER_ABI,
                                                     cudaEnableDefault, &q);
    if (e != cudaSuccess) {
      snprintf(g_drv_error, sizeof g_drv_error, "cudaGetDriverEntryPointByVersion(%s): %s (%s)", table[i].name,
               cudaGetErrorString(e), cudaGetErrorName(e));
      return;
    }
    if (q != cudaDriverEntryPointSuccess || *table[i].slot == NULL) {
      snprintf(g_drv_error, sizeof g_drv_error,
               "cudaGetDriverEntryPointByVersion(%s): %s (is the NVIDIA driver older than CUDA 12.0?)",
               table[i].name,
               q == cudaDriverEntryPointVersionNotSufficent ? "driver version not sufficient" : "symbol not found");
      return;
    }
  }
}

int jshmem_drv(void) {
  pthread_once(&g_drv_once, drv_load);
  if (g_drv_error[0] != '\0') return jshmem_rt_fail("%s", g_drv_error);
  return 0;
}

int jshmem_drv_fail(const char *what, CUresult r) {
  const char *s = NULL, *n = NULL;
  if (jshmem_g_drv.getErrorString == NULL || jshmem_g_drv.getErrorString(r, &s) != CUDA_SUCCESS) s = NULL;
  if (jshmem_g_drv.getErrorName == NULL || jshmem_g_drv.getErrorName(r, &n) != CUDA_SUCCESS) n = NULL;
  return jshmem_rt_fail("%s: %s (%s)", what, s ? s : "unknown error", n ? n : "CUresult");
}

#endif /* !JSHMEM_IS_HIP */

extern "C" {

/* ------------------------------------------------------------------------------------------
 * Platform and devices
 * ------------------------------------------------------------------------------------------ */
const char *jshmem_rt_platform(void) { return JSHMEM_PLATFORM; }

int jshmem_rt_device_count(int *count) {
  CHECK_ARG(count != NULL, "jshmem_rt_device_count: count is NULL");
  *count = 0;
  GPU_TRY(gpuGetDeviceCount(count));
  return 0;
}

int jshmem_rt_set_device(int dev) {
  int n = 0;
  GPU_TRY(gpuGetDeviceCount(&n));
  CHECK_ARG(dev >= 0 && dev < n, "jshmem_rt_set_device: device %d out of range (this node has %d)", dev, n);
  GPU_TRY(gpuSetDevice(dev));
  __atomic_store_n(&g_device, dev, __ATOMIC_RELEASE);
  t_bound = dev;
  return 0;
}

int jshmem_rt_get_device(int *dev) {
  CHECK_ARG(dev != NULL, "jshmem_rt_get_device: dev is NULL");
  BIND_DEVICE();
  GPU_TRY(gpuGetDevice(dev));
  return 0;
}

int jshmem_rt_device_info(int dev, char *name, int name_len, char *pci, int pci_len, int *cc_major,
                          int *cc_minor, int *sm_count, size_t *total_mem) {
  gpuDeviceProp_t p;
  GPU_TRY(gpuGetDeviceProperties(&p, dev));
  if (name != NULL && name_len > 0) snprintf(name, (size_t)name_len, "%s", p.name);
  if (pci != NULL && pci_len > 0)
    snprintf(pci, (size_t)pci_len, "%04x:%02x:%02x", p.pciDomainID, p.pciBusID, p.pciDeviceID);
  if (cc_major) *cc_major = p.major;
  if (cc_minor) *cc_minor = p.minor;
  if (sm_count) *sm_count = p.multiProcessorCount;
  if (total_mem) *total_mem = p.totalGlobalMem;
  return 0;
}

int jshmem_rt_device_runs_processes_together(int dev, int *concurrent) {
  CHECK_ARG(concurrent != NULL, "jshmem_rt_device_runs_processes_together: concurrent is NULL");
#if JSHMEM_IS_HIP
  (void)dev;
  *concurrent = 1;
#else
  GPU_TRY(cudaDeviceGetAttribute(concurrent, cudaDevAttrMpsEnabled, dev));
#endif
  return 0;
}

int jshmem_rt_pointer_device(const void *ptr, int *device) {
  CHECK_ARG(device != NULL, "jshmem_rt_pointer_device: device is NULL");
  *device = -1;
#if JSHMEM_IS_HIP
  hipPointerAttribute_t attr;
  gpuError_t e = hipPointerGetAttributes(&attr, ptr);
  if (e != gpuSuccess) {   /* older HIP runtimes fail for memory they do not know instead of saying "unregistered" */
    (void)gpuGetLastError();
    return 0;
  }
#if HIP_VERSION_MAJOR >= 6
  hipMemoryType type = attr.type;
#else
  hipMemoryType type = attr.memoryType;
#endif
  if (type == hipMemoryTypeDevice || attr.isManaged) *device = attr.device;
#else
  cudaPointerAttributes attr;
  GPU_TRY(cudaPointerGetAttributes(&attr, ptr));
  if (attr.type == cudaMemoryTypeDevice || attr.type == cudaMemoryTypeManaged) *device = attr.device;
#endif
  return 0;
}

int jshmem_rt_can_access_peer(int dev, int peer, int *can) {
  CHECK_ARG(can != NULL, "jshmem_rt_can_access_peer: can is NULL");
  if (dev == peer) {
    *can = 1;
    return 0;
  }
  GPU_TRY(gpuDeviceCanAccessPeer(can, dev, peer));
  return 0;
}

int jshmem_rt_device_synchronize(void) {
  BIND_DEVICE();
  GPU_TRY(gpuDeviceSynchronize());
  return 0;
}

/* ------------------------------------------------------------------------------------------
 * Heap
 * ------------------------------------------------------------------------------------------ */
int jshmem_rt_heap_alloc(size_t bytes, void **ptr) {
  CHECK_ARG(ptr != NULL, "jshmem_rt_heap_alloc: ptr is NULL");
  BIND_DEVICE();
  if (fg_alloc_shareable(bytes, ptr) != 0) return jshmem_rt_fail("heap allocation: %s", fg_last_error());
  return 0;
}

int jshmem_rt_heap_free(void *ptr) {
  BIND_DEVICE();
  if (fg_free_shareable(ptr) != 0) return jshmem_rt_fail("heap free: %s", fg_last_error());
  return 0;
}

int jshmem_rt_ipc_export(void *ptr, void *handle, size_t *len) {
  BIND_DEVICE();
  if (fg_export(ptr, handle, len) != 0) return jshmem_rt_fail("IPC export of the heap: %s", fg_last_error());
  return 0;
}

int jshmem_rt_ipc_import(const void *handle, size_t len, void **ptr) {
  BIND_DEVICE();
  if (fg_import(handle, len, ptr) != 0)
    return jshmem_rt_fail("IPC open of a peer's heap: %s (are both GPUs peers, and is the handle from another process?)",
                          fg_last_error());
  return 0;
}

int jshmem_rt_ipc_close(void *ptr) {
  BIND_DEVICE();
  if (fg_unimport(ptr) != 0) return jshmem_rt_fail("IPC close of a peer's heap: %s", fg_last_error());
  return 0;
}

int jshmem_rt_memset(void *ptr, int value, size_t n) {
  BIND_DEVICE();
  /* cudaMemset may return before the bytes are set: queue and wait instead. */
  GPU_TRY(gpuMemsetAsync(ptr, value, n, (gpuStream_t)0));
  GPU_TRY(gpuStreamSynchronize((gpuStream_t)0));
  return 0;
}

int jshmem_rt_memset_async(void *ptr, int value, size_t n, void *stream) {
  BIND_DEVICE();
  GPU_TRY(gpuMemsetAsync(ptr, value, n, (gpuStream_t)stream));
  return 0;
}

/* ------------------------------------------------------------------------------------------
 * Pinned host memory
 * ------------------------------------------------------------------------------------------ */
int jshmem_rt_host_alloc(size_t bytes, void **ptr) {
  CHECK_ARG(ptr != NULL, "jshmem_rt_host_alloc: ptr is NULL");
  *ptr = NULL;
  BIND_DEVICE();
  GPU_TRY(gpuHostAlloc(ptr, bytes, gpuHostAllocPortable | gpuHostAllocMapped));
  return 0;
}

int jshmem_rt_host_free(void *ptr) {
  if (ptr == NULL) return 0;
  BIND_DEVICE();
  GPU_TRY(gpuFreeHost(ptr));
  return 0;
}

int jshmem_rt_host_register(void *ptr, size_t bytes) {
  BIND_DEVICE();
  GPU_TRY(gpuHostRegister(ptr, bytes, gpuHostRegisterPortable | gpuHostRegisterMapped));
  return 0;
}

int jshmem_rt_host_unregister(void *ptr) {
  BIND_DEVICE();
  GPU_TRY(gpuHostUnregister(ptr));
  return 0;
}

/* ------------------------------------------------------------------------------------------
 * Streams and events
 * ------------------------------------------------------------------------------------------ */
int jshmem_rt_stream_create(void **stream) {
  CHECK_ARG(stream != NULL, "jshmem_rt_stream_create: stream is NULL");
  BIND_DEVICE();
  gpuStream_t s = NULL;
  GPU_TRY(gpuStreamCreateWithFlags(&s, gpuStreamNonBlocking));
  *stream = (void *)s;
  return 0;
}

int jshmem_rt_stream_destroy(void *stream) {
  CHECK_ARG(stream != NULL, "jshmem_rt_stream_destroy: the default stream cannot be destroyed");
  BIND_DEVICE();
  GPU_TRY(gpuStreamDestroy((gpuStream_t)stream));
  return 0;
}

int jshmem_rt_stream_synchronize(void *stream) {
  BIND_DEVICE();
  GPU_TRY(gpuStreamSynchronize((gpuStream_t)stream));
  return 0;
}

int jshmem_rt_stream_query(void *stream, int *done) {
  CHECK_ARG(done != NULL, "jshmem_rt_stream_query: done is NULL");
  BIND_DEVICE();
  gpuError_t e = gpuStreamQuery((gpuStream_t)stream);
  if (e == gpuErrorNotReady) {
    (void)gpuGetLastError(); /* HIP keeps "not ready" as the last error: not an error here */
    *done = 0;
    return 0;
  }
  GPU_TRY(e);
  *done = 1;
  return 0;
}

int jshmem_rt_event_create(void **event, int timing) {
  CHECK_ARG(event != NULL, "jshmem_rt_event_create: event is NULL");
  BIND_DEVICE();
  gpuEvent_t ev = NULL;
  GPU_TRY(gpuEventCreateWithFlags(&ev, timing ? gpuEventDefault : gpuEventDisableTiming));
  *event = (void *)ev;
  return 0;
}

int jshmem_rt_event_destroy(void *event) {
  BIND_DEVICE();
  GPU_TRY(gpuEventDestroy((gpuEvent_t)event));
  return 0;
}

int jshmem_rt_event_record(void *event, void *stream) {
  BIND_DEVICE();
  GPU_TRY(gpuEventRecord((gpuEvent_t)event, (gpuStream_t)stream));
  return 0;
}

int jshmem_rt_event_synchronize(void *event) {
  BIND_DEVICE();
  GPU_TRY(gpuEventSynchronize((gpuEvent_t)event));
  return 0;
}

int jshmem_rt_event_elapsed_ms(void *start, void *end, float *ms) {
  CHECK_ARG(ms != NULL, "jshmem_rt_event_elapsed_ms: ms is NULL");
  BIND_DEVICE();
  GPU_TRY(gpuEventElapsedTime(ms, (gpuEvent_t)start, (gpuEvent_t)end));
  return 0;
}

int jshmem_rt_stream_wait_event(void *stream, void *event) {
  BIND_DEVICE();
  GPU_TRY(gpuStreamWaitEvent((gpuStream_t)stream, (gpuEvent_t)event, 0));
  return 0;
}

/* ------------------------------------------------------------------------------------------
 * Copies
 * ------------------------------------------------------------------------------------------ */
int jshmem_rt_memcpy(void *dst, const void *src, size_t n) {
  BIND_DEVICE();
  /* cudaMemcpy returns before a device-to-device copy is done: queue and wait instead. */
  GPU_TRY(gpuMemcpyAsync(dst, src, n, gpuMemcpyDefault, (gpuStream_t)0));
  GPU_TRY(gpuStreamSynchronize((gpuStream_t)0));
  return 0;
}

/* Through the driver on CUDA: cudaMemcpyAsync costs the host a little more per call, and small copies on a stream
 * are bound by the host's calls. */
int jshmem_rt_memcpy_async(void *dst, const void *src, size_t n, void *stream) {
  BIND_DEVICE();
#if JSHMEM_IS_HIP
  GPU_TRY(gpuMemcpyAsync(dst, src, n, gpuMemcpyDefault, (gpuStream_t)stream));
#else
  if (jshmem_drv() != 0) return -1;
  CUresult r = jshmem_g_drv.memcpyAsync((CUdeviceptr)(uintptr_t)dst, (CUdeviceptr)(uintptr_t)src, n, (CUstream)stream);
  if (r != CUDA_SUCCESS) {
    char what[96];
    snprintf(what, sizeof what, "cuMemcpyAsync of %zu bytes", n);
    return jshmem_drv_fail(what, r);
  }
#endif
  return 0;
}

int jshmem_rt_memcpy2d_async(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                             size_t height, void *stream) {
  BIND_DEVICE();
  GPU_TRY(gpuMemcpy2DAsync(dst, dpitch, src, spitch, width, height, gpuMemcpyDefault, (gpuStream_t)stream));
  return 0;
}

/* Inlined with a constant `e`, the memcpy becomes one load and one store per element. */
static inline __attribute__((always_inline)) void copy_strided_fixed(char *dst, size_t dst_pitch, const char *src,
                                                                     size_t src_pitch, size_t e, size_t n) {
  for (size_t i = 0; i < n; i++) memcpy(dst + i * dst_pitch, src + i * src_pitch, e);
}

void jshmem_rt_copy_strided_host(void *dst, size_t dst_pitch, const void *src, size_t src_pitch, size_t elem,
                                 size_t n) {
  char *d = (char *)dst;
  const char *s = (const char *)src;
  switch (elem) {
    case 8: copy_strided_fixed(d, dst_pitch, s, src_pitch, 8, n); break;
    case 4: copy_strided_fixed(d, dst_pitch, s, src_pitch, 4, n); break;
    case 2: copy_strided_fixed(d, dst_pitch, s, src_pitch, 2, n); break;
    case 1: copy_strided_fixed(d, dst_pitch, s, src_pitch, 1, n); break;
    default:
      for (size_t i = 0; i < n; i++) memcpy(d + i * dst_pitch, s + i * src_pitch, elem);
  }
}

/* ------------------------------------------------------------------------------------------
 * Stream memory operations
 * ------------------------------------------------------------------------------------------ */
/* EQ is exact. GE compares unsigned (signals are uint64_t): for a power of two 2^k exactly, as "a bit at or
 * above k is set", (*addr & ~(2^k - 1)) != 0; for another value below 2^63 with the stream's own GE test,
 * (int64_t)(*addr - value) >= 0, which agrees with the unsigned order unless *addr is 2^63 or more above
 * value. The one-thread wait kernel (jshmem_rt_signal_wait_async) compares unsigned in every case. */
int jshmem_rt_stream_wait_value64(void *stream, void *addr, uint64_t value, int cmp) {
  int pow2 = value != 0 && (value & (value - 1)) == 0;
  CHECK_ARG(cmp == JSHMEM_CMP_EQ || (cmp == JSHMEM_CMP_GE && (pow2 || (value != 0 && value < (1ull << 63)))),
            "jshmem_rt_stream_wait_value64: comparison %d with value %llu is not supported by the stream wait (only "
            "EQ=%d, and GE=%d of a power of two or of 1 .. 2^63-1): use the wait kernel form",
            cmp, (unsigned long long)value, JSHMEM_CMP_EQ, JSHMEM_CMP_GE);
  CHECK_ARG(addr != NULL && ((uintptr_t)addr & 7u) == 0,
            "jshmem_rt_stream_wait_value64: address %p is NULL or not 8-byte aligned", addr);
  int by_mask = cmp == JSHMEM_CMP_GE && pow2;
  uint64_t operand = by_mask ? ~(value - 1) : value;
  BIND_DEVICE();
#if JSHMEM_IS_HIP
  GPU_TRY(hipStreamWaitValue64((hipStream_t)stream, addr, operand,
                               cmp == JSHMEM_CMP_EQ ? hipStreamWaitValueEq
                               : by_mask           ? hipStreamWaitValueAnd
                                                   : hipStreamWaitValueGte,
                               0xFFFFFFFFFFFFFFFFull));
#else
  if (jshmem_drv() != 0) return -1;
  CU_TRY("cuStreamWaitValue64",
         jshmem_g_drv.streamWaitValue64((CUstream)stream, (CUdeviceptr)(uintptr_t)addr, operand,
                                        cmp == JSHMEM_CMP_EQ ? CU_STREAM_WAIT_VALUE_EQ
                                        : by_mask           ? CU_STREAM_WAIT_VALUE_AND
                                                            : CU_STREAM_WAIT_VALUE_GEQ));
#endif
  return 0;
}

int jshmem_rt_stream_write_value(void *stream, void *addr, uint64_t value, int width) {
  CHECK_ARG(width == 4 || width == 8, "jshmem_rt_stream_write_value: width %d is not 4 or 8", width);
  CHECK_ARG(addr != NULL && ((uintptr_t)addr & (unsigned)(width - 1)) == 0,
            "jshmem_rt_stream_write_value: address %p is NULL or not %d-byte aligned", addr, width);
  BIND_DEVICE();
#if JSHMEM_IS_HIP
  if (width == 4)
    GPU_TRY(hipStreamWriteValue32((hipStream_t)stream, addr, (uint32_t)value, 0));
  else
    GPU_TRY(hipStreamWriteValue64((hipStream_t)stream, addr, value, 0));
#else
  if (jshmem_drv() != 0) return -1;
  /* DEFAULT (not NO_MEMORY_BARRIER): earlier work's writes are visible before the value. */
  if (width == 4)
    CU_TRY("cuStreamWriteValue32", jshmem_g_drv.streamWriteValue32((CUstream)stream, (CUdeviceptr)(uintptr_t)addr,
                                                                   (cuuint32_t)value, CU_STREAM_WRITE_VALUE_DEFAULT));
  else
    CU_TRY("cuStreamWriteValue64", jshmem_g_drv.streamWriteValue64((CUstream)stream, (CUdeviceptr)(uintptr_t)addr,
                                                                   value, CU_STREAM_WRITE_VALUE_DEFAULT));
#endif
  return 0;
}

/* ------------------------------------------------------------------------------------------
 * Atomics from the host
 * ------------------------------------------------------------------------------------------ */
static int amo_check(const char *fn, void *addr, int width, int op) {
  CHECK_ARG(width == 4 || width == 8, "%s: width %d is not 4 or 8", fn, width);
  CHECK_ARG(op >= JSHMEM_AMO_FETCH && op <= JSHMEM_AMO_FETCH_XOR, "%s: unknown atomic operation %d", fn, op);
  CHECK_ARG(addr != NULL && ((uintptr_t)addr % (uintptr_t)width) == 0,
            "%s: address %p is NULL or not aligned to %d bytes", fn, addr, width);
  return 0;
}

/* The kernel stores the old value straight into the caller's *old, pinned and mapped host memory:
 * no allocation here, because a page-locked allocation waits for the device's running kernels (an
 * implicit synchronisation), and the server of another node's atomic must not wait for a kernel
 * that spins until that atomic lands. */
int jshmem_rt_amo(void *addr, int width, int op, uint64_t value, uint64_t comparand, uint64_t *old,
                  void *stream) {
  if (amo_check("jshmem_rt_amo", addr, width, op) != 0) return -1;
  BIND_DEVICE();
  void *dev = NULL;
  if (old != NULL) {
    gpuError_t e = gpuHostGetDevicePointer(&dev, old, 0);
    if (e != gpuSuccess) return jshmem_rt_fail_gpu(JSHMEM_STR(gpuHostGetDevicePointer), e);
    *(volatile uint64_t *)old = 0;
  }
  if (jshmem_amo_launch(addr, width, op, value, comparand, (unsigned long long *)dev, (gpuStream_t)stream) != 0)
    return -1;
  GPU_TRY(gpuStreamSynchronize((gpuStream_t)stream));
  return 0;
}

int jshmem_rt_amo_async(void *addr, int width, int op, uint64_t value, void *stream) {
  if (amo_check("jshmem_rt_amo_async", addr, width, op) != 0) return -1;
  CHECK_ARG(op == JSHMEM_AMO_SET || op == JSHMEM_AMO_ADD || op == JSHMEM_AMO_AND || op == JSHMEM_AMO_OR ||
                op == JSHMEM_AMO_XOR,
            "jshmem_rt_amo_async: operation %d fetches a value or compares: use jshmem_rt_amo", op);
  BIND_DEVICE();
  return jshmem_amo_launch(addr, width, op, value, 0, NULL, (gpuStream_t)stream);
}

} /* extern "C" */
