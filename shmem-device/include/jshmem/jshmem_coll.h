/*
 * jshmem_coll.h - collectives over a team, block scope: reductions (all-reduce), fcollect,
 * collect, broadcast and alltoall.
 *
 * Every call is made by all threads of ONE block on each member PE of the team in `team` (a team
 * slot: 0 = world, 1 = node, others from the Java side's splits), with the same arguments (the
 * root, and for collect only the source's address, may not differ), and by no other block of the
 * PE for that team at the same time: the calls share the team's barrier cells with
 * jshmem_barrier_block and the runtime's on-stream barriers and collectives, one after the other.
 * dest and source are symmetric addresses (this PE's copy); the call reads the other members'
 * copies through the peer table. dest and source must not overlap, except dest == source where
 * said (in place).
 *
 * Protocol (generation counters, nothing is reset; see jshmem_barrier.h):
 *   1. entry sync (jshmem_team_sync_block): every member's source is ready and its destination
 *      may be written: everything each member's block did before the call happens-before the
 *      reads and writes of the call, on every member;
 *   2. the data moves: plain loads from the members' heaps (pull), and for in-place reductions
 *      stores into the members' destinations (push, two-shot, below);
 *   3. exit sync (with a quiet first where the call stored to peers): no member reads this PE's
 *      source, or writes its destination, any more; the caller may overwrite its source and reads
 *      the whole result in dest, in every thread of the block.
 * Two syncs: about two NVLink one-way latencies plus the data, for a call of a few KiB.
 *
 * Reductions: dest[k] = source_0[k] op source_1[k] op ... op source_{n-1}[k] over the members in
 * team order, combined from left to right by exactly this rule on every PE, so every PE gets the
 * same bits (and the same as org.jshmem's host collectives):
 *   - integers wrap around (two's complement); MIN/MAX compare signed; AND/OR/XOR integers only;
 *   - float/double: IEEE arithmetic in the type (no FMA: chains of adds or of multiplies); MIN and
 *     MAX as Java's Math.min/max (a NaN wins, -0.0 < +0.0), not as fminf/fmaxf;
 *   - half (IEEE binary16) and bfloat16: every element widened to float, combined in float, rounded
 *     to nearest-even once at the end (half: as Java's Float.floatToFloat16; bfloat16: NaN keeps
 *     its sign and payload top bits with the quiet bit set).
 *   Algorithm: dest != source: one-shot (every PE reads every member's whole source and reduces it
 *   into its own dest). dest == source (in place): two-shot (PE i reduces slice i of the vector,
 *   reading slice i of every member's source, and stores the result into slice i of every member's
 *   dest; slice i of a member's source is read by PE i alone, before PE i overwrites it, so in place
 *   is safe). Loads and stores are 16 bytes wide where dest and source are equally aligned modulo 16
 *   (heads and tails element by element); both must be aligned to the element size.
 *
 * Typed names: jshmem_<T>_<op>_reduce_block(int team, T *dest, const T *source, size_t nreduce),
 * returning 0, for
 *   integers <T> = schar short int long longlong int8 int16 int32 int64,
 *            <op> = sum prod min max and or xor;
 *   floating <T> = float double half bfloat16, <op> = sum prod min max,
 * with half and bfloat16 elements passed as jshmem_half_t / jshmem_bfloat16_t (their 16 bits: cast
 * a __half* or __nv_bfloat16* / hip_bfloat16*).
 *
 *   int jshmem_fcollectmem_block(int team, void *dest, const void *source, size_t nbytes)
 *       dest (n * nbytes) = every member's nbytes of source, in team order.
 *   size_t jshmem_collectmem_block(int team, void *dest, const void *source, size_t nbytes)
 *       like fcollect with a size of each member's own (this PE gives nbytes); returns the total.
 *       The sizes travel through the coll cells (JSHMEM_COLL_CELL). dest must hold the total: the
 *       caller knows it (device code cannot throw).
 *   void jshmemx_fcollectmem_signal_block(int team, void *dest, const void *source, size_t nbytes,
 *                                         uint64_t *sig_addr, uint64_t signal)
 *       the push form of an all-gather with a signal per block: this PE's nbytes go to
 *       block me of every member's dest (itself first, then rotated), each followed by setting
 *       sig_addr[me] on that member to `signal` (putmem_signal_block), so a consumer waits for
 *       block i alone. No barrier: every member's dest must be free when it is called (a new
 *       signal value per call, and the consumer done with the previous one, e.g. after a barrier).
 *   int jshmem_broadcastmem_block(int team, void *dest, const void *source, size_t nbytes, int pe_root)
 *       dest = team PE pe_root's source, on every member (the root included); dest == source allowed.
 *   int jshmem_alltoallmem_block(int team, void *dest, const void *source, size_t nbytes)
 *       block j (nbytes) of team PE i's source goes to block i of team PE j's dest; both hold n blocks.
 *   Typed forms jshmem_<T>_fcollect_block / _broadcast_block / _alltoall_block (counts in elements)
 *   for the <T> of jshmem_rma.h.
 * Copies are pulls (the block loads the members' data and stores it locally), 16 bytes wide where
 * the addresses allow, own data last, the others starting after this PE in team order (spreads
 * the load over the links when there are more than two PEs).
 *
 * The runtime (shmem-core kernels) runs the same functions as one-block kernels for small
 * collectives, and for large ones kernels of many blocks that enter with jshmemi_team_enter_block
 * and end with a one-block sync on the stream.
 */
