/*
 * jshmem_signal.h - signals (64-bit flags that carry a value), put-with-signal, and point-to-point
 * waits on symmetric variables.
 *
 * A signal word is a symmetric uint64_t, 8-byte aligned, and compares unsigned, as OpenSHMEM 1.5
 * defines it (2^64-1 is greater than 0). Operations: JSHMEM_SIGNAL_SET (store the value) and
 * JSHMEM_SIGNAL_ADD (atomic add), both atomic with respect to each other.
 *
 * Memory ordering (system scope):
 *   jshmem_signal_op           release: the calling thread's earlier loads/stores/atomics (to
 *                              any PE) are visible before the signal is.
 *   jshmem_putmem_signal*      the data of the whole calling group is visible before the
 *                              signal: the group copies, synchronises (block/warp barrier),
 *                              and its first thread issues the signal with release semantics
 *                              (release is cumulative over what the barrier made visible;
 *                              on HIP each thread also fences at system scope first).
 *   jshmem_signal_fetch        acquire load of the local signal word.
 *   jshmem_signal_wait_until   spins with acquire loads on the local signal word; once it
 *                              returns, everything the signalling PE released with the signal
 *                              (e.g. the data of its put_signal) is visible to the calling thread,
 *                              and to the rest of its block after a __syncthreads().
 *   jshmem_<T>_wait_until/test same, for an int/long/... variable written by peers with p,
 *                              atomics or signals.
 * A waiting thread must not be the only thread that can make progress for the writer (e.g. the
 * writer is a later block of the same kernel that cannot be scheduled): waits spin.
 */
#ifndef JSHMEM_SIGNAL_H
#define JSHMEM_SIGNAL_H

#ifndef JSHMEM_H
#error "include <jshmem/jshmem.h>, not jshmem_signal.h"
#endif

/* Internal: applies a signal to an address that is already the target PE's (release, system). */
JSHMEM_DEVICE_INLINE void jshmemi_signal(uint64_t *sig, uint64_t value, int sig_op) {
  unsigned long long *p = (unsigned long long *)sig;
  if (sig_op == JSHMEM_SIGNAL_ADD)
    jshmemi_add_release_sys(p, (unsigned long long)value);
  else
    jshmemi_st_release_sys(p, (unsigned long long)value);
}

/* Applies `signal` with `sig_op` (JSHMEM_SIGNAL_SET / _ADD) to PE pe's copy of sig_addr.
 * Release at system scope: this thread's earlier operations are visible before the signal. */
JSHMEM_DEVICE_INLINE void jshmem_signal_op(uint64_t *sig_addr, uint64_t signal, int sig_op,
                                           int pe) {
  JSHMEMI_DEBUG(jshmemi_check_signal(__func__, sig_addr, sig_op, pe));
  if (jshmemi_proxied(pe))
    (void)jshmemi_proxy_word(JSHMEM_PROXY_AMO,
                             sig_op == JSHMEM_SIGNAL_ADD ? JSHMEM_AMO_ADD : JSHMEM_AMO_SET, 8, pe,
                             jshmemi_heap_offset(sig_addr), signal, 0);
  else
    jshmemi_signal(jshmemi_ptr(sig_addr, pe), signal, sig_op);
}

/* OpenSHMEM 1.6's signals without data: jshmem_signal_op with JSHMEM_SIGNAL_ADD / _SET. */
JSHMEM_DEVICE_INLINE void jshmem_signal_add(uint64_t *sig_addr, uint64_t signal, int pe) {
  jshmem_signal_op(sig_addr, signal, JSHMEM_SIGNAL_ADD, pe);
}
JSHMEM_DEVICE_INLINE void jshmem_signal_set(uint64_t *sig_addr, uint64_t signal, int pe) {
  jshmem_signal_op(sig_addr, signal, JSHMEM_SIGNAL_SET, pe);
}

/* The local signal word's value (acquire load, system scope). */
JSHMEM_DEVICE_INLINE uint64_t jshmem_signal_fetch(const uint64_t *sig_addr) {
  JSHMEMI_DEBUG(jshmemi_check_wait(__func__, "sig_addr", sig_addr, 8, JSHMEM_CMP_EQ));
  return (uint64_t)jshmemi_ld_acquire_sys((const unsigned long long *)sig_addr);
}

/* Waits until the local signal word satisfies `*sig_addr cmp cmp_value` (JSHMEM_CMP_*, unsigned
 * comparison) and returns the value that satisfied it. Acquire loads, system scope. */
JSHMEM_DEVICE_INLINE uint64_t jshmem_signal_wait_until(uint64_t *sig_addr, int cmp,
                                                       uint64_t cmp_value) {
  JSHMEMI_DEBUG(jshmemi_check_wait(__func__, "sig_addr", sig_addr, 8, cmp));
  return (uint64_t)jshmemi_wait_until(__func__, (const unsigned long long *)sig_addr, cmp,
                                      (unsigned long long)cmp_value);
}

/* ---- put with signal ----------------------------------------------------------------------
 * Copies `bytes` from local `source` to PE pe's copy of `dest`, then applies the signal to PE
 * pe's copy of `sig_addr`; the peer that sees the signal sees all the data. The blocking and
 * _nbi forms are the same here: the group barrier before the signal already lets the group
 * reuse the source when the call returns. */
