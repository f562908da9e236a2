/*
 * shim_error.h - how the shim reports failure (as Aeron's C client does): every exported
 * function returns 0 on success and -1 on failure, and leaves a message in a thread-local
 * buffer that jshmem_rt_last_error() returns and Java turns into a GpuException.
 * The message names the runtime call and the error: "cudaMemcpyAsync: invalid argument (cudaErrorInvalidValue)".
 */
#ifndef JSHMEM_SHIM_ERROR_H
#define JSHMEM_SHIM_ERROR_H

#include "gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Sets the thread's last error message (printf-style) and returns -1. */
int jshmem_rt_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The calling thread's last error message ("" if none). */
const char *jshmem_rt_last_error(void);

#ifdef __cplusplus
}
#endif

/* Records "<name>: <string> (<error name>)" for a failed runtime call and returns -1; the name
 * is `call_text` up to its '('. */
int jshmem_rt_fail_gpu(const char *call_text, gpuError_t err);

/* Stringizes after macro expansion, so that "gpuMemcpy(...)" reads "cudaMemcpy(...)" or
 * "hipMemcpy(...)": users see the real API name. */
#define JSHMEM_STR_(x) #x
#define JSHMEM_STR(x) JSHMEM_STR_(x)

/* Evaluates a runtime call; on failure records "<call>: <string> (<name>)" and returns -1. */
#define GPU_TRY(call)                                                                        \
  do {                                                                                       \
    gpuError_t jshmem_err_ = (call);                                                         \
    if (jshmem_err_ != gpuSuccess) return jshmem_rt_fail_gpu(JSHMEM_STR(call), jshmem_err_); \
  } while (0)

#endif /* JSHMEM_SHIM_ERROR_H */
