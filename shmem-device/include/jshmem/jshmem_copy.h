/*
 * jshmem_copy.h - the copy loops behind put, get and put_signal, for a group of threads.
 *
 * A group is `nthreads` threads that all call the copy with the same arguments; the caller is
 * number `tid` in it (thread scope: 0 of 1; warp: lane of lanes; block: thread of block size;
 * the runtime's grid copy: global thread of grid size). Consecutive threads take consecutive
 * words, so every access of a warp is coalesced, and each thread first issues UNROLL loads and
 * only then the UNROLL stores, so that several loads are in flight while the remote stores drain.
 *
 * The word size is the largest of 16, 8, 4, 2, 1 bytes at which dest and source are equally
 * misaligned; the bytes before dest's first aligned word and after the last go in naturally
 * aligned pieces of 8/4/2/1 bytes (an 8-byte put of 16-byte aligned buffers is one store). Stores are plain (weak) stores: they are ordered for other PEs only by a later release
 * (signal, barrier) or fence/quiet.
 */
#ifndef JSHMEM_COPY_H
#define JSHMEM_COPY_H

#ifndef JSHMEM_H
#error "include <jshmem/jshmem.h>, not jshmem_copy.h"
#endif

/* Loads in flight per thread: a block (up to 1024 threads, 64 registers each) has plenty of
 * loads in flight at 4; a lone thread or a warp needs more to cover the latency. */
#define JSHMEMI_UNROLL_BLOCK 4
#define JSHMEMI_UNROLL_WARP 8

/* A load of the copy loops. Fresh: the source is a peer's memory that a get reads, so the load
 * skips this SM's L1 (.cg, L2 and beyond): a get always reads the peer's memory, never a line an
 * earlier get of the same kernel left in L1 (which would report device-get rates above the link's). */
template <typename W, bool Fresh>
JSHMEM_DEVICE_INLINE W jshmemi_copy_load(const W *p) {
  if (!Fresh) return *p;
#if JSHMEM_ARCH_HIP
  return __builtin_nontemporal_load(p);
#else
  return __ldcg(p);
#endif
}

/* Copies one word of type W, aligned on both sides. */
template <typename W, bool Fresh>
JSHMEM_DEVICE_INLINE void jshmemi_copy_one(void *dst, const void *src) {
  *(W *)dst = jshmemi_copy_load<W, Fresh>((const W *)src);
}

/* Copies n words: word i by the thread with i % nthreads == tid. */
template <typename W, int UNROLL, bool Fresh = false>
JSHMEM_DEVICE void jshmemi_copy_words(W *dst, const W *src, size_t n, size_t tid, size_t nthreads) {
  size_t i = tid;
  for (; i + (UNROLL - 1) * nthreads < n; i += UNROLL * nthreads) {
    W w[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) w[u] = jshmemi_copy_load<W, Fresh>(src + i + u * nthreads);
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) dst[i + u * nthreads] = w[u];
  }
  for (; i < n; i += nthreads) dst[i] = jshmemi_copy_load<W, Fresh>(src + i);
}

/* Copies n < sizeof(W) bytes where dst and src are equally misaligned modulo sizeof(W): in
 * pieces of 8, 4, 2 or 1 bytes, each naturally aligned on both sides; piece k by thread
 * k % nthreads (a head or tail is at most four pieces). */
template <typename W, bool Fresh>
JSHMEM_DEVICE_INLINE void jshmemi_copy_small(char *dst, const char *src, size_t n, size_t tid,
                                             size_t nthreads) {
  for (size_t piece = 0; n != 0; ++piece) {
    unsigned long long a = jshmemi_addr(dst);
    size_t k = 1;
    if (sizeof(W) > 8 && (a & 7) == 0 && n >= 8)
      k = 8;
    else if (sizeof(W) > 4 && (a & 3) == 0 && n >= 4)
      k = 4;
    else if (sizeof(W) > 2 && (a & 1) == 0 && n >= 2)
      k = 2;
    if (piece % nthreads == tid) {
      if (k == 8)
        jshmemi_copy_one<unsigned long long, Fresh>(dst, src);
      else if (k == 4)
        jshmemi_copy_one<unsigned int, Fresh>(dst, src);
      else if (k == 2)
        jshmemi_copy_one<unsigned short, Fresh>(dst, src);
      else
        jshmemi_copy_one<unsigned char, Fresh>(dst, src);
    }
    dst += k;
    src += k;
    n -= k;
  }
}

/* Copies `bytes` with words of type W; dst and src are equally misaligned modulo sizeof(W):
 * the head up to dst's first W-aligned byte, the words, then the tail. */
template <typename W, int UNROLL, bool Fresh>
JSHMEM_DEVICE void jshmemi_copy_with(char *dst, const char *src, size_t bytes, size_t tid,
                                     size_t nthreads) {
  const size_t ws = sizeof(W);
  size_t head = (ws - (jshmemi_addr(dst) & (ws - 1))) & (ws - 1);
  if (head > bytes) head = bytes;
  size_t words = (bytes - head) / ws;
  size_t tail = head + words * ws;
  jshmemi_copy_small<W, Fresh>(dst, src, head, tid, nthreads);
  jshmemi_copy_words<W, UNROLL, Fresh>((W *)(dst + head), (const W *)(src + head), words, tid,
                                       nthreads);
  jshmemi_copy_small<W, Fresh>(dst + tail, src + tail, bytes - tail, tid, nthreads);
}

