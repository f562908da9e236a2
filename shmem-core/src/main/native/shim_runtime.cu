/*
 * shim_runtime.cu - the runtime wrappers behind shim.h, one source for CUDA (nvcc) and HIP (hipcc).
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
#include <cuda.h>
#include <cudaTypedefs.h>
#endif

static_assert(JSHMEM_RT_HANDLE_MAX == FG_HANDLE_MAX, "shim.h and fg_alloc.h disagree on the handle size");

#define CHECK_ARG(cond, ...)                                                                 \
  do {                                                                                       \
    if (!(cond)) return jshmem_rt_fail(__VA_ARGS__);                                         \
  } while (0)

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

/* ------------------------------------------------------------------------------------------
 * CUDA driver API through the runtime's entry-point query (no libcuda.so at link time).
 * ------------------------------------------------------------------------------------------ */
#if !JSHMEM_IS_HIP
/* The ABI version asked for: the PFN_*_vNNNN types below are the newest at or before 12.0. */
#define JSHMEM_DRIVER_ABI 12000

static struct {
  PFN_cuGetErrorString_v6000 getErrorString;
  PFN_cuGetErrorName_v6000 getErrorName;
  PFN_cuModuleLoadData_v2000 moduleLoadData;
  PFN_cuModuleUnload_v2000 moduleUnload;
  PFN_cuModuleGetFunction_v2000 moduleGetFunction;
  PFN_cuModuleGetGlobal_v3020 moduleGetGlobal;
  PFN_cuLaunchKernel_v4000 launchKernel;
  PFN_cuFuncSetAttribute_v9000 funcSetAttribute;
  PFN_cuStreamWaitValue64_v11070 streamWaitValue64;
  PFN_cuStreamWriteValue64_v11070 streamWriteValue64;
} g_drv;
static pthread_once_t g_drv_once = PTHREAD_ONCE_INIT;
static char g_drv_error[512];