#ifndef JSHMEM_COLL_H
#define JSHMEM_COLL_H

#ifndef JSHMEM_H
#error "include <jshmem/jshmem.h>, not jshmem_coll.h"
#endif

/* The 16 bits of an IEEE binary16 / a bfloat16 value. */
typedef unsigned short jshmem_half_t;
typedef unsigned short jshmem_bfloat16_t;

/* ---- 16-bit floating point conversions (exact integer code: no fp16 headers needed) ----------- */

/* binary16 bits -> float (exact; NaN payload shifted into the float's top mantissa bits). */
JSHMEM_DEVICE_INLINE float jshmemi_half_to_float(unsigned short h) {
  unsigned int sign = ((unsigned int)h & 0x8000u) << 16;
  unsigned int exp = ((unsigned int)h >> 10) & 0x1fu;
  unsigned int man = (unsigned int)h & 0x3ffu;
  unsigned int bits;
  if (exp == 0x1fu) {
    bits = sign | 0x7f800000u | (man << 13);
  } else if (exp != 0) {
    bits = sign | ((exp + 112u) << 23) | (man << 13);
  } else if (man == 0) {
    bits = sign;
  } else {
    /* subnormal: man * 2^-24, exact in float */
    bits = sign | __float_as_uint((float)man * 5.9604644775390625e-8f);
  }
  return __uint_as_float(bits);
}

/* float -> binary16 bits, round to nearest-even: the same code as Java's Float.floatToFloat16. */
JSHMEM_DEVICE_INLINE unsigned short jshmemi_float_to_half(float f) {
  unsigned int doppel = __float_as_uint(f);
  unsigned int sign = (doppel & 0x80000000u) >> 16;
  unsigned int abs = doppel & 0x7fffffffu;
  if (abs > 0x7f800000u) { /* NaN */
    return (unsigned short)(sign | 0x7c00u | ((doppel & 0x007fe000u) >> 13) |
                            ((doppel & 0x00001ff0u) >> 4) | (doppel & 0x0000000fu));
  }
  if (abs >= 0x477ff000u) return (unsigned short)(sign | 0x7c00u); /* >= 65520: infinity */
  if (abs <= 0x33000000u) return (unsigned short)sign;              /* <= 2^-25: zero */
  int exp = (int)(abs >> 23) - 127;
  int expdelta = 0;
  unsigned int msb = 0;
  if (exp < -14) {
    expdelta = -14 - exp;
    exp = -15;
    msb = 0x00800000u;
  }
  unsigned int f_signif = (doppel & 0x007fffffu) | msb;
  unsigned int signif = f_signif >> (13 + expdelta);
  unsigned int lsb = f_signif & (1u << (13 + expdelta));
  unsigned int round = f_signif & (1u << (12 + expdelta));
  unsigned int sticky = f_signif & ((1u << (12 + expdelta)) - 1u);
  if (round != 0 && (lsb | sticky) != 0) signif++;
  return (unsigned short)(sign | (((unsigned int)(exp + 15) << 10) + signif));
}

/* bfloat16 bits -> float (exact). */
JSHMEM_DEVICE_INLINE float jshmemi_bf16_to_float(unsigned short b) {
  return __uint_as_float((unsigned int)b << 16);
}

