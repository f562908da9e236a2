/*
 * jshmem.h - the jshmem device library: include this one header in a kernel source.
 *
 *   #include <jshmem/jshmem.h>
 *   extern "C" __global__ void ring(int *dst, const int *src, size_t n) {
 *     int right = (jshmem_my_pe() + 1) % jshmem_n_pes();
 *     jshmem_int_put_nbi_block(dst, src, n, right);
 *   }
 *
 * The same source builds with nvcc, NVRTC (CUDA, sm_70+), hipcc and hiprtc (AMD). Names follow
 * NVSHMEM with the jshmem_ prefix; warp and block scopes are suffixes (_warp, _block).
 *
 * State binding: this header defines the one device symbol
 *     __constant__ jshmem_device_state_t jshmem_device_state;
 * in the module that includes it. After loading the module, the Java side looks the symbol up by
 * name (cuModuleGetGlobal / hipModuleGetGlobal) and copies the PE's jshmem_device_state_t into it
 * before the first launch. A program built from several translation units with relocatable
 * device code (-rdc) defines it in one of them and defines JSHMEM_STATE_EXTERN before including
 * this header in the others. Without -rdc, each translation unit of a program may instead own a
 * copy under another name: `#define jshmem_device_state my_state` before including this header
 * (every jshmem function then uses my_state; the program fills each copy), as the runtime shim's
 * collectives (coll_kernels.cu) do.
 *
 * Headers, one job each (included here in dependency order; include this umbrella, not them):
 *   jshmem_arch.h     CUDA / HIP differences        jshmem_sync.h    system-scope loads/stores/fences
 *   jshmem_query.h    my_pe, n_pes, ptr, teams      jshmem_debug.h   debug-mode checks
 *   jshmem_copy.h     vectorised copy loops         jshmem_proxy.h   calls to other nodes' PEs
 *   jshmem_rma.h      put/get/p/g
 *   jshmem_amo.h      atomics                       jshmem_signal.h  signals, put_signal, wait/test
 *   jshmem_barrier.h  block-scope barrier and sync    jshmem_coll.h    block-scope collectives
 *   jshmem_trace.h    a kernel's spans in the job's trace (JSHMEM_TRACE)
 */
#ifndef JSHMEM_H
#define JSHMEM_H

#include "jshmem_arch.h"
#include "jshmem_state.h"

#if defined(JSHMEM_STATE_EXTERN)
extern __constant__ jshmem_device_state_t jshmem_device_state;
#else
__constant__ jshmem_device_state_t jshmem_device_state;
#endif

#include "jshmem_sync.h"
#include "jshmem_query.h"
#include "jshmem_debug.h"
#include "jshmem_copy.h"
#include "jshmem_proxy.h"
#include "jshmem_rma.h"
#include "jshmem_amo.h"
#include "jshmem_signal.h"
#include "jshmem_barrier.h"
#include "jshmem_coll.h"
#include "jshmem_trace.h"

#endif /* JSHMEM_H */