static void drv_load(void) {
  const struct {
    const char *name;
    void **slot;
  } table[] = {
      {"cuGetErrorString", (void **)&g_drv.getErrorString},
      {"cuGetErrorName", (void **)&g_drv.getErrorName},
      {"cuModuleLoadData", (void **)&g_drv.moduleLoadData},
      {"cuModuleUnload", (void **)&g_drv.moduleUnload},
      {"cuModuleGetFunction", (void **)&g_drv.moduleGetFunction},
      {"cuModuleGetGlobal", (void **)&g_drv.moduleGetGlobal},
      {"cuLaunchKernel", (void **)&g_drv.launchKernel},
      {"cuFuncSetAttribute", (void **)&g_drv.funcSetAttribute},
      {"cuStreamWaitValue64", (void **)&g_drv.streamWaitValue64},
      {"cuStreamWriteValue64", (void **)&g_drv.streamWriteValue64},
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

/* Loads the driver entry points once; 0 or -1 with the reason. */
static int drv(void) {
  pthread_once(&g_drv_once, drv_load);
  if (g_drv_error[0] != '\0') return jshmem_rt_fail("%s", g_drv_error);
  return 0;
}

static int drv_fail(const char *what, CUresult r) {
  const char *s = NULL, *n = NULL;
  if (g_drv.getErrorString == NULL || g_drv.getErrorString(r, &s) != CUDA_SUCCESS) s = NULL;
  if (g_drv.getErrorName == NULL || g_drv.getErrorName(r, &n) != CUDA_SUCCESS) n = NULL;
  return jshmem_rt_fail("%s: %s (%s)", what, s ? s : "unknown error", n ? n : "CUresult");
}

#define CU_TRY(what, call)                                                                   \
  do {                                                                                       \
    CUresult jshmem_r_ = (call);                                                             \
    if (jshmem_r_ != CUDA_SUCCESS) return drv_fail(what, jshmem_r_);                         \
  } while (0)
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

int jshmem_rt_memcpy_async(void *dst, const void *src, size_t n, void *stream) {
  BIND_DEVICE();
  GPU_TRY(gpuMemcpyAsync(dst, src, n, gpuMemcpyDefault, (gpuStream_t)stream));
  return 0;
}

int jshmem_rt_memcpy2d_async(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                             size_t height, void *stream) {
  BIND_DEVICE();
  GPU_TRY(gpuMemcpy2DAsync(dst, dpitch, src, spitch, width, height, gpuMemcpyDefault, (gpuStream_t)stream));
  return 0;
}

/* ------------------------------------------------------------------------------------------
 * Stream memory operations
 * ------------------------------------------------------------------------------------------ */
int jshmem_rt_stream_wait_value64(void *stream, void *addr, uint64_t value, int cmp) {
  CHECK_ARG(cmp == JSHMEM_CMP_EQ || cmp == JSHMEM_CMP_GE,
            "jshmem_rt_stream_wait_value64: comparison %d is not supported by the stream wait (only EQ=%d and "
            "GE=%d are): use the wait kernel form",
            cmp, JSHMEM_CMP_EQ, JSHMEM_CMP_GE);
  CHECK_ARG(addr != NULL && ((uintptr_t)addr & 7u) == 0,
            "jshmem_rt_stream_wait_value64: address %p is NULL or not 8-byte aligned", addr);
  BIND_DEVICE();
#if JSHMEM_IS_HIP
  GPU_TRY(hipStreamWaitValue64((hipStream_t)stream, addr, value,
                               cmp == JSHMEM_CMP_EQ ? hipStreamWaitValueEq : hipStreamWaitValueGte,
                               0xFFFFFFFFFFFFFFFFull));
#else
  if (drv() != 0) return -1;
  /* GEQ is cyclic on CUDA: (int64_t)(*addr - value) >= 0. */
  CU_TRY("cuStreamWaitValue64",
         g_drv.streamWaitValue64((CUstream)stream, (CUdeviceptr)(uintptr_t)addr, value,
                                 cmp == JSHMEM_CMP_EQ ? CU_STREAM_WAIT_VALUE_EQ : CU_STREAM_WAIT_VALUE_GEQ));
#endif
  return 0;
}

int jshmem_rt_stream_write_value64(void *stream, void *addr, uint64_t value) {
  CHECK_ARG(addr != NULL && ((uintptr_t)addr & 7u) == 0,
            "jshmem_rt_stream_write_value64: address %p is NULL or not 8-byte aligned", addr);
  BIND_DEVICE();
#if JSHMEM_IS_HIP
  GPU_TRY(hipStreamWriteValue64((hipStream_t)stream, addr, value, 0));
#else
  if (drv() != 0) return -1;
  /* DEFAULT (not NO_MEMORY_BARRIER): earlier work's writes are visible before the value. */
  CU_TRY("cuStreamWriteValue64", g_drv.streamWriteValue64((CUstream)stream, (CUdeviceptr)(uintptr_t)addr, value,
                                                          CU_STREAM_WRITE_VALUE_DEFAULT));
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

/* Where the kernel leaves the old value: one pinned, mapped word per OS thread, allocated on
 * first use and kept for the thread's life (a page per thread that did a host atomic), so that
 * threads never wait for each other's atomics. Host and device addresses of it: */
static thread_local unsigned long long *t_amo_host = NULL;
static thread_local unsigned long long *t_amo_dev = NULL;

int jshmem_rt_amo(void *addr, int width, int op, uint64_t value, uint64_t comparand, uint64_t *old,
                  void *stream) {
  if (amo_check("jshmem_rt_amo", addr, width, op) != 0) return -1;
  BIND_DEVICE();
  if (t_amo_host == NULL) {
    void *h = NULL, *d = NULL;
    GPU_TRY(gpuHostAlloc(&h, sizeof(unsigned long long), gpuHostAllocPortable | gpuHostAllocMapped));
    gpuError_t e = gpuHostGetDevicePointer(&d, h, 0);
    if (e != gpuSuccess) {
      (void)gpuFreeHost(h);
      return jshmem_rt_fail_gpu(JSHMEM_STR(gpuHostGetDevicePointer), e);
    }
    t_amo_host = (unsigned long long *)h;
    t_amo_dev = (unsigned long long *)d;
  }
  *(volatile unsigned long long *)t_amo_host = 0;
  if (jshmem_amo_launch(addr, width, op, value, comparand, t_amo_dev, (gpuStream_t)stream) != 0) return -1;
  GPU_TRY(gpuStreamSynchronize((gpuStream_t)stream));
  if (old != NULL) *old = *(volatile unsigned long long *)t_amo_host;
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

/* ------------------------------------------------------------------------------------------
 * Modules
 * ------------------------------------------------------------------------------------------ */
int jshmem_rt_module_load(const void *image, void **module) {
  CHECK_ARG(image != NULL && module != NULL, "jshmem_rt_module_load: image and module must not be NULL");
  *module = NULL;
  BIND_DEVICE();
#if JSHMEM_IS_HIP
  hipModule_t m = NULL;
  GPU_TRY(hipModuleLoadData(&m, image));
  *module = (void *)m;
#else
  if (drv() != 0) return -1;
  CUmodule m = NULL;
  CU_TRY("cuModuleLoadData", g_drv.moduleLoadData(&m, image));
  *module = (void *)m;
#endif
  return 0;
}

int jshmem_rt_module_unload(void *module) {
  CHECK_ARG(module != NULL, "jshmem_rt_module_unload: module is NULL");
  BIND_DEVICE();
#if JSHMEM_IS_HIP
  GPU_TRY(hipModuleUnload((hipModule_t)module));
#else
  if (drv() != 0) return -1;
  CU_TRY("cuModuleUnload", g_drv.moduleUnload((CUmodule)module));
#endif
  return 0;
}

int jshmem_rt_module_function(void *module, const char *name, void **fn) {
  CHECK_ARG(module != NULL && name != NULL && fn != NULL,
            "jshmem_rt_module_function: module, name and fn must not be NULL");
  *fn = NULL;
  BIND_DEVICE();
#if JSHMEM_IS_HIP
  hipFunction_t f = NULL;
  gpuError_t e = hipModuleGetFunction(&f, (hipModule_t)module, name);
  if (e != hipSuccess)
    return jshmem_rt_fail("hipModuleGetFunction(\"%s\"): %s (%s) (is the kernel extern \"C\"?)", name,
                          hipGetErrorString(e), hipGetErrorName(e));
  *fn = (void *)f;
#else
  if (drv() != 0) return -1;
  CUfunction f = NULL;
  CUresult r = g_drv.moduleGetFunction(&f, (CUmodule)module, name);
  if (r != CUDA_SUCCESS) {
    char what[300];
    snprintf(what, sizeof what, "cuModuleGetFunction(\"%.200s\") (is the kernel extern \"C\"?)", name);
    return drv_fail(what, r);
  }
  *fn = (void *)f;
#endif
  return 0;
}

int jshmem_rt_module_global(void *module, const char *name, void **ptr, size_t *bytes) {
  CHECK_ARG(module != NULL && name != NULL && ptr != NULL,
            "jshmem_rt_module_global: module, name and ptr must not be NULL");
  *ptr = NULL;
  size_t size = 0;
  BIND_DEVICE();
#if JSHMEM_IS_HIP
  hipDeviceptr_t d = NULL;
  gpuError_t e = hipModuleGetGlobal(&d, &size, (hipModule_t)module, name);
  if (e != hipSuccess)
    return jshmem_rt_fail("hipModuleGetGlobal(\"%s\"): %s (%s)", name, hipGetErrorString(e), hipGetErrorName(e));
  *ptr = (void *)d;
#else
  if (drv() != 0) return -1;
  CUdeviceptr d = 0;
  CUresult r = g_drv.moduleGetGlobal(&d, &size, (CUmodule)module, name);
  if (r != CUDA_SUCCESS) {
    char what[300];
    snprintf(what, sizeof what, "cuModuleGetGlobal(\"%.200s\")", name);
    return drv_fail(what, r);
  }
  *ptr = (void *)(uintptr_t)d;
#endif
  if (bytes != NULL) *bytes = size;
  return 0;
}

int jshmem_rt_launch(void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                     unsigned shared_bytes, void *stream, void **args) {
  CHECK_ARG(fn != NULL, "jshmem_rt_launch: fn is NULL");
  BIND_DEVICE();
#if JSHMEM_IS_HIP
  GPU_TRY(hipModuleLaunchKernel((hipFunction_t)fn, gx, gy, gz, bx, by, bz, shared_bytes, (hipStream_t)stream, args,
                                NULL));
#else
  if (drv() != 0) return -1;
  CUresult r =
      g_drv.launchKernel((CUfunction)fn, gx, gy, gz, bx, by, bz, shared_bytes, (CUstream)stream, args, NULL);
  if (r != CUDA_SUCCESS) {
    char what[200];
    snprintf(what, sizeof what, "cuLaunchKernel(grid %ux%ux%u, block %ux%ux%u, %u bytes shared)", gx, gy, gz, bx,
             by, bz, shared_bytes);
    return drv_fail(what, r);
  }
#endif
  return 0;
}

int jshmem_rt_func_set_max_dynamic_shared(void *fn, int bytes) {
  CHECK_ARG(fn != NULL && bytes >= 0, "jshmem_rt_func_set_max_dynamic_shared: fn is NULL or bytes (%d) < 0", bytes);
  BIND_DEVICE();
#if JSHMEM_IS_HIP
  /* AMD needs no opt-in: check the request against the block limit so that the error comes now. */
  int dev = 0, max = 0;
  GPU_TRY(hipGetDevice(&dev));
  GPU_TRY(hipDeviceGetAttribute(&max, hipDeviceAttributeMaxSharedMemoryPerBlock, dev));
  CHECK_ARG(bytes <= max, "jshmem_rt_func_set_max_dynamic_shared: %d bytes asked, device %d allows %d per block",
            bytes, dev, max);
#else
  if (drv() != 0) return -1;
  CU_TRY("cuFuncSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)",
         g_drv.funcSetAttribute((CUfunction)fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes));
#endif
  return 0;
}

/* ------------------------------------------------------------------------------------------
 * Run-time compilation: NVRTC / hiprtc through dlopen (same call shapes; the enums are ints
 * and the program handles pointers, so one table of function pointers serves both).
 * ------------------------------------------------------------------------------------------ */
typedef struct {
  const char *(*error_string)(int);
  int (*create)(void **prog, const char *src, const char *name, int n_headers, const char *const *headers,
                const char *const *include_names);
  int (*compile)(void *prog, int n_options, const char *const *options);
  int (*log_size)(void *prog, size_t *size);
  int (*log)(void *prog, char *log);
  int (*code_size)(void *prog, size_t *size); /* CUBIN (NVRTC) / code object (hiprtc) */
  int (*code)(void *prog, char *code);
  int (*ptx_size)(void *prog, size_t *size); /* NVRTC only */
  int (*ptx)(void *prog, char *ptx);
  int (*destroy)(void **prog);
} rtc_api_t;

static rtc_api_t g_rtc;
static pthread_once_t g_rtc_once = PTHREAD_ONCE_INIT;
static char g_rtc_error[1024];

#if JSHMEM_IS_HIP
#define RTC "hiprtc"
#define RTC_CODE "hiprtcGetCode"
/* ROCm >= 5.3 ships hiprtc apart; older ROCm (Debian's 5.2) has it inside libamdhip64. */
static const char *const rtc_libs[] = {"libhiprtc.so",         "libhiprtc.so.6", "libhiprtc.so.5",
                                       "/opt/rocm/lib/libhiprtc.so", "libamdhip64.so", "libamdhip64.so.5"};
#else
#define RTC "nvrtc"
#define RTC_CODE "nvrtcGetCUBIN"
static const char *const rtc_libs[] = {"libnvrtc.so.13",
                                       "libnvrtc.so",
                                       "/usr/local/cuda/lib64/libnvrtc.so.13",
                                       "/usr/local/cuda/lib64/libnvrtc.so",
                                       "/usr/local/cuda/targets/x86_64-linux/lib/libnvrtc.so.13",
                                       "/usr/local/cuda/targets/x86_64-linux/lib/libnvrtc.so"};
#endif

static void rtc_load(void) {
  const char *first_error = NULL;
  char first[400] = "";
  for (size_t i = 0; i < sizeof rtc_libs / sizeof rtc_libs[0]; i++) {
    void *h = dlopen(rtc_libs[i], RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
      if (first_error == NULL) {
        const char *e = dlerror();
        snprintf(first, sizeof first, "%s", e ? e : "?");
        first_error = first;
      }
      continue;
    }
    const struct {
      const char *name;
      void **slot;
    } table[] = {
        {RTC "GetErrorString", (void **)&g_rtc.error_string},
        {RTC "CreateProgram", (void **)&g_rtc.create},
        {RTC "CompileProgram", (void **)&g_rtc.compile},
        {RTC "GetProgramLogSize", (void **)&g_rtc.log_size},
        {RTC "GetProgramLog", (void **)&g_rtc.log},
        {RTC_CODE "Size", (void **)&g_rtc.code_size},
        {RTC_CODE, (void **)&g_rtc.code},
#if !JSHMEM_IS_HIP
        {"nvrtcGetPTXSize", (void **)&g_rtc.ptx_size},
        {"nvrtcGetPTX", (void **)&g_rtc.ptx},
#endif
        {RTC "DestroyProgram", (void **)&g_rtc.destroy},
    };
    int ok = 1;
    for (size_t j = 0; j < sizeof table / sizeof table[0]; j++) {
      *table[j].slot = dlsym(h, table[j].name);
      if (*table[j].slot == NULL) ok = 0;
    }
    if (ok) return;
    memset(&g_rtc, 0, sizeof g_rtc);
    dlclose(h);
  }
  snprintf(g_rtc_error, sizeof g_rtc_error,
           "run-time compilation: no usable %s library (tried %s and more; first error: %s)", RTC, rtc_libs[0],
           first_error ? first_error : "the libraries found lack the " RTC " functions");
}

/* Architecture named by the caller's options, or NULL (accepts "--opt=arch" and "--opt arch"). */
static const char *rtc_arch_option(const char **options, int n_options) {
  static const char *const keys[] = {"--gpu-architecture", "-arch", "--offload-arch"};
  for (int i = 0; i < n_options; i++) {
    const char *o = options[i];
    if (o == NULL) continue;
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
      size_t kl = strlen(keys[k]);
      if (strncmp(o, keys[k], kl) != 0) continue;
      if (o[kl] == '=') return o + kl + 1;
      if (o[kl] == '\0' && i + 1 < n_options && options[i + 1] != NULL) return options[i + 1];
    }
  }
  return NULL;
}

/* Copies the program's log into a malloc'd string (NULL when empty). */
static char *rtc_take_log(void *prog) {
  size_t n = 0;
  if (g_rtc.log_size(prog, &n) != 0 || n <= 1) return NULL;
  char *s = (char *)malloc(n + 1);
  if (s == NULL) return NULL;
  if (g_rtc.log(prog, s) != 0) {
    free(s);
    return NULL;
  }
  s[n] = '\0';
  return s;
}

int jshmem_rt_rtc_compile(const char *source, const char *name, const char **options, int n_options, void **image,
                          size_t *image_size, char **log) {
  CHECK_ARG(source != NULL && image != NULL && image_size != NULL && log != NULL,
            "jshmem_rt_rtc_compile: source, image, image_size and log must not be NULL");
  CHECK_ARG(n_options >= 0 && (n_options == 0 || options != NULL), "jshmem_rt_rtc_compile: bad options (%d)",
            n_options);
  *image = NULL;
  *image_size = 0;
  *log = NULL;
  if (name == NULL) name = "jshmem_rtc.cu";
  pthread_once(&g_rtc_once, rtc_load);
  if (g_rtc_error[0] != '\0') return jshmem_rt_fail("%s", g_rtc_error);

  /* The target: the caller's (then no GPU is needed: compile checks work anywhere), or the
   * current device's. */
  char arch_opt[300] = "";
  const char *arch = rtc_arch_option(options, n_options);
  int want_ptx = !JSHMEM_IS_HIP && arch != NULL && strncmp(arch, "compute_", 8) == 0; /* PTX: CUDA only */
  if (arch == NULL) {
    int dev = 0;
    BIND_DEVICE();
    GPU_TRY(gpuGetDevice(&dev));
#if JSHMEM_IS_HIP
    hipDeviceProp_t p;
    GPU_TRY(hipGetDeviceProperties(&p, dev));
    snprintf(arch_opt, sizeof arch_opt, "--gpu-architecture=%s", p.gcnArchName);
#else
    int major = 0, minor = 0;
    GPU_TRY(gpuDeviceGetAttribute(&major, gpuDevAttrComputeCapabilityMajor, dev));
    GPU_TRY(gpuDeviceGetAttribute(&minor, gpuDevAttrComputeCapabilityMinor, dev));
    snprintf(arch_opt, sizeof arch_opt, "--gpu-architecture=sm_%d%d", major, minor);
#endif
  }
  const char **opts = (const char **)malloc(sizeof(char *) * (size_t)(n_options + 1));
  CHECK_ARG(opts != NULL, "jshmem_rt_rtc_compile: out of host memory");
  int n = 0;
  for (int i = 0; i < n_options; i++) opts[n++] = options[i];
  if (arch_opt[0] != '\0') opts[n++] = arch_opt;

  void *prog = NULL;
  int r = g_rtc.create(&prog, source, name, 0, NULL, NULL);
  if (r != 0) {
    free(opts);
    return jshmem_rt_fail(RTC "CreateProgram(%s): %s", name, g_rtc.error_string(r));
  }
  r = g_rtc.compile(prog, n, opts);
  free(opts);
  *log = rtc_take_log(prog);
  if (r != 0) {
    g_rtc.destroy(&prog);
    return jshmem_rt_fail(RTC "CompileProgram(%s, %s): %s; log:\n%.1500s", name,
                          arch_opt[0] ? arch_opt : arch, g_rtc.error_string(r), *log ? *log : "(empty)");
  }
  size_t size = 0;
  const char *step = want_ptx ? RTC "GetPTXSize" : RTC_CODE "Size";
  r = want_ptx ? g_rtc.ptx_size(prog, &size) : g_rtc.code_size(prog, &size);
  char *code = NULL;
  if (r == 0) {
    code = (char *)malloc(size > 0 ? size : 1);
    if (code == NULL) {
      g_rtc.destroy(&prog);
      return jshmem_rt_fail("jshmem_rt_rtc_compile: out of host memory for a %zu-byte image", size);
    }
    step = want_ptx ? RTC "GetPTX" : RTC_CODE;
    r = want_ptx ? g_rtc.ptx(prog, code) : g_rtc.code(prog, code);
  }
  g_rtc.destroy(&prog);
  if (r != 0) {
    free(code);
    return jshmem_rt_fail("%s(%s): %s", step, name, g_rtc.error_string(r));
  }
  *image = code;
  *image_size = size;
  return 0;
}

void jshmem_rt_free_buffer(void *buffer) { free(buffer); }

} /* extern "C" */