/* float -> bfloat16 bits, round to nearest-even (org.jshmem.DType.floatToBf16). */
JSHMEM_DEVICE_INLINE unsigned short jshmemi_float_to_bf16(float f) {
  unsigned int bits = __float_as_uint(f);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return (unsigned short)((bits >> 16) | 0x0040u);
  return (unsigned short)((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
}

/* ---- element types: how an element is stored and in what it is combined ------------------- */

struct jshmemi_fp16_tag {};
struct jshmemi_bf16_tag {};

template <typename T>
struct jshmemi_elem {
  typedef T storage;
  typedef T acc;
  static JSHMEM_DEVICE_INLINE T load(T s) { return s; }
  static JSHMEM_DEVICE_INLINE T store(T a) { return a; }
};
template <>
struct jshmemi_elem<jshmemi_fp16_tag> {
  typedef unsigned short storage;
  typedef float acc;
  static JSHMEM_DEVICE_INLINE float load(unsigned short s) { return jshmemi_half_to_float(s); }
  static JSHMEM_DEVICE_INLINE unsigned short store(float a) { return jshmemi_float_to_half(a); }
};
template <>
struct jshmemi_elem<jshmemi_bf16_tag> {
  typedef unsigned short storage;
  typedef float acc;
  static JSHMEM_DEVICE_INLINE float load(unsigned short s) { return jshmemi_bf16_to_float(s); }
  static JSHMEM_DEVICE_INLINE unsigned short store(float a) { return jshmemi_float_to_bf16(a); }
};

/* ---- arithmetic of each accumulator type ------------------------------------------------- */

/* Signed integers, wrapping: sums and products computed in the unsigned type W. */
template <typename T, typename W>
struct jshmemi_int_arith {
  static JSHMEM_DEVICE_INLINE T add(T a, T b) { return (T)(W)((W)a + (W)b); }
  static JSHMEM_DEVICE_INLINE T mul(T a, T b) { return (T)(W)((W)a * (W)b); }
  static JSHMEM_DEVICE_INLINE T min(T a, T b) { return a < b ? a : b; }
  static JSHMEM_DEVICE_INLINE T max(T a, T b) { return a > b ? a : b; }
  static JSHMEM_DEVICE_INLINE T band(T a, T b) { return (T)(a & b); }
  static JSHMEM_DEVICE_INLINE T bor(T a, T b) { return (T)(a | b); }
  static JSHMEM_DEVICE_INLINE T bxor(T a, T b) { return (T)(a ^ b); }
};

template <typename T>
struct jshmemi_arith;
template <>
struct jshmemi_arith<signed char> : jshmemi_int_arith<signed char, unsigned int> {};
template <>
struct jshmemi_arith<short> : jshmemi_int_arith<short, unsigned int> {};
template <>
struct jshmemi_arith<int> : jshmemi_int_arith<int, unsigned int> {};
template <>
struct jshmemi_arith<long> : jshmemi_int_arith<long, unsigned long long> {};
template <>
struct jshmemi_arith<long long> : jshmemi_int_arith<long long, unsigned long long> {};

/* float and double: MIN/MAX as Java's Math.min/Math.max. */
template <>
struct jshmemi_arith<float> {
  static JSHMEM_DEVICE_INLINE float add(float a, float b) { return a + b; }
  static JSHMEM_DEVICE_INLINE float mul(float a, float b) { return a * b; }
  static JSHMEM_DEVICE_INLINE float min(float a, float b) {
    if (a != a) return a;
    if (a == 0.0f && b == 0.0f && __float_as_uint(b) == 0x80000000u) return b;
    return a <= b ? a : b;
  }
  static JSHMEM_DEVICE_INLINE float max(float a, float b) {
    if (a != a) return a;
    if (a == 0.0f && b == 0.0f && __float_as_uint(a) == 0x80000000u) return b;
    return a >= b ? a : b;
  }
};
template <>
struct jshmemi_arith<double> {
  static JSHMEM_DEVICE_INLINE double add(double a, double b) { return a + b; }
  static JSHMEM_DEVICE_INLINE double mul(double a, double b) { return a * b; }
  static JSHMEM_DEVICE_INLINE double min(double a, double b) {
    if (a != a) return a;
    if (a == 0.0 && b == 0.0 &&
        (unsigned long long)__double_as_longlong(b) == 0x8000000000000000ull)
      return b;
    return a <= b ? a : b;
  }
  static JSHMEM_DEVICE_INLINE double max(double a, double b) {
    if (a != a) return a;
    if (a == 0.0 && b == 0.0 &&
        (unsigned long long)__double_as_longlong(a) == 0x8000000000000000ull)
      return b;
    return a >= b ? a : b;
  }
};

/* The operation JSHMEM_REDUCE_<OP> on two accumulators. */
template <int OP>
struct jshmemi_op;
template <>
struct jshmemi_op<JSHMEM_REDUCE_SUM> {
  template <typename A>
  static JSHMEM_DEVICE_INLINE A apply(A a, A b) { return jshmemi_arith<A>::add(a, b); }
};
template <>
struct jshmemi_op<JSHMEM_REDUCE_PROD> {
  template <typename A>
  static JSHMEM_DEVICE_INLINE A apply(A a, A b) { return jshmemi_arith<A>::mul(a, b); }
};
template <>
struct jshmemi_op<JSHMEM_REDUCE_MIN> {
  template <typename A>
  static JSHMEM_DEVICE_INLINE A apply(A a, A b) { return jshmemi_arith<A>::min(a, b); }
};
template <>
struct jshmemi_op<JSHMEM_REDUCE_MAX> {
  template <typename A>
  static JSHMEM_DEVICE_INLINE A apply(A a, A b) { return jshmemi_arith<A>::max(a, b); }
};
template <>
struct jshmemi_op<JSHMEM_REDUCE_AND> {
  template <typename A>
  static JSHMEM_DEVICE_INLINE A apply(A a, A b) { return jshmemi_arith<A>::band(a, b); }
};
template <>
struct jshmemi_op<JSHMEM_REDUCE_OR> {
  template <typename A>
  static JSHMEM_DEVICE_INLINE A apply(A a, A b) { return jshmemi_arith<A>::bor(a, b); }
};
template <>
struct jshmemi_op<JSHMEM_REDUCE_XOR> {
  template <typename A>
  static JSHMEM_DEVICE_INLINE A apply(A a, A b) { return jshmemi_arith<A>::bxor(a, b); }
};

/* ---- the reduction loops ---------------------------------------------------------------- */

/* One loaded word W (16 bytes, or one element) as N accumulators. */
template <typename E, int OP, typename W>
struct jshmemi_red_word {
  typedef typename E::storage S;
  typedef typename E::acc A;
  enum { N = sizeof(W) / sizeof(S) };
  union U {
    W w;
    S s[N];
  };
  A a[N];
  JSHMEM_DEVICE_INLINE void first(const W &w) {
    U u;
    u.w = w;
#pragma unroll
    for (int k = 0; k < N; ++k) a[k] = E::load(u.s[k]);
  }
  JSHMEM_DEVICE_INLINE void next(const W &w) {
    U u;
    u.w = w;
#pragma unroll
    for (int k = 0; k < N; ++k) a[k] = jshmemi_op<OP>::apply(a[k], E::load(u.s[k]));
  }
  JSHMEM_DEVICE_INLINE W result() const {
    U u;
#pragma unroll
    for (int k = 0; k < N; ++k) u.s[k] = E::store(a[k]);
    return u.w;
  }
};

/* Reduces `nwords` words of type W: word i of dest (heap offset doff) = op over the members, in
 * team order, of word i at heap offset soff of each member's heap. Word i by the thread with
 * i % nthreads == tid; each thread has UNROLL words in flight per member. push: the result goes
 * to every member's dest, else to this PE's. */
template <typename E, int OP, typename W, int UNROLL>
JSHMEM_DEVICE void jshmemi_reduce_words(const jshmem_team_desc_t &team, unsigned long long doff,
                                        unsigned long long soff, size_t nwords, bool push,
                                        size_t tid, size_t nthreads) {
  const jshmem_device_state_t &s = jshmem_device_state;
  const int n = team.size;
  size_t i = tid;
  for (; i + (UNROLL - 1) * nthreads < nwords; i += UNROLL * nthreads) {
    jshmemi_red_word<E, OP, W> r[UNROLL];
    {
      const W *src = (const W *)(s.peer_base[team.start] + soff);
      W w[UNROLL];
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) w[u] = src[i + u * nthreads];
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) r[u].first(w[u]);
    }
    for (int m = 1; m < n; ++m) {
      const W *src = (const W *)(s.peer_base[team.start + m * team.stride] + soff);
      W w[UNROLL];
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) w[u] = src[i + u * nthreads];
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) r[u].next(w[u]);
    }
    W out[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) out[u] = r[u].result();
    if (push) {
      for (int m = 0; m < n; ++m) {
        W *dst = (W *)(s.peer_base[team.start + m * team.stride] + doff);
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) dst[i + u * nthreads] = out[u];
      }
    } else {
      W *dst = (W *)(s.heap_base + doff);
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) dst[i + u * nthreads] = out[u];
    }
  }
  for (; i < nwords; i += nthreads) {
    jshmemi_red_word<E, OP, W> r;
    r.first(((const W *)(s.peer_base[team.start] + soff))[i]);
    for (int m = 1; m < n; ++m)
      r.next(((const W *)(s.peer_base[team.start + m * team.stride] + soff))[i]);
    W out = r.result();
    if (push) {
      for (int m = 0; m < n; ++m)
        ((W *)(s.peer_base[team.start + m * team.stride] + doff))[i] = out;
    } else {
      ((W *)(s.heap_base + doff))[i] = out;
    }
  }
}

