/* fg_internal.h - what fg_alloc.cu and fg_torch.cu share and do not export. */
#ifndef FG_INTERNAL_H
#define FG_INTERNAL_H

#include "gpu.h" /* the CUDA / HIP names shared with the jshmem shim (native/include) */

#if JSHMEM_IS_HIP
#define FG_MALLOC_NAME "hipExtMallocWithFlags(hipDeviceMallocFinegrained)"
#else
#define FG_MALLOC_NAME "cudaMalloc"
#endif
#define FG_PLATFORM JSHMEM_PLATFORM

namespace fgi { /* C++ names: the version script exports only the C fg_* API */
/* One fine-grained, IPC-exportable allocation of `n` bytes on the current device. */
gpuError_t device_malloc(void **p, size_t n);
}

#endif /* FG_INTERNAL_H */
