/* kernel_trace.cuh - the spans the runtime's kernels record for a traced stream operation
 * (jshmemk_op, kernel_launch.h). Included after <jshmem/jshmem.h>, whose device state it records into:
 * each translation unit's own copy. */
#ifndef JSHMEM_KERNEL_TRACE_CUH
#define JSHMEM_KERNEL_TRACE_CUH

#include "kernel_launch.h"

/* Records this block's span of a traced operation from construction (after jshmemk_chain_start) to the
 * end of the kernel, by thread 0; takes its record at the start, so the atomic's round trip overlaps the
 * work. Declared at the kernel's top level, it ends when the kernel does. */
namespace {   /* each translation unit's kernels record into that unit's copy of the device state */
struct jshmemk_span {
  const char *category;
  const char *name;
  unsigned op;
  unsigned long long begin;
  unsigned long long slot;

  __device__ jshmemk_span(jshmemk_op o, const char *category, const char *name)
      : category(category), name(name), op(o.id), begin(0), slot(~0ull) {
    if (op != 0 && threadIdx.x == 0 && jshmem_device_state.trace != 0) {
      begin = jshmemi_now_ns();
      slot = jshmemi_trace_take(jshmem_device_state.trace);
    }
  }
  __device__ ~jshmemk_span() {
    if (op != 0 && threadIdx.x == 0 && jshmem_device_state.trace != 0)
      jshmemi_trace_write(jshmem_device_state.trace, slot, category, name, begin, jshmemi_now_ns(), -1, op);
  }
};
}  // namespace

#endif /* JSHMEM_KERNEL_TRACE_CUH */