/* jshmemi_reduce_words one member at a time, for teams of 3 or more: step k = 1 .. n-1 reduces member
 * me + k's words into this PE's dest (step 1 from this PE's source); with push, step k then puts the
 * result into member me + k's dest. So within a step every member is read (then written) by one other
 * member only; reduced all at once, each member is read and written by n - 1 others at a time, which
 * NVLink through NVSwitch serves more slowly for large vectors (GpuCollectivesBench on 4 GPUs).
 * Costs this PE's dest read and written once a step, in its own memory. The order of the operands is
 * me, me + 1, ... (mod n) rather than team order: floating-point sums and products may round
 * differently from the other shapes' (each member of the team still gets the same bits). */
template <typename E, int OP, typename W, int UNROLL>
JSHMEM_DEVICE void jshmemi_reduce_words_rotated(const jshmem_team_desc_t &team, int me, unsigned long long doff,
                                                unsigned long long soff, size_t nwords, bool push, size_t tid,
                                                size_t nthreads) {
  const jshmem_device_state_t &s = jshmem_device_state;
  const int n = team.size;
  W *mine = (W *)(s.heap_base + doff);
  for (int k = 1; k < n; ++k) {
    const W *acc = k == 1 ? (const W *)(s.heap_base + soff) : mine;
    const W *peer = (const W *)(s.peer_base[team.start + ((me + k) % n) * team.stride] + soff);
    size_t i = tid;
    for (; i + (UNROLL - 1) * nthreads < nwords; i += UNROLL * nthreads) {
      W a[UNROLL], b[UNROLL];
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) {
        a[u] = acc[i + u * nthreads];
        b[u] = peer[i + u * nthreads];
      }
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) {
        jshmemi_red_word<E, OP, W> r;
        r.first(a[u]);
        r.next(b[u]);
        mine[i + u * nthreads] = r.result();
      }
    }
    for (; i < nwords; i += nthreads) {
      jshmemi_red_word<E, OP, W> r;
      r.first(acc[i]);
      r.next(peer[i]);
      mine[i] = r.result();
    }
  }
  /* The pushes walk the words as the steps did (not jshmemi_copy's walk): each thread sends only words
   * it wrote itself, which need no synchronisation with the grid's other threads. */
  for (int k = 1; push && k < n; ++k) {
    W *dst = (W *)(s.peer_base[team.start + ((me + k) % n) * team.stride] + doff);
    size_t i = tid;
    for (; i + (UNROLL - 1) * nthreads < nwords; i += UNROLL * nthreads) {
      W w[UNROLL];
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) w[u] = mine[i + u * nthreads];
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) dst[i + u * nthreads] = w[u];
    }
    for (; i < nwords; i += nthreads) dst[i] = mine[i];
  }
}

