/*
 * amo_kernels.cu - the kernel behind jshmem_rt_amo: one thread applies one atomic operation with
 * SYSTEM scope, because the word may live in a peer's heap (mapped over NVLink / xGMI) and other
 * PEs may be updating it at the same time, from their GPUs or through this same path.
 */
#include <jshmem/jshmem_state.h>

#include "kernel_launch.h"
#include "shim_internal.h"

template <typename T>
__device__ T amo_apply(T *p, int op, T value, T comparand) {
  switch (op) {
    case JSHMEM_AMO_FETCH:
      __threadfence_system(); /* what other PEs wrote before the fence is seen */
      return *(volatile T *)p;
    case JSHMEM_AMO_SET:
    case JSHMEM_AMO_SWAP:
      return atomicExch_system(p, value);
    case JSHMEM_AMO_COMPARE_SWAP:
      return atomicCAS_system(p, comparand, value);
    case JSHMEM_AMO_ADD:
    case JSHMEM_AMO_FETCH_ADD:
      return atomicAdd_system(p, value);
    case JSHMEM_AMO_AND:
    case JSHMEM_AMO_FETCH_AND:
      return atomicAnd_system(p, value);
    case JSHMEM_AMO_OR:
    case JSHMEM_AMO_FETCH_OR:
      return atomicOr_system(p, value);
    case JSHMEM_AMO_XOR:
    case JSHMEM_AMO_FETCH_XOR:
      return atomicXor_system(p, value);
    default: /* checked on the host */
      return 0;
  }
}

/* unsigned int / unsigned long long: the types both vendors' atomics are overloaded for. */
__global__ void jshmem_amo_kernel(void *addr, int width, int op, unsigned long long value,
                                  unsigned long long comparand, unsigned long long *out) {
  unsigned long long old;
  if (width == 4)
    old = amo_apply<unsigned int>((unsigned int *)addr, op, (unsigned int)value, (unsigned int)comparand);
  else
    old = amo_apply<unsigned long long>((unsigned long long *)addr, op, value, comparand);
  if (out != nullptr) *(volatile unsigned long long *)out = old;
}

int jshmem_amo_launch(void *addr, int width, int op, unsigned long long value, unsigned long long comparand,
                      unsigned long long *out, gpuStream_t stream) {
  return jshmemk_launch<jshmem_amo_kernel>("jshmem_amo_kernel", 1, 1, stream, false, addr, width, op, value, comparand,
                                           out);
}