template <int Scope>
JSHMEM_DEVICE_INLINE void jshmemi_putmem_signal(const char *fn, void *dest, const void *source,
                                                size_t bytes, uint64_t *sig_addr, uint64_t signal,
                                                int sig_op, int pe) {
  JSHMEMI_DEBUG(jshmemi_check_put_signal(fn, dest, bytes, sig_addr, sig_op, pe));
  if (jshmemi_proxied(pe)) {   /* the target's host applies the data, then the signal */
    jshmemi_proxy_put<Scope>(jshmemi_heap_offset(dest), source, bytes, pe,
                             jshmemi_heap_offset(sig_addr), signal, sig_op);
    return;
  }
  jshmemi_group_copy<Scope>(jshmemi_ptr(dest, pe), source, bytes);
  if (Scope != JSHMEMI_THREAD) jshmemi_group_release_fence();
  jshmemi_group_sync<Scope>();
  if (jshmemi_group_leader<Scope>()) jshmemi_signal(jshmemi_ptr(sig_addr, pe), signal, sig_op);
}

#define JSHMEMI_PUT_SIGNAL(SUFFIX, SCOPE)                                                        \
  JSHMEM_DEVICE_INLINE void jshmem_putmem_signal##SUFFIX(void *dest, const void *source,         \
                                                         size_t bytes, uint64_t *sig_addr,       \
                                                         uint64_t signal, int sig_op, int pe) {  \
    jshmemi_putmem_signal<SCOPE>(__func__, dest, source, bytes, sig_addr, signal, sig_op, pe);   \
  }
JSHMEMI_PUT_SIGNAL(, JSHMEMI_THREAD)
JSHMEMI_PUT_SIGNAL(_nbi, JSHMEMI_THREAD)
JSHMEMI_PUT_SIGNAL(_warp, JSHMEMI_WARP)
JSHMEMI_PUT_SIGNAL(_nbi_warp, JSHMEMI_WARP)
JSHMEMI_PUT_SIGNAL(_block, JSHMEMI_BLOCK)
JSHMEMI_PUT_SIGNAL(_nbi_block, JSHMEMI_BLOCK)

/* Typed: jshmem_<T>_put_signal[_nbi][_warp|_block](T *dest, const T *source, size_t nelems, ...) */
#define JSHMEMI_PUT_SIGNAL_TYPED_SCOPE(NAME, T, SUFFIX, SCOPE)                                    \
  JSHMEM_DEVICE_INLINE void jshmem_##NAME##_put_signal##SUFFIX(                                   \
      T *dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op,  \
      int pe) {                                                                                  \
    jshmemi_putmem_signal<SCOPE>(__func__, dest, source, nelems * sizeof(T), sig_addr, signal,   \
                                 sig_op, pe);                                                    \
  }
#define JSHMEMI_PUT_SIGNAL_TYPED(NAME, T)                                                         \
  JSHMEMI_PUT_SIGNAL_TYPED_SCOPE(NAME, T, , JSHMEMI_THREAD)                                       \
  JSHMEMI_PUT_SIGNAL_TYPED_SCOPE(NAME, T, _nbi, JSHMEMI_THREAD)                                   \
  JSHMEMI_PUT_SIGNAL_TYPED_SCOPE(NAME, T, _warp, JSHMEMI_WARP)                                    \
  JSHMEMI_PUT_SIGNAL_TYPED_SCOPE(NAME, T, _nbi_warp, JSHMEMI_WARP)                                \
  JSHMEMI_PUT_SIGNAL_TYPED_SCOPE(NAME, T, _block, JSHMEMI_BLOCK)                                  \
  JSHMEMI_PUT_SIGNAL_TYPED_SCOPE(NAME, T, _nbi_block, JSHMEMI_BLOCK)
JSHMEM_FOR_RMA_TYPES(JSHMEMI_PUT_SIGNAL_TYPED)

/* ---- wait_until / test on symmetric variables ---------------------------------------------
 * void jshmem_<T>_wait_until(T *ivar, int cmp, T cmp_value): spins (acquire, system scope) until
 *     the local *ivar cmp cmp_value holds (signed or unsigned as T).
 * int  jshmem_<T>_test(T *ivar, int cmp, T cmp_value): one acquire load; 1 if it holds, else 0.
 * T = int, long, longlong, uint32, uint64, ulonglong. */
#define JSHMEMI_WAIT_TYPED(NAME, T)                                                              \
  JSHMEM_DEVICE_INLINE void jshmem_##NAME##_wait_until(T *ivar, int cmp, T cmp_value) {          \
    JSHMEMI_DEBUG(jshmemi_check_wait(__func__, "ivar", ivar, sizeof(T), cmp));                   \
    (void)jshmemi_wait_until(__func__, (const T *)ivar, cmp, cmp_value);                         \
  }                                                                                              \
  JSHMEM_DEVICE_INLINE int jshmem_##NAME##_test(T *ivar, int cmp, T cmp_value) {                 \
    JSHMEMI_DEBUG(jshmemi_check_wait(__func__, "ivar", ivar, sizeof(T), cmp));                   \
    return jshmemi_compare(jshmemi_load_acquire((const T *)ivar), cmp, cmp_value) ? 1 : 0;       \
  }
JSHMEM_FOR_AMO_TYPES(JSHMEMI_WAIT_TYPED)

#endif /* JSHMEM_SIGNAL_H */