/* Internal: elements before the first 16-byte aligned one, when dest and source (heap offsets)
 * are equally aligned modulo 16 (else: all of them, i.e. no 16-byte words). Offsets are multiples
 * of the element size; every heap base is 16-byte aligned (the runtime checks). */
template <typename E>
JSHMEM_DEVICE_INLINE size_t jshmemi_red_head(unsigned long long doff, unsigned long long soff,
                                             size_t count) {
  const size_t sz = sizeof(typename E::storage);
  if (((doff ^ soff) & 15) != 0) return count;
  unsigned long long a = jshmemi_addr(jshmem_device_state.heap_base) + soff;
  size_t head = (size_t)(((16 - (a & 15)) & 15) / sz);
  return head < count ? head : count;
}

/* Reduces elements [lo, hi): an element-wise head, 16-byte words, an element-wise tail. rotated:
 * the words one member at a time (jshmemi_reduce_words_rotated; me: this PE's index in the team). */
template <typename E, int OP>
JSHMEM_DEVICE void jshmemi_reduce_span(const jshmem_team_desc_t &team, unsigned long long doff,
                                       unsigned long long soff, size_t lo, size_t hi, bool push,
                                       size_t tid, size_t nthreads, bool rotated = false, int me = 0) {
  typedef typename E::storage S;
  const size_t sz = sizeof(S);
  const size_t per_word = 16 / sz;
  if (lo >= hi) return;
  size_t count = hi - lo;
  unsigned long long d = doff + lo * sz;
  unsigned long long s = soff + lo * sz;
  size_t head = jshmemi_red_head<E>(d, s, count);
  size_t words = (count - head) / per_word;
  size_t tail = count - head - words * per_word;
  jshmemi_reduce_words<E, OP, S, 4>(team, d, s, head, push, tid, nthreads);
  d += head * sz;
  s += head * sz;
  /* rotated keeps partial results in dest: not for fp16 and bf16, whose partials would be rounded
   * to 16 bits at every step (they add in fp32 otherwise) */
  if (rotated && sizeof(typename E::storage) == sizeof(typename E::acc))
    jshmemi_reduce_words_rotated<E, OP, jshmemi_v16, 4>(team, me, d, s, words, push, tid, nthreads);
  else
    jshmemi_reduce_words<E, OP, jshmemi_v16, 4>(team, d, s, words, push, tid, nthreads);
  d += words * 16;
  s += words * 16;
  jshmemi_reduce_words<E, OP, S, 4>(team, d, s, tail, push, tid, nthreads);
}

/* Internal: first unit of member i's share of `units` split n ways (balanced), floor(units*i/n). */
JSHMEM_DEVICE_INLINE size_t jshmemi_slice_start(size_t units, int i, int n) {
  return units / (size_t)n * (size_t)i + units % (size_t)n * (size_t)i / (size_t)n;
}

/* The reduction after the entry sync, by `nthreads` threads (tid = this one): one-shot into this
 * PE's dest, or two-shot: this PE's slice, pushed into every member's dest (rotated: one member at
 * a time, see jshmemi_reduce_words_rotated). Slices are whole 16-byte words (the element-wise head
 * goes to team PE 0, the tail to the last), so that every member's 16-byte words stay whole. */
template <typename E, int OP>
JSHMEM_DEVICE void jshmemi_reduce_body(int slot, const void *dest, const void *src, size_t nelems,
                                       bool two_shot, size_t tid, size_t nthreads, bool rotated = false) {
  const jshmem_device_state_t &s = jshmem_device_state;
  const jshmem_team_desc_t &team = s.teams[slot];
  unsigned long long base = jshmemi_addr(s.heap_base);
  unsigned long long doff = jshmemi_addr(dest) - base;
  unsigned long long soff = jshmemi_addr(src) - base;
  if (!two_shot) {
    jshmemi_reduce_span<E, OP>(team, doff, soff, 0, nelems, false, tid, nthreads);
    return;
  }
  const int n = team.size;
  const int me = jshmemi_team_index(team, s.my_pe);
  const size_t sz = sizeof(typename E::storage);
  /* dest and source equally aligned modulo 16: slices of whole words after the head; else of
   * elements */
  const bool words = ((doff ^ soff) & 15) == 0;
  size_t head = words ? jshmemi_red_head<E>(doff, soff, nelems) : 0;
  size_t unit = words ? 16 / sz : 1;
  size_t units = (nelems - head) / unit;
  size_t lo = me == 0 ? 0 : head + jshmemi_slice_start(units, me, n) * unit;
  size_t hi = me == n - 1 ? nelems : head + jshmemi_slice_start(units, me + 1, n) * unit;
  jshmemi_reduce_span<E, OP>(team, doff, soff, lo, hi, true, tid, nthreads, rotated, me);
}

