/*
 * jshmem_amo.h - atomic memory operations on a PE's copy of a symmetric object (remote or local),
 * all at SYSTEM scope, so that they are atomic with respect to the same operations issued by any
 * GPU (or CPU) that maps the heap, including the owner.
 *
 *   T    jshmem_<T>_atomic_fetch(const T *source, int pe)            acquire load
 *   void jshmem_<T>_atomic_set(T *dest, T value, int pe)             release store
 *   T    jshmem_<T>_atomic_swap(T *dest, T value, int pe)            relaxed
 *   T    jshmem_<T>_atomic_compare_swap(T *dest, T cond, T value, int pe)   relaxed; returns old
 *   T    jshmem_<T>_atomic_fetch_add / _fetch_inc / _fetch_and / _fetch_or / _fetch_xor  relaxed
 *   void jshmem_<T>_atomic_add / _inc / _and / _or / _xor                               relaxed
 * for T = int, long, longlong, uint32, uint64, ulonglong. _inc adds 1 (no wrap bound).
 *
 * Ordering: the read-modify-write operations are relaxed, as in OpenSHMEM/NVSHMEM: ordered with
 * this thread's other operations on the same address (coherence), and with everything else only
 * through jshmem_fence / jshmem_quiet, a signal or a barrier. fetch is an acquire (what the
 * writer released before its set/signal is visible after it) and set is a release (this thread's
 * earlier stores are visible before it), matching org.jshmem.spi.AtomicOp.
 * The address must be naturally aligned (checked in debug mode). On a PE of another node the
 * host applies the atomic (jshmem_proxy.h): atomic with that node's own atomics, complete on return.
 */
#ifndef JSHMEM_AMO_H
#define JSHMEM_AMO_H

#ifndef JSHMEM_H
#error "include <jshmem/jshmem.h>, not jshmem_amo.h"
#endif

/* Relaxed read-modify-write at system scope on the unsigned word W of T's size; signed
 * arithmetic is the same bit operation in two's complement. */
#if JSHMEM_ARCH_HIP
#define JSHMEMI_AMO_RMW(NAME, BUILTIN)                                                           \
  template <typename T>                                                                          \
  JSHMEM_DEVICE_INLINE T jshmemi_amo_##NAME(T *p, T v) {                                         \
    typedef typename jshmemi_word<sizeof(T)>::type W;                                            \
    return (T)BUILTIN((W *)p, (W)v, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_SYSTEM);                \
  }
JSHMEMI_AMO_RMW(fetch_add, __hip_atomic_fetch_add)
JSHMEMI_AMO_RMW(fetch_and, __hip_atomic_fetch_and)
JSHMEMI_AMO_RMW(fetch_or, __hip_atomic_fetch_or)
JSHMEMI_AMO_RMW(fetch_xor, __hip_atomic_fetch_xor)
JSHMEMI_AMO_RMW(swap, __hip_atomic_exchange)

template <typename T>
JSHMEM_DEVICE_INLINE T jshmemi_amo_compare_swap(T *p, T cond, T v) {
  typedef typename jshmemi_word<sizeof(T)>::type W;
  W expected = (W)cond;
  __hip_atomic_compare_exchange_strong((W *)p, &expected, (W)v, __ATOMIC_RELAXED, __ATOMIC_RELAXED,
                                       __HIP_MEMORY_SCOPE_SYSTEM);
  return (T)expected; /* the old value, whether or not the exchange happened */
}
#else
#define JSHMEMI_AMO_RMW(NAME, BUILTIN)                                                           \
  template <typename T>                                                                          \
  JSHMEM_DEVICE_INLINE T jshmemi_amo_##NAME(T *p, T v) {                                         \
    typedef typename jshmemi_word<sizeof(T)>::type W;                                            \
    return (T)BUILTIN((W *)p, (W)v);                                                             \
  }
JSHMEMI_AMO_RMW(fetch_add, atomicAdd_system)
JSHMEMI_AMO_RMW(fetch_and, atomicAnd_system)
JSHMEMI_AMO_RMW(fetch_or, atomicOr_system)
JSHMEMI_AMO_RMW(fetch_xor, atomicXor_system)
JSHMEMI_AMO_RMW(swap, atomicExch_system)

template <typename T>
JSHMEM_DEVICE_INLINE T jshmemi_amo_compare_swap(T *p, T cond, T v) {
  typedef typename jshmemi_word<sizeof(T)>::type W;
  return (T)atomicCAS_system((W *)p, (W)cond, (W)v);
}
#endif

template <typename T>
JSHMEM_DEVICE_INLINE void jshmemi_amo_set(T *p, T v) {
  typedef typename jshmemi_word<sizeof(T)>::type W;
  jshmemi_st_release_sys((W *)p, (W)v);
}

/* The types of the atomics and of wait_until/test: X(name, C type). */
#define JSHMEM_FOR_AMO_TYPES(X)                                                                  \
  X(int, int)                                                                                    \
  X(long, long)                                                                                  \
  X(longlong, long long)                                                                         \
  X(uint32, uint32_t)                                                                            \
  X(uint64, uint64_t)                                                                            \
  X(ulonglong, unsigned long long)

