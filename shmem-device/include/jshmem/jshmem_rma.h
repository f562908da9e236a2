/*
 * jshmem_rma.h - put and get (bytes and typed), at thread, warp and block scope, and p/g.
 *
 * Transport: the peer's heap is mapped into this process, so a put is plain stores into the
 * peer's memory and a get is plain loads from it (NVLink / xGMI), done by the calling group. A
 * PE of another node is reached through the host (jshmem_proxy.h): complete on return.
 *
 * Scopes (suffix): none = the calling thread alone; _warp = all lanes of the calling warp
 * (wavefront on AMD) call with the same arguments; _block = all threads of the calling block call
 * with the same arguments. The group shares the work.
 *
 * Arguments: `dest` of a put and `source` of a get are symmetric addresses (this PE's address
 * of a symmetric object; the call targets PE `pe`'s copy); the other buffer is any memory this
 * thread can address (typically local). nelems counts elements of the type, bytes counts bytes.
 *
 * Completion and ordering (all at system scope):
 *   put       returns when the source may be reused by the calling group (its loads are done;
 *             _warp/_block end with a group barrier). Delivery to the peer is NOT ordered with
 *             later operations: use jshmem_fence (ordering), jshmem_quiet (completion), a
 *             put_signal, or a barrier.
 *   put_nbi   no group barrier at the end: the source must not change, and other threads of the
 *             group must not rely on the copy, until a later group barrier / quiet.
 *   get       returns when the data is in dest and visible to every thread of the calling group
 *             (_warp/_block end with a group barrier). Reads see what the peer released before
 *             an acquire this thread (or its group, through a group barrier) performed earlier.
 *   get_nbi   no group barrier: each thread sees the part it copied; call jshmem_quiet and a
 *             group barrier before other threads use dest.
 *   p         one relaxed store at system scope (volatile): never merged or cached, ordered for
 *             the peer only by fence/quiet/signal/barrier, like put.
 *   g         one relaxed load at system scope (volatile): reads the peer's current value.
 */
#ifndef JSHMEM_RMA_H
#define JSHMEM_RMA_H

#ifndef JSHMEM_H
#error "include <jshmem/jshmem.h>, not jshmem_rma.h"
#endif

template <int Scope, bool Blocking>
JSHMEM_DEVICE_INLINE void jshmemi_putmem(const char *fn, void *dest, const void *source,
                                         size_t bytes, int pe) {
  JSHMEMI_DEBUG(jshmemi_check_rma(fn, "dest", dest, bytes, pe));
  if (jshmemi_proxied(pe)) {
    jshmemi_proxy_put<Scope>(jshmemi_heap_offset(dest), source, bytes, pe, 0, 0, -1);
    return;
  }
  jshmemi_group_copy<Scope>(jshmemi_ptr(dest, pe), source, bytes);
  if (Blocking) jshmemi_group_sync<Scope>();
}

template <int Scope, bool Blocking>
JSHMEM_DEVICE_INLINE void jshmemi_getmem(const char *fn, void *dest, const void *source,
                                         size_t bytes, int pe) {
  JSHMEMI_DEBUG(jshmemi_check_rma(fn, "source", source, bytes, pe));
  if (jshmemi_proxied(pe)) {
    jshmemi_proxy_get<Scope>(dest, jshmemi_heap_offset(source), bytes, pe);
    return;
  }
  jshmemi_group_copy<Scope, true>(dest, jshmemi_ptr(source, pe), bytes);
  if (Blocking) jshmemi_group_sync<Scope>();
}

/* ---- bytes ------------------------------------------------------------------------------- */

#define JSHMEMI_RMA_MEM(SUFFIX, SCOPE, BLOCKING)                                                 \
  JSHMEM_DEVICE_INLINE void jshmem_putmem##SUFFIX(void *dest, const void *source, size_t bytes,  \
                                                  int pe) {                                      \
    jshmemi_putmem<SCOPE, BLOCKING>(__func__, dest, source, bytes, pe);                          \
  }                                                                                              \
  JSHMEM_DEVICE_INLINE void jshmem_getmem##SUFFIX(void *dest, const void *source, size_t bytes,  \
                                                  int pe) {                                      \
    jshmemi_getmem<SCOPE, BLOCKING>(__func__, dest, source, bytes, pe);                          \
  }

JSHMEMI_RMA_MEM(, JSHMEMI_THREAD, true)             /* jshmem_putmem, jshmem_getmem */
JSHMEMI_RMA_MEM(_nbi, JSHMEMI_THREAD, false)        /* jshmem_putmem_nbi, jshmem_getmem_nbi */
JSHMEMI_RMA_MEM(_warp, JSHMEMI_WARP, true)          /* jshmem_putmem_warp, ... */
JSHMEMI_RMA_MEM(_nbi_warp, JSHMEMI_WARP, false)     /* jshmem_putmem_nbi_warp, ... */
JSHMEMI_RMA_MEM(_block, JSHMEMI_BLOCK, true)        /* jshmem_putmem_block, ... */
JSHMEMI_RMA_MEM(_nbi_block, JSHMEMI_BLOCK, false)   /* jshmem_putmem_nbi_block, ... */

/* ---- typed: jshmem_<T>_put[_nbi][_warp|_block], jshmem_<T>_get..., jshmem_<T>_p, _g ---------- */