/* The block-scope reduction: entry sync, reduce, exit sync (with a quiet if it pushed). */
template <typename E, int OP>
JSHMEM_DEVICE int jshmemi_reduce_block(const char *fn, int slot, void *dest, const void *src,
                                       size_t nelems, bool two_shot) {
  const size_t sz = sizeof(typename E::storage);
  JSHMEMI_DEBUG(jshmemi_check_coll(fn, slot, dest, nelems * sz, src, nelems * sz, sz, -1));
  jshmemi_team_sync_block(fn, slot, false);
  jshmemi_reduce_body<E, OP>(slot, dest, src, nelems, two_shot, jshmemi_thread_id(),
                             jshmemi_block_size());
  jshmemi_team_sync_block(fn, slot, two_shot);
  return 0;
}

/* The reduce-scatter after the entry sync: this PE's block (member me's nreduce elements of every
 * member's source, from element me * nreduce) reduced into its dest (rotated: one member at a time);
 * nothing is pushed. */
template <typename E, int OP>
JSHMEM_DEVICE void jshmemi_reducescatter_body(int slot, const void *dest, const void *src,
                                              size_t nreduce, size_t tid, size_t nthreads,
                                              bool rotated = false) {
  const jshmem_device_state_t &s = jshmem_device_state;
  const jshmem_team_desc_t &team = s.teams[slot];
  unsigned long long base = jshmemi_addr(s.heap_base);
  unsigned long long doff = jshmemi_addr(dest) - base;
  unsigned long long soff = jshmemi_addr(src) - base;
  const size_t block = nreduce * sizeof(typename E::storage);
  const int me = jshmemi_team_index(team, s.my_pe);
  jshmemi_reduce_span<E, OP>(team, doff, soff + (unsigned long long)me * block, 0, nreduce, false,
                             tid, nthreads, rotated, me);
}

/* The block-scope reduce-scatter: entry sync, reduce this PE's block, exit sync (no member
 * rewrites its source while another still reads it). */
template <typename E, int OP>
JSHMEM_DEVICE int jshmemi_reducescatter_block(const char *fn, int slot, void *dest, const void *src,
                                              size_t nreduce) {
  const size_t sz = sizeof(typename E::storage);
  JSHMEMI_DEBUG(jshmemi_check_coll(
      fn, slot, dest, nreduce * sz, src,
      nreduce * sz * (slot >= 0 && slot < JSHMEM_MAX_TEAMS ? jshmem_device_state.teams[slot].size : 1),
      sz, -1));
  jshmemi_team_sync_block(fn, slot, false);
  jshmemi_reducescatter_body<E, OP>(slot, dest, src, nreduce, jshmemi_thread_id(),
                                    jshmemi_block_size());
  jshmemi_team_sync_block(fn, slot, false);
  return 0;
}

/* ---- typed reduction names ------------------------------------------------------------- */

#define JSHMEMI_REDUCE_NAME(NAME, T, E, OPNAME, OP)                                              \
  JSHMEM_DEVICE_INLINE int jshmem_##NAME##_##OPNAME##_reduce_block(int team, T *dest,            \
                                                                   const T *source,              \
                                                                   size_t nreduce) {             \
    return jshmemi_reduce_block<E, OP>(__func__, team, dest, source, nreduce,                    \
                                       (const void *)dest == (const void *)source);              \
  }                                                                                              \
  JSHMEM_DEVICE_INLINE int jshmem_##NAME##_##OPNAME##_reducescatter_block(int team, T *dest,     \
                                                                          const T *source,       \
                                                                          size_t nreduce) {      \
    return jshmemi_reducescatter_block<E, OP>(__func__, team, dest, source, nreduce);            \
  }

#define JSHMEMI_REDUCE_ARITH(NAME, T, E)                                                         \
  JSHMEMI_REDUCE_NAME(NAME, T, E, sum, JSHMEM_REDUCE_SUM)                                        \
  JSHMEMI_REDUCE_NAME(NAME, T, E, prod, JSHMEM_REDUCE_PROD)                                      \
  JSHMEMI_REDUCE_NAME(NAME, T, E, min, JSHMEM_REDUCE_MIN)                                        \
  JSHMEMI_REDUCE_NAME(NAME, T, E, max, JSHMEM_REDUCE_MAX)

#define JSHMEMI_REDUCE_INT(NAME, T)                                                              \
  JSHMEMI_REDUCE_ARITH(NAME, T, jshmemi_elem<T>)                                                 \
  JSHMEMI_REDUCE_NAME(NAME, T, jshmemi_elem<T>, and, JSHMEM_REDUCE_AND)                          \
  JSHMEMI_REDUCE_NAME(NAME, T, jshmemi_elem<T>, or, JSHMEM_REDUCE_OR)                            \
  JSHMEMI_REDUCE_NAME(NAME, T, jshmemi_elem<T>, xor, JSHMEM_REDUCE_XOR)