#define JSHMEMI_AMO_CHECK(PTR, T, PE) \
  JSHMEMI_DEBUG(jshmemi_check_amo(__func__, #PTR, PTR, sizeof(T), PE))

/* Internal: atomic `Code` (JSHMEM_AMO_*) on PE pe's copy of *sym: through the mapping, or through
 * the proxy for a PE of another node (its host applies it; complete on return). Returns the old
 * value (fetching forms). */
template <int Code, typename T>
JSHMEM_DEVICE_INLINE T jshmemi_amo_on(const T *sym, T value, T cond, int pe) {
  if (jshmemi_proxied(pe))
    return (T)jshmemi_proxy_word(JSHMEM_PROXY_AMO, Code, sizeof(T), pe, jshmemi_heap_offset(sym),
                                 (unsigned long long)value, (unsigned long long)cond);
  T *p = jshmemi_ptr((T *)sym, pe);
  switch (Code) {
    case JSHMEM_AMO_FETCH: return jshmemi_load_acquire((const T *)p);
    case JSHMEM_AMO_SET: jshmemi_amo_set(p, value); return 0;
    case JSHMEM_AMO_SWAP: return jshmemi_amo_swap(p, value);
    case JSHMEM_AMO_COMPARE_SWAP: return jshmemi_amo_compare_swap(p, cond, value);
    case JSHMEM_AMO_FETCH_AND: return jshmemi_amo_fetch_and(p, value);
    case JSHMEM_AMO_FETCH_OR: return jshmemi_amo_fetch_or(p, value);
    case JSHMEM_AMO_FETCH_XOR: return jshmemi_amo_fetch_xor(p, value);
    default: return jshmemi_amo_fetch_add(p, value);
  }
}

#define JSHMEMI_AMO_FETCH_OP(NAME, T, OP, CODE)                                                  \
  JSHMEM_DEVICE_INLINE T jshmem_##NAME##_atomic_fetch_##OP(T *dest, T value, int pe) {           \
    JSHMEMI_AMO_CHECK(dest, T, pe);                                                              \
    return jshmemi_amo_on<CODE>(dest, value, (T)0, pe);                                          \
  }                                                                                              \
  JSHMEM_DEVICE_INLINE void jshmem_##NAME##_atomic_##OP(T *dest, T value, int pe) {              \
    JSHMEMI_AMO_CHECK(dest, T, pe);                                                              \
    (void)jshmemi_amo_on<CODE>(dest, value, (T)0, pe);                                           \
  }

#define JSHMEMI_AMO_TYPED(NAME, T)                                                               \
  JSHMEMI_AMO_FETCH_OP(NAME, T, add, JSHMEM_AMO_FETCH_ADD)                                       \
  JSHMEMI_AMO_FETCH_OP(NAME, T, and, JSHMEM_AMO_FETCH_AND)                                       \
  JSHMEMI_AMO_FETCH_OP(NAME, T, or, JSHMEM_AMO_FETCH_OR)                                         \
  JSHMEMI_AMO_FETCH_OP(NAME, T, xor, JSHMEM_AMO_FETCH_XOR)                                       \
  JSHMEM_DEVICE_INLINE T jshmem_##NAME##_atomic_fetch_inc(T *dest, int pe) {                     \
    JSHMEMI_AMO_CHECK(dest, T, pe);                                                              \
    return jshmemi_amo_on<JSHMEM_AMO_FETCH_ADD>(dest, (T)1, (T)0, pe);                           \
  }                                                                                              \
  JSHMEM_DEVICE_INLINE void jshmem_##NAME##_atomic_inc(T *dest, int pe) {                        \
    JSHMEMI_AMO_CHECK(dest, T, pe);                                                              \
    (void)jshmemi_amo_on<JSHMEM_AMO_FETCH_ADD>(dest, (T)1, (T)0, pe);                            \
  }                                                                                              \
  JSHMEM_DEVICE_INLINE T jshmem_##NAME##_atomic_swap(T *dest, T value, int pe) {                 \
    JSHMEMI_AMO_CHECK(dest, T, pe);                                                              \
    return jshmemi_amo_on<JSHMEM_AMO_SWAP>(dest, value, (T)0, pe);                               \
  }                                                                                              \
  JSHMEM_DEVICE_INLINE T jshmem_##NAME##_atomic_compare_swap(T *dest, T cond, T value, int pe) { \
    JSHMEMI_AMO_CHECK(dest, T, pe);                                                              \
    return jshmemi_amo_on<JSHMEM_AMO_COMPARE_SWAP>(dest, value, cond, pe);                       \
  }                                                                                              \
  JSHMEM_DEVICE_INLINE T jshmem_##NAME##_atomic_fetch(const T *source, int pe) {                 \
    JSHMEMI_AMO_CHECK(source, T, pe);                                                            \
    return jshmemi_amo_on<JSHMEM_AMO_FETCH>(source, (T)0, (T)0, pe);                             \
  }                                                                                              \
  JSHMEM_DEVICE_INLINE void jshmem_##NAME##_atomic_set(T *dest, T value, int pe) {               \
    JSHMEMI_AMO_CHECK(dest, T, pe);                                                              \
    (void)jshmemi_amo_on<JSHMEM_AMO_SET>(dest, value, (T)0, pe);                                 \
  }

JSHMEM_FOR_AMO_TYPES(JSHMEMI_AMO_TYPED)

#endif /* JSHMEM_AMO_H */
