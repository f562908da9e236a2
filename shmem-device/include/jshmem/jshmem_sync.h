/*
 * jshmem_sync.h - memory ordering at system scope: the few loads, stores, atomics and fences that
 * every flag, signal and barrier in jshmem is built from.
 *
 * "System scope" covers every GPU (and the CPU) that maps the memory: a PE's heap is written by
 * its peers over NVLink / xGMI, so anything another PE reads is written at system scope.
 *
 *   jshmemi_ld_acquire_sys   load, acquire, system scope: later loads/stores of this thread are
 *                            not performed before it; pairs with a release of the writer.
 *   jshmemi_st_release_sys   store, release, system scope: this thread's earlier loads/stores
 *                            (and what it observed through a block barrier before, by
 *                            cumulativity) are visible system-wide before the store is.
 *   jshmemi_add_release_sys  atomic add (no result), release, system scope.
 *   jshmemi_ld_relaxed_sys / jshmemi_st_relaxed_sys
 *                            relaxed, system scope (volatile): single-copy atomic for naturally
 *                            aligned 1/2/4/8-byte values, never cached in L1, never merged or
 *                            deferred by the compiler; no ordering with other addresses.
 *   jshmem_fence / jshmem_quiet
 *                            full fence at system scope (fence.sc.sys / seq_cst system).
 *
 * CUDA: inline PTX (ld.acquire.sys.global, st.release.sys.global, red.release.sys.global), needs
 * sm_70+. HIP: __hip_atomic_* builtins with __HIP_MEMORY_SCOPE_SYSTEM.
 */
#ifndef JSHMEM_SYNC_H
#define JSHMEM_SYNC_H

#include "jshmem_arch.h"
#include "jshmem_state.h"

/* ---- acquire loads ---------------------------------------------------------------------- */