/* The integer types of reductions: X(name, C type). */
#define JSHMEM_FOR_REDUCE_INT_TYPES(X)                                                           \
  X(schar, signed char)                                                                          \
  X(short, short)                                                                                \
  X(int, int)                                                                                    \
  X(long, long)                                                                                  \
  X(longlong, long long)                                                                         \
  X(int8, int8_t)                                                                                \
  X(int16, int16_t)                                                                              \
  X(int32, int32_t)                                                                              \
  X(int64, int64_t)

JSHMEM_FOR_REDUCE_INT_TYPES(JSHMEMI_REDUCE_INT)
JSHMEMI_REDUCE_ARITH(float, float, jshmemi_elem<float>)
JSHMEMI_REDUCE_ARITH(double, double, jshmemi_elem<double>)
JSHMEMI_REDUCE_ARITH(half, jshmem_half_t, jshmemi_elem<jshmemi_fp16_tag>)
JSHMEMI_REDUCE_ARITH(bfloat16, jshmem_bfloat16_t, jshmemi_elem<jshmemi_bf16_tag>)

/* ---- data movement: fcollect, collect, broadcast, alltoall ------------------------------ */

/* World PE of team member i. */
JSHMEM_DEVICE_INLINE int jshmemi_member(const jshmem_team_desc_t &t, int i) {
  return t.start + i * t.stride;
}

/* The pulls of one collective: for k = 0 .. count-1, member i = first + (me + 1 + k) % count
 * (own data last) gives at[i+1] - at[i] bytes from its heap at offset src_off + src_skip to this
 * PE's heap at dst_off + at[i]. A piece whose source and destination are the same bytes (own data
 * in place) is skipped. Shared by the block forms and the runtime's kernels (plan by value). */
struct jshmemi_pull_plan {
  unsigned long long dst_off;
  unsigned long long src_off;
  unsigned long long src_skip;
  unsigned long long at[JSHMEM_MAX_PES + 1];
  int first;
  int count;
};

JSHMEM_DEVICE void jshmemi_pull(const jshmemi_pull_plan &p, const jshmem_team_desc_t &team,
                                size_t tid, size_t nthreads) {
  const jshmem_device_state_t &s = jshmem_device_state;
  const int me = jshmemi_team_index(team, s.my_pe);
  for (int k = 0; k < p.count; ++k) {
    int i = p.first + (me + 1 + k) % p.count;
    unsigned long long len = p.at[i + 1] - p.at[i];
    char *dst = s.heap_base + p.dst_off + p.at[i];
    const char *src = s.peer_base[jshmemi_member(team, i)] + p.src_off + p.src_skip;
    if (len == 0 || dst == src) continue;
    jshmemi_copy<JSHMEMI_UNROLL_BLOCK>(dst, src, len, tid, nthreads);
  }
}

/* Internal: heap offset of a symmetric address. */
JSHMEM_DEVICE_INLINE unsigned long long jshmemi_heap_off(const void *p) {
  return jshmemi_addr(p) - jshmemi_addr(jshmem_device_state.heap_base);
}

/* Internal: the block form of a pull collective: entry sync, pulls, exit sync. */
JSHMEM_DEVICE void jshmemi_pull_block(const char *fn, int slot, const jshmemi_pull_plan &p) {
  jshmemi_team_sync_block(fn, slot, false);
  jshmemi_pull(p, jshmem_device_state.teams[slot], jshmemi_thread_id(), jshmemi_block_size());
  jshmemi_team_sync_block(fn, slot, false);
}

/* Internal: a plan for fcollect / alltoall: member i's `nbytes` to dest + i * nbytes. */
JSHMEM_DEVICE void jshmemi_plan_blocks(jshmemi_pull_plan *p, int slot, const void *dest,
                                       const void *source, size_t nbytes, size_t skip) {
  const int n = jshmem_device_state.teams[slot].size;
  p->dst_off = jshmemi_heap_off(dest);
  p->src_off = jshmemi_heap_off(source);
  p->src_skip = skip;
  for (int i = 0; i <= n && i <= JSHMEM_MAX_PES; ++i) p->at[i] = (unsigned long long)i * nbytes;
  p->first = 0;
  p->count = n;
}

JSHMEM_DEVICE_INLINE int jshmem_fcollectmem_block(int team, void *dest, const void *source,
                                                  size_t nbytes) {
  JSHMEMI_DEBUG(jshmemi_check_coll(__func__, team, dest,
                                   nbytes * (unsigned long long)jshmem_device_state.teams[team].size,
                                   source, nbytes, 1, -1));
  jshmemi_pull_plan p;
  jshmemi_plan_blocks(&p, team, dest, source, nbytes, 0);
  jshmemi_pull_block(__func__, team, p);
  return 0;
}

JSHMEM_DEVICE_INLINE void jshmemx_fcollectmem_signal_block(int team, void *dest, const void *source,
                                                          size_t nbytes, uint64_t *sig_addr,
                                                          uint64_t signal) {
  const jshmem_device_state_t &s = jshmem_device_state;
  const jshmem_team_desc_t &t = s.teams[team];
  const int me = jshmemi_team_index(t, s.my_pe);
  for (int k = 0; k < t.size; ++k) {
    const int pe = jshmemi_member(t, (me + k) % t.size);
    jshmemi_putmem_signal<JSHMEMI_BLOCK>(__func__, (char *)dest + nbytes * (size_t)me, source, nbytes,
                                         sig_addr + me, signal, JSHMEM_SIGNAL_SET, pe);
  }
}