/* Group copy of any alignment, out of line: one copy of the loops per module instead of one per
 * call site keeps kernels small and run-time compilation fast. */
template <int UNROLL, bool Fresh = false>
JSHMEM_DEVICE_NOINLINE void jshmemi_copy_any(void *dst, const void *src, size_t bytes, size_t tid,
                                             size_t nthreads) {
  char *d = (char *)dst;
  const char *s = (const char *)src;
  unsigned long long mis = jshmemi_addr(d) ^ jshmemi_addr(s);
  if ((mis & 15) == 0)
    jshmemi_copy_with<jshmemi_v16, UNROLL, Fresh>(d, s, bytes, tid, nthreads);
  else if ((mis & 7) == 0)
    jshmemi_copy_with<unsigned long long, UNROLL, Fresh>(d, s, bytes, tid, nthreads);
  else if ((mis & 3) == 0)
    jshmemi_copy_with<unsigned int, UNROLL, Fresh>(d, s, bytes, tid, nthreads);
  else if ((mis & 1) == 0)
    jshmemi_copy_with<unsigned short, UNROLL, Fresh>(d, s, bytes, tid, nthreads);
  else
    jshmemi_copy_words<unsigned char, UNROLL, Fresh>((unsigned char *)d, (const unsigned char *)s,
                                                     bytes, tid, nthreads);
}

/* Group copy of `bytes` bytes from src to dst (any alignment; the ranges must not overlap).
 * Both ends 16-byte aligned and whole 16-byte words, the common case, copy inline: the out-of-line
 * call's register saves cost more than a small copy itself (for a 4 KB put, three times the bare
 * loop's time). Fresh: see jshmemi_copy_load (gets). */
template <int UNROLL, bool Fresh = false>
JSHMEM_DEVICE_INLINE void jshmemi_copy(void *dst, const void *src, size_t bytes, size_t tid, size_t nthreads) {
  if (((jshmemi_addr(dst) | jshmemi_addr(src) | bytes) & 15) == 0) {
    jshmemi_copy_words<jshmemi_v16, UNROLL, Fresh>((jshmemi_v16 *)dst, (const jshmemi_v16 *)src, bytes / 16, tid,
                                                  nthreads);
    return;
  }
  /* A lone aligned 8- or 4-byte word (one long or int, a put_signal's 8-byte payload) is one store by the
   * group's first thread, inline too: about a tenth off an 8-byte put_signal (`perf --form device
   * put_signal_latency`). Tested after the 16-byte case, so as not to lengthen that common path. */
  if ((bytes == 8 || bytes == 4) && ((jshmemi_addr(dst) | jshmemi_addr(src)) & (bytes - 1)) == 0) {
    if (tid == 0) {
      if (bytes == 8)
        jshmemi_copy_one<unsigned long long, Fresh>(dst, src);
      else
        jshmemi_copy_one<unsigned int, Fresh>(dst, src);
    }
    return;
  }
  jshmemi_copy_any<UNROLL, Fresh>(dst, src, bytes, tid, nthreads);
}

/* ---- scopes -------------------------------------------------------------------------------
 * Every scoped call is made by all threads of its group (the thread, its warp, its block) with
 * the same arguments. */
#define JSHMEMI_THREAD 0
#define JSHMEMI_WARP 1
#define JSHMEMI_BLOCK 2

template <int Scope, bool Fresh = false>
JSHMEM_DEVICE_INLINE void jshmemi_group_copy(void *dst, const void *src, size_t bytes) {
  if (Scope == JSHMEMI_BLOCK)
    jshmemi_copy<JSHMEMI_UNROLL_BLOCK, Fresh>(dst, src, bytes, jshmemi_thread_id(),
                                              jshmemi_block_size());
  else if (Scope == JSHMEMI_WARP)
    jshmemi_copy<JSHMEMI_UNROLL_WARP, Fresh>(dst, src, bytes, jshmemi_lane(), jshmemi_warp_lanes());
  else
    jshmemi_copy<JSHMEMI_UNROLL_WARP, Fresh>(dst, src, bytes, 0, 1);
}

/* Barrier of the group: CTA-scope (block) or warp-scope ordering of the group's memory
 * operations; nothing for a single thread. */
template <int Scope>
JSHMEM_DEVICE_INLINE void jshmemi_group_sync() {
  if (Scope == JSHMEMI_BLOCK)
    jshmemi_block_sync();
  else if (Scope == JSHMEMI_WARP)
    jshmemi_warp_sync();
}

/* The group's first thread, which issues the group's single flag or signal. */
template <int Scope>
JSHMEM_DEVICE_INLINE bool jshmemi_group_leader() {
  if (Scope == JSHMEMI_BLOCK) return jshmemi_thread_id() == 0;
  if (Scope == JSHMEMI_WARP) return jshmemi_lane() == 0;
  return true;
}

#endif /* JSHMEM_COPY_H */
