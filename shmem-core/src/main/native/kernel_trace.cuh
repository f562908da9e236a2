/* kernel_trace.cuh - the spans the runtime's kernels record for a traced stream operation
 * (jshmemk_op, kernel_launch.h). Included after <jshmem/jshmem.h>. */
#ifndef JSHMEM_KERNEL_TRACE_CUH
#define JSHMEM_KERNEL_TRACE_CUH

#include "kernel_launch.h"

/* Records this block's span of a traced operation, by thread 0, from construction (after
 * jshmemk_chain_start) to the end of the kernel: declared at the kernel's top level, it ends when the
 * kernel does. */
struct jshmemk_span {
  const char *category;
  const char *name;
  jshmemk_op op;
  unsigned long long begin;

  template <size_t N>
  __device__ jshmemk_span(jshmemk_op o, const char (&category)[N], const char *name)
      : category(category), name(name), op(o), begin(0) {
    static_assert(N <= JSHMEM_TRACE_CATEGORY, "the category fits the record's field whole");
    if (op.records != NULL && threadIdx.x == 0) begin = jshmemi_now_ns();
  }
  __device__ ~jshmemk_span() {
    if (op.records != NULL && threadIdx.x == 0)
      jshmemi_trace_fill(op.records + blockIdx.x, category, name, begin, jshmemi_now_ns(), -1, op.id);
  }
};

#endif /* JSHMEM_KERNEL_TRACE_CUH */