JSHMEM_DEVICE_INLINE int jshmem_alltoallmem_block(int team, void *dest, const void *source,
                                                  size_t nbytes) {
  const jshmem_device_state_t &s = jshmem_device_state;
  JSHMEMI_DEBUG(jshmemi_check_coll(__func__, team, dest,
                                   nbytes * (unsigned long long)s.teams[team].size, source,
                                   nbytes * (unsigned long long)s.teams[team].size, 1, -1));
  jshmemi_pull_plan p;
  jshmemi_plan_blocks(&p, team, dest, source, nbytes,
                      nbytes * (size_t)jshmemi_team_index(s.teams[team], s.my_pe));
  jshmemi_pull_block(__func__, team, p);
  return 0;
}

JSHMEM_DEVICE_INLINE int jshmem_broadcastmem_block(int team, void *dest, const void *source,
                                                   size_t nbytes, int pe_root) {
  JSHMEMI_DEBUG(jshmemi_check_coll(__func__, team, dest, nbytes, source, nbytes, 1, pe_root));
  jshmemi_pull_plan p;
  p.dst_off = jshmemi_heap_off(dest);
  p.src_off = jshmemi_heap_off(source);
  p.src_skip = 0;
  p.at[pe_root] = 0;
  p.at[pe_root + 1] = nbytes;
  p.first = pe_root;
  p.count = 1;
  jshmemi_pull_block(__func__, team, p);
  return 0;
}

JSHMEM_DEVICE_INLINE size_t jshmem_collectmem_block(int team, void *dest, const void *source,
                                                    size_t nbytes) {
  const jshmem_device_state_t &s = jshmem_device_state;
  JSHMEMI_DEBUG(jshmemi_check_coll(__func__, team, dest, 0, source, nbytes, 1, -1));
  __shared__ jshmemi_pull_plan jshmemi_collect_plan;
  const jshmem_team_desc_t &t = s.teams[team];
  const unsigned tid = jshmemi_thread_id();
  const unsigned nthreads = jshmemi_block_size();
  /* my size into coll cell [team][my_pe] of every member (ordered before the entry sync's
   * release stores: same thread per member, and a block barrier in between) */
  for (unsigned i = tid; i < (unsigned)t.size; i += nthreads) {
    unsigned long long *cell = (unsigned long long *)(s.peer_base[jshmemi_member(t, (int)i)] +
                                                      JSHMEM_COLL_CELL(team, s.my_pe));
    jshmemi_st_relaxed_sys(cell, (unsigned long long)nbytes);
  }
  jshmemi_team_sync_block(__func__, team, false);
  if (tid == 0) {
    jshmemi_pull_plan &p = jshmemi_collect_plan;
    p.dst_off = jshmemi_heap_off(dest);
    p.src_off = jshmemi_heap_off(source);
    p.src_skip = 0;
    p.at[0] = 0;
    for (int i = 0; i < t.size; ++i) {
      const unsigned long long *cell = (const unsigned long long *)(
          s.heap_base + JSHMEM_COLL_CELL(team, jshmemi_member(t, i)));
      p.at[i + 1] = p.at[i] + jshmemi_ld_relaxed_sys(cell);
    }
    p.first = 0;
    p.count = t.size;
  }
  jshmemi_block_sync();
  jshmemi_pull(jshmemi_collect_plan, t, tid, nthreads);
  size_t total = (size_t)jshmemi_collect_plan.at[t.size];
  /* the exit sync: no member reads this PE's source (nor its size cell) any more */
  jshmemi_team_sync_block(__func__, team, false);
  return total;
}

/* Typed forms, counts in elements: jshmem_<T>_fcollect_block, _alltoall_block, _broadcast_block. */
#define JSHMEMI_COLL_TYPED(NAME, T)                                                              \
  JSHMEM_DEVICE_INLINE int jshmem_##NAME##_fcollect_block(int team, T *dest, const T *source,    \
                                                          size_t nelems) {                       \
    return jshmem_fcollectmem_block(team, dest, source, nelems * sizeof(T));                     \
  }                                                                                              \
  JSHMEM_DEVICE_INLINE int jshmem_##NAME##_alltoall_block(int team, T *dest, const T *source,    \
                                                          size_t nelems) {                       \
    return jshmem_alltoallmem_block(team, dest, source, nelems * sizeof(T));                     \
  }                                                                                              \
  JSHMEM_DEVICE_INLINE int jshmem_##NAME##_broadcast_block(int team, T *dest, const T *source,   \
                                                           size_t nelems, int pe_root) {         \
    return jshmem_broadcastmem_block(team, dest, source, nelems * sizeof(T), pe_root);           \
  }
JSHMEM_FOR_RMA_TYPES(JSHMEMI_COLL_TYPED)

#endif /* JSHMEM_COLL_H */