JSHMEM_DEVICE_INLINE unsigned int jshmemi_ld_acquire_sys(const unsigned int *p) {
#if JSHMEM_ARCH_HIP
  return __hip_atomic_load(p, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_SYSTEM);
#else
  unsigned int v;
  asm volatile("ld.acquire.sys.global.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
#endif
}

JSHMEM_DEVICE_INLINE unsigned long long jshmemi_ld_acquire_sys(const unsigned long long *p) {
#if JSHMEM_ARCH_HIP
  return __hip_atomic_load(p, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_SYSTEM);
#else
  unsigned long long v;
  asm volatile("ld.acquire.sys.global.b64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
#endif
}

/* ---- release stores and atomics --------------------------------------------------------- */

JSHMEM_DEVICE_INLINE void jshmemi_st_release_sys(unsigned int *p, unsigned int v) {
#if JSHMEM_ARCH_HIP
  __hip_atomic_store(p, v, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_SYSTEM);
#else
  asm volatile("st.release.sys.global.b32 [%0], %1;" : : "l"(p), "r"(v) : "memory");
#endif
}

JSHMEM_DEVICE_INLINE void jshmemi_st_release_sys(unsigned long long *p, unsigned long long v) {
#if JSHMEM_ARCH_HIP
  __hip_atomic_store(p, v, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_SYSTEM);
#else
  asm volatile("st.release.sys.global.b64 [%0], %1;" : : "l"(p), "l"(v) : "memory");
#endif
}

JSHMEM_DEVICE_INLINE void jshmemi_add_release_sys(unsigned long long *p, unsigned long long v) {
#if JSHMEM_ARCH_HIP
  (void)__hip_atomic_fetch_add(p, v, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_SYSTEM);
#else
  asm volatile("red.release.sys.global.add.u64 [%0], %1;" : : "l"(p), "l"(v) : "memory");
#endif
}

/* Adds v and returns the old value, acquire-release at system scope (a count whose last adder goes on to
 * release what every adder stored, as gemm-ext's all-scatter counts the tiles it sent). */
JSHMEM_DEVICE_INLINE unsigned long long jshmemi_fetch_add_acq_rel_sys(unsigned long long *p, unsigned long long v) {
#if JSHMEM_ARCH_HIP
  return __hip_atomic_fetch_add(p, v, __ATOMIC_ACQ_REL, __HIP_MEMORY_SCOPE_SYSTEM);
#else
  unsigned long long old;
  asm volatile("atom.acq_rel.sys.global.add.u64 %0, [%1], %2;" : "=l"(old) : "l"(p), "l"(v) : "memory");
  return old;
#endif
}

/* ---- relaxed (volatile) loads and stores, any 1/2/4/8-byte type --------------------------- */

template <typename T>
JSHMEM_DEVICE_INLINE T jshmemi_ld_relaxed_sys(const T *p) {
  return *(const volatile T *)p;
}

template <typename T>
JSHMEM_DEVICE_INLINE void jshmemi_st_relaxed_sys(T *p, T v) {
  *(volatile T *)p = v;
}

/* ---- fences ------------------------------------------------------------------------------ */

/* jshmem_quiet: every load, store and atomic that the calling thread issued before (to any PE)
 * is complete and visible system-wide before any it issues after. Thread scope: in a block-scope
 * pattern, __syncthreads() first and let one thread call it (a fence after a block barrier also
 * covers what the other threads wrote before the barrier: cumulativity). Stores to peers are
 * plain NVLink stores, so this is one system fence. */
JSHMEM_DEVICE_INLINE void jshmem_quiet() { __threadfence_system(); }

/* jshmem_pe_quiet (OpenSHMEM 1.6): the calling thread's operations to the npes PEs in target_pes are
 * complete. The one system fence completes those to every PE, so the list is not read. */
JSHMEM_DEVICE_INLINE void jshmem_pe_quiet(const int *target_pes, size_t npes) {
  (void)target_pes;
  (void)npes;
  __threadfence_system();
}

/* jshmem_fence: orders the calling thread's puts, AMOs and signals to each PE: the ones before it
 * are delivered before the ones after it. Same instruction as quiet here (system fence). */
JSHMEM_DEVICE_INLINE void jshmem_fence() { __threadfence_system(); }

/* ---- comparisons (JSHMEM_CMP_*), for wait_until/test ------------------------------------- */

template <typename T>
JSHMEM_DEVICE_INLINE bool jshmemi_compare(T value, int cmp, T operand) {
  switch (cmp) {
    case JSHMEM_CMP_EQ: return value == operand;
    case JSHMEM_CMP_NE: return value != operand;
    case JSHMEM_CMP_GT: return value > operand;
    case JSHMEM_CMP_GE: return value >= operand;
    case JSHMEM_CMP_LT: return value < operand;
    case JSHMEM_CMP_LE: return value <= operand;
    default: return false;
  }
}

/* ---- typed access through the unsigned word of the same size ------------------------------ */

template <int Bytes> struct jshmemi_word;
template <> struct jshmemi_word<4> { typedef unsigned int type; };
template <> struct jshmemi_word<8> { typedef unsigned long long type; };

/* Acquire load of a 4- or 8-byte integer of any signedness. */
template <typename T>
JSHMEM_DEVICE_INLINE T jshmemi_load_acquire(const T *p) {
  typedef typename jshmemi_word<sizeof(T)>::type W;
  return (T)jshmemi_ld_acquire_sys((const W *)p);
}

/* ---- stuck waits (JSHMEM_WAIT_TIMEOUT) -------------------------------------------------------
 * With the state's wait_timeout_ms set, a wait that has seen no progress for that long prints on this
 * PE what it waits for and what it sees, then traps: the host's next call on the stream fails, and
 * the job's output holds a line per stuck PE instead of a silent hang. Unset (0), a wait costs one
 * comparison more than a bare spin. With JSHMEM_NO_WAIT_REPORT (jshmem's run-time compiles when no
 * timeout is set) waits are bare spins and kernels hold no printf call: on Hopper a call anywhere in a
 * kernel serialises its wgmma instructions (ptxas C7510). */
struct jshmemi_patience {
  unsigned long long limit_ns, since, waited_ns;
  unsigned polls;
  JSHMEM_DEVICE_INLINE jshmemi_patience()
      : limit_ns((unsigned long long)jshmem_device_state.wait_timeout_ms * 1000000ull), since(0), waited_ns(0),
        polls(0) {}
  /* Whether the wait has gone on past the limit (waited_ns: how long); the clock is read every 1024 polls. */
  JSHMEM_DEVICE_INLINE bool over() {
#ifdef JSHMEM_NO_WAIT_REPORT
    return false;
#else
    if (JSHMEM_LIKELY(limit_ns == 0) || (++polls & 1023u) != 0) return false;
    unsigned long long now = jshmemi_now_ns();
    if (since == 0) since = now;
    waited_ns = now - since;
    return waited_ns > limit_ns;
#endif
  }
};

JSHMEM_DEVICE_INLINE const char *jshmemi_cmp_name(int cmp) {
  switch (cmp) {
    case JSHMEM_CMP_EQ: return "==";
    case JSHMEM_CMP_NE: return "!=";
    case JSHMEM_CMP_GT: return ">";
    case JSHMEM_CMP_GE: return ">=";
    case JSHMEM_CMP_LT: return "<";
    case JSHMEM_CMP_LE: return "<=";
    default: return "?";
  }
}

/* Reports a wait on the word at p (`what` names it) stuck for waited_ns, and traps. */
JSHMEM_DEVICE_NOINLINE void jshmemi_stuck(const char *fn, const void *p, const char *what, int cmp,
                                          unsigned long long expected, unsigned long long seen,
                                          unsigned long long waited_ns) {
  const jshmem_device_state_t &s = jshmem_device_state;
  long long offset = (long long)(jshmemi_addr(p) - jshmemi_addr(s.heap_base));
  bool in_heap = offset >= 0 && (unsigned long long)offset < s.heap_size;
  printf("jshmem: PE %d: %s (block %u, thread %u) made no progress for %llu ms (JSHMEM_WAIT_TIMEOUT %d ms): it"
         " waits until %s at %s %lld (%p) is %s %llu; it is %llu\n",
         s.my_pe, fn, blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z), jshmemi_thread_id(),
         waited_ns / 1000000ull, s.wait_timeout_ms, what, in_heap ? "heap offset" : "address", in_heap ? offset : 0ll,
         p, jshmemi_cmp_name(cmp), expected, seen);
  jshmemi_trap();
}

/* Spins (acquire loads, system scope) until `*p cmp operand` holds; returns the value seen. `fn`
 * names the call in the stuck-wait report. */
template <typename T>
JSHMEM_DEVICE T jshmemi_wait_until(const char *fn, const T *p, int cmp, T operand) {
  T v = jshmemi_load_acquire(p);
  jshmemi_patience patience;
  while (!jshmemi_compare(v, cmp, operand)) {
    if (JSHMEM_UNLIKELY(patience.over()))
      jshmemi_stuck(fn, p, "the word", cmp, (unsigned long long)operand, (unsigned long long)v, patience.waited_ns);
    v = jshmemi_load_acquire(p);
  }
  return v;
}

#endif /* JSHMEM_SYNC_H */