/* The types of typed RMA and p/g: X(name, C type). */
#define JSHMEM_FOR_RMA_TYPES(X)                                                                  \
  X(char, char)                                                                                  \
  X(short, short)                                                                                \
  X(int, int)                                                                                    \
  X(long, long)                                                                                  \
  X(longlong, long long)                                                                         \
  X(float, float)                                                                                \
  X(double, double)                                                                              \
  X(uint32, uint32_t)                                                                            \
  X(uint64, uint64_t)                                                                            \
  X(ulonglong, unsigned long long)                                                               \
  X(size, size_t)

#define JSHMEMI_RMA_TYPED_SCOPE(NAME, T, SUFFIX, SCOPE, BLOCKING)                                \
  JSHMEM_DEVICE_INLINE void jshmem_##NAME##_put##SUFFIX(T *dest, const T *source, size_t nelems, \
                                                        int pe) {                                \
    jshmemi_putmem<SCOPE, BLOCKING>(__func__, dest, source, nelems * sizeof(T), pe);             \
  }                                                                                              \
  JSHMEM_DEVICE_INLINE void jshmem_##NAME##_get##SUFFIX(T *dest, const T *source, size_t nelems, \
                                                        int pe) {                                \
    jshmemi_getmem<SCOPE, BLOCKING>(__func__, dest, source, nelems * sizeof(T), pe);             \
  }

#define JSHMEMI_RMA_TYPED(NAME, T)                                                               \
  JSHMEMI_RMA_TYPED_SCOPE(NAME, T, , JSHMEMI_THREAD, true)                                       \
  JSHMEMI_RMA_TYPED_SCOPE(NAME, T, _nbi, JSHMEMI_THREAD, false)                                  \
  JSHMEMI_RMA_TYPED_SCOPE(NAME, T, _warp, JSHMEMI_WARP, true)                                    \
  JSHMEMI_RMA_TYPED_SCOPE(NAME, T, _nbi_warp, JSHMEMI_WARP, false)                               \
  JSHMEMI_RMA_TYPED_SCOPE(NAME, T, _block, JSHMEMI_BLOCK, true)                                  \
  JSHMEMI_RMA_TYPED_SCOPE(NAME, T, _nbi_block, JSHMEMI_BLOCK, false)                             \
  /* p: one relaxed system-scope store of `value` into PE pe's copy of *dest. */                \
  JSHMEM_DEVICE_INLINE void jshmem_##NAME##_p(T *dest, T value, int pe) {                        \
    JSHMEMI_DEBUG(jshmemi_check_amo(__func__, "dest", dest, sizeof(T), pe));                     \
    if (jshmemi_proxied(pe))                                                                     \
      (void)jshmemi_proxy_word(JSHMEM_PROXY_STORE, 0, sizeof(T), pe, jshmemi_heap_offset(dest),  \
                               jshmemi_to_bits(value), 0);                                       \
    else                                                                                         \
      jshmemi_st_relaxed_sys(jshmemi_ptr(dest, pe), value);                                      \
  }                                                                                              \
  /* g: one relaxed system-scope load of PE pe's copy of *source. */                             \
  JSHMEM_DEVICE_INLINE T jshmem_##NAME##_g(const T *source, int pe) {                            \
    JSHMEMI_DEBUG(jshmemi_check_amo(__func__, "source", source, sizeof(T), pe));                 \
    if (jshmemi_proxied(pe))                                                                     \
      return jshmemi_from_bits<T>(jshmemi_proxy_word(JSHMEM_PROXY_LOAD, 0, sizeof(T), pe,        \
                                                     jshmemi_heap_offset(source), 0, 0));        \
    return jshmemi_ld_relaxed_sys(jshmemi_ptr(source, pe));                                      \
  }

JSHMEM_FOR_RMA_TYPES(JSHMEMI_RMA_TYPED)

/* ---- blocked strided (OpenSHMEM 1.6): jshmem_<T>_ibput, jshmem_<T>_ibget --------------------
 * nblocks blocks of bsize elements: block i goes from source + i * sst to dest + i * dst (strides in
 * elements; long, which is ptrdiff_t on LP64: the run-time compilers have no ptrdiff_t). Thread
 * scope, blocking as put/get; each block is one put/get. */
#define JSHMEMI_RMA_BLOCKED(NAME, T)                                                              \
  JSHMEM_DEVICE_INLINE void jshmem_##NAME##_ibput(T *dest, const T *source, long dst,            \
                                                  long sst, size_t bsize, size_t nblocks,        \
                                                  int pe) {                                      \
    for (size_t i = 0; i < nblocks; i++)                                                         \
      jshmemi_putmem<JSHMEMI_THREAD, true>(__func__, dest + (long)i * dst,                       \
                                           source + (long)i * sst, bsize * sizeof(T), pe);       \
  }                                                                                              \
  JSHMEM_DEVICE_INLINE void jshmem_##NAME##_ibget(T *dest, const T *source, long dst,            \
                                                  long sst, size_t bsize, size_t nblocks,        \
                                                  int pe) {                                      \
    for (size_t i = 0; i < nblocks; i++)                                                         \
      jshmemi_getmem<JSHMEMI_THREAD, true>(__func__, dest + (long)i * dst,                       \
                                           source + (long)i * sst, bsize * sizeof(T), pe);       \
  }

JSHMEM_FOR_RMA_TYPES(JSHMEMI_RMA_BLOCKED)

#endif /* JSHMEM_RMA_H */
