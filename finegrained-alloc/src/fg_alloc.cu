/*
 * fg_alloc.cu - fine-grained, IPC-shareable device memory (see include/fg_alloc.h).
 * One source: nvcc builds it for CUDA, `hipcc -x hip` for HIP. The PyTorch allocator is in fg_torch.cu.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fg_alloc.h"


#include "fg_internal.h"

gpuError_t fgi::device_malloc(void **p, size_t n) {
#if JSHMEM_IS_HIP
  /* Fine-grained: peers' and the host's accesses stay coherent while kernels run (the default,
   * coarse-grained memory is only made coherent at kernel boundaries). */
  return hipExtMallocWithFlags(p, n, hipDeviceMallocFinegrained);
#else
  /* Plain device memory: NVLink peers' loads, stores and system-scope atomics on it are coherent. */
  return cudaMalloc(p, n);
#endif
}

static_assert(sizeof(gpuIpcMemHandle_t) <= FG_HANDLE_MAX, "FG_HANDLE_MAX too small for the IPC handle");

static thread_local char t_message[1024];

static int fg_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fg_fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(t_message, sizeof t_message, fmt, ap);
  va_end(ap);
  return -1;
}

/* "<what>: <error string> (<error name>)" */
static int fg_fail_rt(const char *what, gpuError_t e) {
  return fg_fail("%s: %s (%s)", what, gpuGetErrorString(e), gpuGetErrorName(e));
}

extern "C" {

const char *fg_last_error(void) { return t_message; }

const char *fg_platform(void) { return FG_PLATFORM; }

int fg_alloc_shareable(size_t bytes, void **ptr) {
  if (ptr == NULL) return fg_fail("fg_alloc_shareable: ptr is NULL");
  *ptr = NULL;
  if (bytes == 0) return fg_fail("fg_alloc_shareable: bytes is 0");
  gpuError_t e = fgi::device_malloc(ptr, bytes);
  if (e != gpuSuccess) {
    int dev = -1;
    (void)gpuGetDevice(&dev);
    *ptr = NULL;
    char what[160];
    snprintf(what, sizeof what, "%s of %zu bytes on device %d", FG_MALLOC_NAME, bytes, dev);
    return fg_fail_rt(what, e);
  }
  return 0;
}

int fg_free_shareable(void *ptr) {
  if (ptr == NULL) return 0;
  gpuError_t e = gpuFree(ptr);
  if (e != gpuSuccess) return fg_fail_rt(FG_PLATFORM "Free", e);
  return 0;
}

int fg_export(void *ptr, void *handle, size_t *handle_len) {
  if (ptr == NULL || handle == NULL || handle_len == NULL)
    return fg_fail("fg_export: ptr, handle and handle_len must not be NULL");
  gpuIpcMemHandle_t h;
  gpuError_t e = gpuIpcGetMemHandle(&h, ptr);
  if (e != gpuSuccess) return fg_fail_rt(FG_PLATFORM "IpcGetMemHandle", e);
  memcpy(handle, &h, sizeof h);
  *handle_len = sizeof h;
  return 0;
}

int fg_import(const void *handle, size_t handle_len, void **ptr) {
  if (handle == NULL || ptr == NULL) return fg_fail("fg_import: handle and ptr must not be NULL");
  *ptr = NULL;
  gpuIpcMemHandle_t h;
  if (handle_len != sizeof h)
    return fg_fail("fg_import: handle is %zu bytes, expected %zu (exported by a library built for another platform?)",
                   handle_len, sizeof h);
  memcpy(&h, handle, sizeof h);
  gpuError_t e = gpuIpcOpenMemHandle(ptr, h, gpuIpcMemLazyEnablePeerAccess);
  if (e != gpuSuccess) {
    int dev = -1;
    (void)gpuGetDevice(&dev);
    *ptr = NULL;
    char what[160];
    snprintf(what, sizeof what, FG_PLATFORM "IpcOpenMemHandle on device %d", dev);
    return fg_fail_rt(what, e);
  }
  return 0;
}

int fg_unimport(void *ptr) {
  if (ptr == NULL) return 0;
  gpuError_t e = gpuIpcCloseMemHandle(ptr);
  if (e != gpuSuccess) return fg_fail_rt(FG_PLATFORM "IpcCloseMemHandle", e);
  return 0;
}

} /* extern "C" */
