/*
 * jshmem_arch.h - what differs between CUDA and HIP, in one place.
 *
 * Everything above this header is written once for both. Here:
 *   - which platform compiles us (JSHMEM_ARCH_CUDA or JSHMEM_ARCH_HIP, exactly one is 1),
 *   - the runtime header to include (none under NVRTC/hiprtc, which predefine the built-ins),
 *   - warp (CUDA, 32 lanes) versus wavefront (AMD, 64 lanes on gfx9),
 *   - thread, lane and group synchronisation helpers, and how to trap.
 * Names starting with jshmemi_ / JSHMEMI_ are internal.
 */
#ifndef JSHMEM_ARCH_H
#define JSHMEM_ARCH_H

/* hipcc for AMD (clang in HIP mode) defines __HIP__; hiprtc defines __HIPCC_RTC__. hipcc built for
 * the NVIDIA platform is nvcc underneath and takes the CUDA path. */
#if defined(__HIP__) || defined(__HIPCC_RTC__) || defined(__HIP_PLATFORM_AMD__) || \
    defined(__HIP_PLATFORM_HCC__)
#define JSHMEM_ARCH_HIP 1
#define JSHMEM_ARCH_CUDA 0
#else
#define JSHMEM_ARCH_HIP 0
#define JSHMEM_ARCH_CUDA 1
#endif

#if JSHMEM_ARCH_HIP && !defined(__HIPCC_RTC__)
#include <hip/hip_runtime.h>
#endif
#if JSHMEM_ARCH_CUDA && !defined(__CUDACC_RTC__)
#include <cstdio> /* device printf of debug mode (NVRTC declares it itself) */
#endif

#if JSHMEM_ARCH_CUDA && defined(__CUDA_ARCH__) && (__CUDA_ARCH__ < 700)
#error "jshmem device code needs sm_70 or newer (acquire/release at system scope)"
#endif

/* Function qualifiers: small wrappers are forced inline, loops are left to the compiler. */
#define JSHMEM_DEVICE __device__ inline
#define JSHMEM_DEVICE_INLINE __device__ __forceinline__
#define JSHMEM_DEVICE_NOINLINE inline __device__ __noinline__

#define JSHMEM_LIKELY(x) __builtin_expect(!!(x), 1)
#define JSHMEM_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* Lanes per warp (CUDA) or wavefront (AMD). */
#if JSHMEM_ARCH_HIP
#if defined(__AMDGCN_WAVEFRONT_SIZE)
#define JSHMEM_WARP_SIZE __AMDGCN_WAVEFRONT_SIZE
#else
#define JSHMEM_WARP_SIZE 64
#endif
#else
#define JSHMEM_WARP_SIZE 32
#endif

/* Linear index of the calling thread in its block, and the number of threads in the block
 * (1-, 2- and 3-D blocks alike; warps are formed from consecutive linear indices). */
JSHMEM_DEVICE_INLINE unsigned jshmemi_thread_id() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
JSHMEM_DEVICE_INLINE unsigned jshmemi_block_size() {
  return blockDim.x * blockDim.y * blockDim.z;
}
/* Lane of the calling thread in its warp, and how many lanes that warp has (the last warp of a
 * block whose size is not a multiple of the warp size is partial). */
JSHMEM_DEVICE_INLINE unsigned jshmemi_lane() {
  return jshmemi_thread_id() % JSHMEM_WARP_SIZE;
}
JSHMEM_DEVICE_INLINE unsigned jshmemi_warp_lanes() {
  unsigned first = jshmemi_thread_id() - jshmemi_lane();
  unsigned left = jshmemi_block_size() - first;
  return left < JSHMEM_WARP_SIZE ? left : JSHMEM_WARP_SIZE;
}

/* Warp barrier with memory ordering among the warp's lanes (all lanes of the warp call it). */
JSHMEM_DEVICE_INLINE void jshmemi_warp_sync() {
#if JSHMEM_ARCH_HIP
  /* A wavefront runs in lock step; the fences keep the compiler from moving memory operations
   * across the barrier and order them at wavefront scope. */
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
#else
  unsigned lanes = jshmemi_warp_lanes();
  __syncwarp(lanes == 32 ? 0xffffffffu : ((1u << lanes) - 1u));
#endif
}

/* Block barrier: CTA-scope acquire/release among the block's threads (__syncthreads). */
JSHMEM_DEVICE_INLINE void jshmemi_block_sync() { __syncthreads(); }

/* Around a group barrier that hands the group's stores to one thread for a system-scope release
 * (put_signal, barrier), or that hands one thread's system-scope acquire to the group.
 * CUDA: nothing; the PTX memory model makes release/acquire cumulative over bar.sync/__syncwarp
 * (NVSHMEM relies on the same). HIP: each thread fences at system scope itself, because older
 * AMDGPU compilers did not make workgroup barriers transitive to wider-scope releases. */
JSHMEM_DEVICE_INLINE void jshmemi_group_release_fence() {
#if JSHMEM_ARCH_HIP
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "");
#endif
}
JSHMEM_DEVICE_INLINE void jshmemi_group_acquire_fence() {
#if JSHMEM_ARCH_HIP
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "");
#endif
}

/* Stops the kernel; the host sees a launch failure (the context is lost on CUDA). */
JSHMEM_DEVICE_INLINE void jshmemi_trap() {
#if JSHMEM_ARCH_HIP
  __builtin_trap();
#else
  __trap();
#endif
}

/* Nanoseconds on the GPU's global clock (CUDA: %globaltimer; HIP: the 100 MHz constant clock of gfx90a),
 * the same on every multiprocessor: for timeouts and trace timestamps. */
JSHMEM_DEVICE_INLINE unsigned long long jshmemi_now_ns() {
#if JSHMEM_ARCH_HIP
#if defined(__HIP_DEVICE_COMPILE__)
  return __builtin_amdgcn_s_memrealtime() * 10ull;
#else
  return 0;
#endif
#else
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
#endif
}

/* A 16-byte word for vector copies (one 128-bit load/store instruction). */
#if JSHMEM_ARCH_HIP
typedef unsigned int jshmemi_v16 __attribute__((ext_vector_type(4)));
#else
typedef uint4 jshmemi_v16;
#endif

/* Address arithmetic on pointers without uintptr_t (not predefined under the run-time compilers). */
JSHMEM_DEVICE_INLINE unsigned long long jshmemi_addr(const void *p) {
  return (unsigned long long)p;
}

#endif /* JSHMEM_ARCH_H */
