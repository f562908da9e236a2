/*
 * coll_ll.cuh - the low-latency (LL) all-reduce of coll_kernels.cu: one block, the flags inside the data.
 * Included by coll_kernels.cu only (its device state copy and JSHMEMK_COLL_THREADS).
 */
#ifndef JSHMEMK_COLL_LL_CUH
#define JSHMEMK_COLL_LL_CUH

/* ---- low-latency (LL) reductions: flags inside the data ----------------------------------
 * One kernel of one block and no synchronisation: every member stores its source into every
 * member's LL lines of the team slot (jshmem_state.h), 8 payload bytes per 16-byte line with the
 * call's flag beside each 4 bytes, and reduces, in team order, the lines as they arrive. A reader
 * that sees the flag in both halves of a line has that line's data: each 8-byte half of the store
 * arrives whole. Nobody reads a member's source or writes its destination, so the entry and exit
 * synchronisations of the other shapes are not needed; the flag (the slot's call count, this PE's
 * own ll_seq cell) and the two parities keep back-to-back calls apart. */

/* Stores 8 payload bytes into a line: {low 4 bytes, flag, high 4 bytes, flag}, one 16-byte store. */
__device__ __forceinline__ void jshmemk_ll_store(char *line, unsigned long long v, unsigned flag) {
  unsigned lo = (unsigned)v, hi = (unsigned)(v >> 32);
#if JSHMEM_ARCH_HIP
  volatile unsigned long long *p = (volatile unsigned long long *)line;
  p[0] = ((unsigned long long)flag << 32) | lo;
  p[1] = ((unsigned long long)flag << 32) | hi;
#else
  asm volatile("st.volatile.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(line), "r"(lo), "r"(flag), "r"(hi),
               "r"(flag)
               : "memory");
#endif
}

/* Waits until both halves of a line carry `flag`; returns its 8 payload bytes. */
__device__ __forceinline__ unsigned long long jshmemk_ll_load(const char *line, unsigned flag) {
  unsigned lo, f1, hi, f2;
  jshmemi_patience patience;
  for (;;) {
#if JSHMEM_ARCH_HIP
    const volatile unsigned long long *p = (const volatile unsigned long long *)line;
    unsigned long long a = p[0], b = p[1];
    lo = (unsigned)a;
    f1 = (unsigned)(a >> 32);
    hi = (unsigned)b;
    f2 = (unsigned)(b >> 32);
#else
    asm volatile("ld.volatile.global.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(lo), "=r"(f1), "=r"(hi), "=r"(f2)
                 : "l"(line)
                 : "memory");
#endif
    if (f1 == flag && f2 == flag) break;
    if (JSHMEM_UNLIKELY(patience.over()))
      jshmemi_stuck("a low-latency all-reduce", line, "the flag of a line", JSHMEM_CMP_EQ, flag, f1 != flag ? f1 : f2,
                    patience.waited_ns);
  }
  return ((unsigned long long)hi << 32) | lo;
}

/* Elements [first, first + 8 / sizeof(S)) of v, those below nelems; the rest of the word zero. */
template <typename S>
__device__ __forceinline__ unsigned long long jshmemk_ll_gather(const S *v, size_t first, size_t nelems) {
  enum { N = 8 / sizeof(S) };
  if (first + N <= nelems && (jshmemi_addr(v + first) & 7) == 0) return *(const unsigned long long *)(v + first);
  union {
    unsigned long long w;
    S s[N];
  } u;
  u.w = 0;
#pragma unroll
  for (int k = 0; k < N; ++k)
    if (first + k < nelems) u.s[k] = v[first + k];
  return u.w;
}

/* Stores the word's elements below nelems at v + first. */
template <typename S>
__device__ __forceinline__ void jshmemk_ll_scatter(S *v, size_t first, size_t nelems, unsigned long long w) {
  enum { N = 8 / sizeof(S) };
  if (first + N <= nelems && (jshmemi_addr(v + first) & 7) == 0) {
    *(unsigned long long *)(v + first) = w;
    return;
  }
  union {
    unsigned long long w;
    S s[N];
  } u;
  u.w = w;
#pragma unroll
  for (int k = 0; k < N; ++k)
    if (first + k < nelems) v[first + k] = u.s[k];
}

/* dest = op over the members (team order) of src, nelems * sizeof(S) <= JSHMEM_LL_PAYLOAD, at most
 * JSHMEM_LL_MEMBERS members; dest == src allowed (a thread reads its words before it writes them).
 * One block: the kernel below, or the service kernel (coll_service.cuh) one call after the other. */
template <typename E, int OP>
__device__ void jshmemk_reduce_ll_block(int slot, void *dest, const void *src, size_t nelems) {
  typedef typename E::storage S;
  enum { N = 8 / sizeof(S) };
  const jshmem_device_state_t &s = jshmem_device_state;
  const jshmem_team_desc_t &team = s.teams[slot];
  const int n = team.size;
  const int me = jshmemi_team_index(team, s.my_pe);
  __shared__ unsigned long long seq;
  if (threadIdx.x == 0) {
    /* volatile: a resident service block must not read its own stale copy after a kernel's call */
    volatile unsigned long long *cell = (volatile unsigned long long *)(s.heap_base + JSHMEM_LL_SEQ_CELL(slot));
    seq = *cell + 1;
    *cell = seq;
  }
  __syncthreads();
  const unsigned flag = (unsigned)(seq % 0xffffffffull) + 1u; /* never 0, what fresh lines hold */
  const int parity = (int)(seq & 1);
  const size_t lines = (nelems + N - 1) / N;
  for (size_t l = threadIdx.x; l < lines; l += blockDim.x) {
    unsigned long long mine = jshmemk_ll_gather((const S *)src, l * N, nelems);
    for (int k = 1; k < n; ++k) {
      char *peer = s.peer_base[team.start + ((me + k) % n) * team.stride];
      jshmemk_ll_store(peer + JSHMEM_LL_LINES(slot, parity, me) + l * JSHMEM_LL_LINE, mine, flag);
    }
    jshmemi_red_word<E, OP, unsigned long long> r;
    for (int m = 0; m < n; ++m) {
      unsigned long long v =
          m == me ? mine : jshmemk_ll_load(s.heap_base + JSHMEM_LL_LINES(slot, parity, m) + l * JSHMEM_LL_LINE, flag);
      if (m == 0)
        r.first(v);
      else
        r.next(v);
    }
    jshmemk_ll_scatter((S *)dest, l * N, nelems, r.result());
  }
}

template <typename E, int OP>
__global__ void __launch_bounds__(JSHMEMK_COLL_THREADS, 1)
    jshmemk_reduce_ll(jshmemk_op op, int slot, void *dest, const void *src, size_t nelems) {
  jshmemk_chain_start();
  jshmemk_span span(op, "comm", "all-reduce LL");
  jshmemk_reduce_ll_block<E, OP>(slot, dest, src, nelems);
}

#endif /* JSHMEMK_COLL_LL_CUH */
