/*
 * coll_host_sim.cpp - runs the device library's collective loops (jshmem_coll.h) on the host, with
 * a few lines standing in for CUDA, to check their index arithmetic without a GPU: heads, 16-byte
 * words and tails at every alignment, two-shot slices, grid-stride loops of any thread count, the
 * pull plans of fcollect / alltoall / broadcast / collect, and the element arithmetic (integer
 * wrap-around, Java's min/max, fp16/bf16 conversions against vectors written by Java, bit for bit
 * except NaN payloads).
 *
 * How: every simulated PE has a heap (internal region + data); the device state is set for one PE
 * at a time and the loop body of a collective (what runs between its entry and exit syncs) is run
 * for thread 0, 1, ..., nthreads-1 in turn. No loop has a dependency between threads, so this
 * equals any parallel schedule; running the PEs one after another equals any interleaving because
 * in every algorithm each byte is written by one PE and read before it is written (two-shot in
 * place: slice i of every source is read and written by PE i alone). Run by
 * org.jshmem.gpu.CollectiveKernelsOnHostTest: coll_host_sim <vectors file>; prints "ok" last.
 */
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

/* ---- CUDA, as far as the loops need it ---- */
#define __device__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __shared__ static
#define __constant__
#define __global__
struct jshmemi_sim_dim3 {
  unsigned x, y, z;
};
static jshmemi_sim_dim3 threadIdx = {0, 0, 0}, blockDim = {1, 1, 1}, blockIdx = {0, 0, 0}, gridDim = {1, 1, 1};
static inline void __syncthreads() {}
static inline void __syncwarp(unsigned) {}
static inline void __trap() { abort(); }
static inline void __threadfence_system() {}
template <typename T>
static inline T __ldcg(const T *p) { return *p; }   /* an L1-bypassing load: a plain load here */
struct alignas(16) uint4 {
  unsigned x, y, z, w;
};
static inline unsigned __float_as_uint(float f) {
  unsigned u;
  memcpy(&u, &f, 4);
  return u;
}
static inline float __uint_as_float(unsigned u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static inline long long __double_as_longlong(double d) {
  long long l;
  memcpy(&l, &d, 8);
  return l;
}
/* declared only: the atomics are never called here */
template <typename T>
T atomicCAS_system(T *, T, T);
template <typename T>
T atomicAdd_system(T *, T);
template <typename T>
T atomicAnd_system(T *, T);
template <typename T>
T atomicOr_system(T *, T);
template <typename T>
T atomicXor_system(T *, T);
template <typename T>
T atomicExch_system(T *, T);
/* declared only as well: the device proxy's ticket and the warp broadcast of its slot */
template <typename T>
T atomicAdd(T *, T);
template <typename T>
T __shfl_sync(unsigned, T, int);

#include <jshmem/jshmem.h>

static int failures = 0;
static long checks = 0;
#define FAIL(...)                                   \
  do {                                              \
    if (failures++ < 30) {                          \
      printf("FAIL ");                              \
      printf(__VA_ARGS__);                          \
      printf("\n");                                 \
    }                                               \
  } while (0)

/* ---- simulated PEs ---- */
static const size_t DATA = 1 << 20;
static std::vector<char *> heaps;

static void set_pe(int pe, int n, int slot, int start, int stride, int size) {
  jshmem_device_state_t &s = jshmem_device_state;
  memset(&s, 0, sizeof s);
  s.my_pe = pe;
  s.n_pes = n;
  s.heap_size = JSHMEM_INTERNAL_SIZE + DATA;
  s.heap_base = heaps[pe];
  for (int i = 0; i < n; i++) s.peer_base[i] = heaps[i];
  s.teams[slot].start = start;
  s.teams[slot].stride = stride;
  s.teams[slot].size = size;
  s.teams[slot].slot = slot;
}

static char *at(int pe, size_t off) { return heaps[pe] + JSHMEM_INTERNAL_SIZE + off; }

/* ---- conversions against Java ---- */
/* NaN payloads are not part of the contract (Java's own conversions differ between interpreter
 * and JIT: the hardware instructions quiet a signalling NaN): a NaN of the same sign matches. */
static bool half_nan(unsigned h) { return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0; }
static bool bf16_nan(unsigned b) { return (b & 0x7f80u) == 0x7f80u && (b & 0x7fu) != 0; }
static bool float_nan(unsigned f) { return (f & 0x7f800000u) == 0x7f800000u && (f & 0x7fffffu) != 0; }
static bool same16(unsigned got, unsigned want, bool (*nan)(unsigned)) {
  return got == want || (nan(got) && nan(want) && (got >> 15) == (want >> 15));
}
static bool same32(unsigned got, unsigned want) {
  return got == want || (float_nan(got) && float_nan(want) && (got >> 31) == (want >> 31));
}

static void check_vectors(const char *path) {
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    FAIL("cannot open %s", path);
    return;
  }
  char kind[8];
  unsigned a, b;
  while (fscanf(f, "%7s %x %x", kind, &a, &b) == 3) {
    checks++;
    if (strcmp(kind, "h2f") == 0) {
      unsigned got = __float_as_uint(jshmemi_half_to_float((unsigned short)a));
      if (!same32(got, b)) FAIL("half %04x -> float %08x, Java %08x", a, got, b);
    } else if (strcmp(kind, "f2h") == 0) {
      unsigned got = jshmemi_float_to_half(__uint_as_float(a));
      if (!same16(got, b, half_nan)) FAIL("float %08x -> half %04x, Java %04x", a, got, b);
    } else if (strcmp(kind, "f2b") == 0) {
      unsigned got = jshmemi_float_to_bf16(__uint_as_float(a));
      if (!same16(got, b, bf16_nan)) FAIL("float %08x -> bf16 %04x, Java %04x", a, got, b);
    } else if (strcmp(kind, "b2f") == 0) {
      unsigned got = __float_as_uint(jshmemi_bf16_to_float((unsigned short)a));
      if (!same32(got, b)) FAIL("bf16 %04x -> float %08x, Java %08x", a, got, b);
    }
  }
  fclose(f);
}

/* ---- reference arithmetic, written independently of the header ---- */
template <typename T>
static T ref_int(int op, T a, T b) {
  uint64_t ua = (uint64_t)(int64_t)a, ub = (uint64_t)(int64_t)b;
  switch (op) {
    case JSHMEM_REDUCE_SUM: return (T)(ua + ub);
    case JSHMEM_REDUCE_PROD: return (T)(ua * ub);
    case JSHMEM_REDUCE_MIN: return a < b ? a : b;
    case JSHMEM_REDUCE_MAX: return a > b ? a : b;
    case JSHMEM_REDUCE_AND: return (T)(ua & ub);
    case JSHMEM_REDUCE_OR: return (T)(ua | ub);
    default: return (T)(ua ^ ub);
  }
}
template <typename F>
static F ref_real(int op, F a, F b) {
  switch (op) {
    case JSHMEM_REDUCE_SUM: return a + b;
    case JSHMEM_REDUCE_PROD: return a * b;
    case JSHMEM_REDUCE_MIN:
      if (std::isnan(a)) return a;
      if (std::isnan(b)) return b;
      if (a == 0 && b == 0) return std::signbit(a) ? a : b;
      return a < b ? a : b;
    default:
      if (std::isnan(a)) return a;
      if (std::isnan(b)) return b;
      if (a == 0 && b == 0) return std::signbit(a) ? b : a;
      return a > b ? a : b;
  }
}

/* The bytes of `from` as a To (the smaller size copied; the branches that use it match sizes). */
template <typename To, typename From>
static To bits_as(const From &from) {
  To to{};
  memcpy(&to, &from, sizeof(To) < sizeof(From) ? sizeof(To) : sizeof(From));
  return to;
}

/* A floating-point input: mostly thousandths in [-2, 2], a quarter of them +0.0 or -0.0 (so that
 * min/max meet zeros of both signs), a few NaNs with `nan`. */
static double real_datum(uint64_t r, bool nan) {
  if (nan && r % 211 == 0) return std::nan("");
  if ((r >> 20) % 4 == 0) return (r >> 24) % 2 == 0 ? 0.0 : -0.0;
  return (double)((int)(r % 4001) - 2000) / 1000.0;
}

/* Element k of PE p's data, as stored (random bits; floating types: real_datum). */
template <typename S>
static S datum(std::mt19937_64 &rng, int dtype, bool nan) {
  uint64_t r = rng();
  S s;
  if (dtype == JSHMEM_DTYPE_FLOAT) {
    s = bits_as<S>((float)real_datum(r, nan));
  } else if (dtype == JSHMEM_DTYPE_DOUBLE) {
    s = bits_as<S>(real_datum(r, nan));
  } else if (dtype == JSHMEM_DTYPE_FP16) {
    s = (S)jshmemi_float_to_half((float)real_datum(r, nan));
  } else if (dtype == JSHMEM_DTYPE_BF16) {
    s = (S)jshmemi_float_to_bf16((float)real_datum(r, nan));
  } else {
    s = bits_as<S>(r);
  }
  return s;
}

/* The expected reduction of element k over the members (team order), as stored. */
template <typename S>
static S expect(int dtype, int op, const std::vector<std::vector<S>> &data, size_t k) {
  switch (dtype) {
    case JSHMEM_DTYPE_FLOAT: {
      float acc = bits_as<float>(data[0][k]);
      for (size_t m = 1; m < data.size(); m++) acc = ref_real(op, acc, bits_as<float>(data[m][k]));
      return bits_as<S>(acc);
    }
    case JSHMEM_DTYPE_DOUBLE: {
      double acc = bits_as<double>(data[0][k]);
      for (size_t m = 1; m < data.size(); m++) acc = ref_real(op, acc, bits_as<double>(data[m][k]));
      return bits_as<S>(acc);
    }
    case JSHMEM_DTYPE_FP16:
    case JSHMEM_DTYPE_BF16: {
      bool h = dtype == JSHMEM_DTYPE_FP16;
      float acc = h ? jshmemi_half_to_float((unsigned short)data[0][k]) : jshmemi_bf16_to_float((unsigned short)data[0][k]);
      for (size_t m = 1; m < data.size(); m++)
        acc = ref_real(op, acc, h ? jshmemi_half_to_float((unsigned short)data[m][k])
                                  : jshmemi_bf16_to_float((unsigned short)data[m][k]));
      return (S)(h ? jshmemi_float_to_half(acc) : jshmemi_float_to_bf16(acc));
    }
    default: {
      S acc = data[0][k];
      for (size_t m = 1; m < data.size(); m++) acc = ref_int(op, acc, data[m][k]);
      return acc;
    }
  }
}

struct TeamSpec {
  int n_pes, start, stride, size;
};

/* One reduction on the simulated PEs: every member's source at doff/soff (bytes into its data),
 * the loop body run by `nthreads` simulated threads per PE, PEs one after another. */
template <typename E, int OP>
static void run_reduce(int dtype, const TeamSpec &t, size_t nelems, size_t doff, size_t soff, bool two_shot,
                       size_t nthreads, std::mt19937_64 &rng) {
  typedef typename E::storage S;
  const int slot = 5;
  bool in_place = doff == soff;
  std::vector<std::vector<S>> data(t.size, std::vector<S>(nelems));
  for (int m = 0; m < t.size; m++) {
    int pe = t.start + m * t.stride;
    for (size_t k = 0; k < nelems; k++) data[m][k] = datum<S>(rng, dtype, OP == JSHMEM_REDUCE_MIN || OP == JSHMEM_REDUCE_MAX);
    memcpy(at(pe, soff), data[m].data(), nelems * sizeof(S));
    if (!in_place) memset(at(pe, doff), 0x5a, nelems * sizeof(S) + 64);
    memset(at(pe, (in_place ? soff : doff) + nelems * sizeof(S)), 0x5a, 64);  /* guard */
  }
  for (int m = 0; m < t.size; m++) {
    int pe = t.start + m * t.stride;
    set_pe(pe, t.n_pes, slot, t.start, t.stride, t.size);
    for (size_t tid = 0; tid < nthreads; tid++)
      jshmemi_reduce_body<E, OP>(slot, at(pe, doff), at(pe, soff), nelems, two_shot, tid, nthreads);
  }
  for (int m = 0; m < t.size; m++) {
    int pe = t.start + m * t.stride;
    const S *d = (const S *)at(pe, doff);
    for (size_t k = 0; k < nelems; k++) {
      checks++;
      S want = expect<S>(dtype, OP, data, k);
      if (memcmp(&d[k], &want, sizeof(S)) != 0) {
        FAIL("reduce dtype %d op %d n %zu doff %zu soff %zu %s threads %zu team %d/%d/%d of %d: PE %d element %zu",
             dtype, OP, nelems, doff, soff, two_shot ? "two-shot" : "one-shot", nthreads, t.start, t.stride,
             t.size, t.n_pes, pe, k);
        return;
      }
    }
    const unsigned char *g = (const unsigned char *)at(pe, doff + nelems * sizeof(S));
    for (int i = 0; i < 64; i++) {
      if (g[i] != 0x5a) {
        FAIL("reduce dtype %d op %d n %zu: PE %d wrote past the end", dtype, OP, nelems, pe);
        return;
      }
    }
  }
}

struct Case {
  size_t doff, soff;
};

template <typename E, int OP>
static void reduce_cases(int dtype, std::mt19937_64 &rng, bool thorough) {
  const size_t sz = sizeof(typename E::storage);
  std::vector<TeamSpec> teams = {{1, 0, 1, 1}, {2, 0, 1, 2}, {3, 0, 1, 3}, {4, 1, 2, 2}, {4, 0, 1, 4}};
  std::vector<size_t> sizes = thorough ? std::vector<size_t>{0, 1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64,
                                                             65, 100, 127, 257, 1001, 4099}
                                       : std::vector<size_t>{1, 9, 33, 1001};
  std::vector<size_t> threads = thorough ? std::vector<size_t>{1, 3, 32, 1536} : std::vector<size_t>{7, 1536};
  /* 16-aligned, equally misaligned (a head), differently aligned (element by element), in place */
  std::vector<Case> cases = {{0, 200000}, {8 + 16 * 1024, 8 + 200000},
                             {sz, 200000}, {16 + 2 * sz, 16 + 2 * sz}};
  if (sz < 8) cases.push_back({sz, 200000 + sz});   /* a head of odd length */
  for (const TeamSpec &t : teams) {
    for (size_t n : sizes) {
      for (const Case &c : cases) {
        for (size_t th : threads) {
          bool in_place = c.doff == c.soff;
          if (!in_place) run_reduce<E, OP>(dtype, t, n, c.doff, c.soff, false, th, rng);
          run_reduce<E, OP>(dtype, t, n, c.doff, c.soff, true, th, rng);
        }
      }
    }
  }
}

template <typename T>
static void int_ops(int dtype, std::mt19937_64 &rng) {
  typedef jshmemi_elem<T> E;
  reduce_cases<E, JSHMEM_REDUCE_SUM>(dtype, rng, dtype == JSHMEM_DTYPE_BYTE);
  reduce_cases<E, JSHMEM_REDUCE_PROD>(dtype, rng, false);
  reduce_cases<E, JSHMEM_REDUCE_MIN>(dtype, rng, false);
  reduce_cases<E, JSHMEM_REDUCE_MAX>(dtype, rng, false);
  reduce_cases<E, JSHMEM_REDUCE_AND>(dtype, rng, false);
  reduce_cases<E, JSHMEM_REDUCE_OR>(dtype, rng, false);
  reduce_cases<E, JSHMEM_REDUCE_XOR>(dtype, rng, false);
}

template <typename E>
static void real_ops(int dtype, std::mt19937_64 &rng) {
  reduce_cases<E, JSHMEM_REDUCE_SUM>(dtype, rng, dtype == JSHMEM_DTYPE_FLOAT || dtype == JSHMEM_DTYPE_FP16);
  reduce_cases<E, JSHMEM_REDUCE_PROD>(dtype, rng, false);
  reduce_cases<E, JSHMEM_REDUCE_MIN>(dtype, rng, false);
  reduce_cases<E, JSHMEM_REDUCE_MAX>(dtype, rng, false);
}

/* ---- pulls: fcollect, alltoall, broadcast, collect ---- */
enum { FCOLLECT, ALLTOALL, BROADCAST, COLLECT };

static void run_pull(int what, const TeamSpec &t, size_t nbytes, size_t doff, size_t soff, int root,
                     size_t nthreads, std::mt19937_64 &rng) {
  const int slot = 9;
  int n = t.size;
  std::vector<size_t> cnt(n);
  for (int m = 0; m < n; m++) cnt[m] = what == COLLECT ? (nbytes * (m % 3)) / 2 + m : nbytes;
  std::vector<std::vector<unsigned char>> src(n);
  size_t sbytes = what == ALLTOALL ? nbytes * n : nbytes + 2 * n;
  for (int m = 0; m < n; m++) {
    int pe = t.start + m * t.stride;
    src[m].resize(sbytes);
    for (auto &b : src[m]) b = (unsigned char)rng();
    memcpy(at(pe, soff), src[m].data(), sbytes);
    if (doff != soff) memset(at(pe, doff), 0x5a, nbytes * n + 2 * n * n + 64);
  }
  for (int m = 0; m < n; m++) {
    int pe = t.start + m * t.stride;
    set_pe(pe, t.n_pes, slot, t.start, t.stride, t.size);
    jshmemi_pull_plan p;
    if (what == FCOLLECT || what == ALLTOALL) {
      jshmemi_plan_blocks(&p, slot, at(pe, doff), at(pe, soff), nbytes, what == ALLTOALL ? (size_t)m * nbytes : 0);
    } else if (what == BROADCAST) {
      p.dst_off = jshmemi_heap_off(at(pe, doff));
      p.src_off = jshmemi_heap_off(at(pe, soff));
      p.src_skip = 0;
      p.at[root] = 0;
      p.at[root + 1] = nbytes;
      p.first = root;
      p.count = 1;
    } else {
      p.dst_off = jshmemi_heap_off(at(pe, doff));
      p.src_off = jshmemi_heap_off(at(pe, soff));
      p.src_skip = 0;
      p.at[0] = 0;
      for (int i = 0; i < n; i++) p.at[i + 1] = p.at[i] + cnt[i];
      p.first = 0;
      p.count = n;
    }
    for (size_t tid = 0; tid < nthreads; tid++)
      jshmemi_pull(p, jshmem_device_state.teams[slot], tid, nthreads);
  }
  for (int m = 0; m < n; m++) {
    int pe = t.start + m * t.stride;
    std::vector<unsigned char> want;
    if (what == FCOLLECT) {
      for (int i = 0; i < n; i++) want.insert(want.end(), src[i].begin(), src[i].begin() + nbytes);
    } else if (what == ALLTOALL) {
      for (int i = 0; i < n; i++)
        want.insert(want.end(), src[i].begin() + m * nbytes, src[i].begin() + (m + 1) * nbytes);
    } else if (what == BROADCAST) {
      want.assign(src[root].begin(), src[root].begin() + nbytes);
    } else {
      for (int i = 0; i < n; i++) want.insert(want.end(), src[i].begin(), src[i].begin() + cnt[i]);
    }
    checks++;
    if (memcmp(at(pe, doff), want.data(), want.size()) != 0) {
      FAIL("pull %d n %zu doff %zu soff %zu root %d threads %zu team %d/%d/%d: PE %d wrong", what, nbytes, doff,
           soff, root, nthreads, t.start, t.stride, t.size, pe);
      return;
    }
    if (doff != soff) {
      const unsigned char *g = (const unsigned char *)at(pe, doff) + want.size();
      for (int i = 0; i < 64; i++) {
        if (g[i] != 0x5a) {
          FAIL("pull %d n %zu: PE %d wrote past the end", what, nbytes, pe);
          return;
        }
      }
    }
  }
}

static void pull_cases(std::mt19937_64 &rng) {
  std::vector<TeamSpec> teams = {{1, 0, 1, 1}, {2, 0, 1, 2}, {3, 0, 1, 3}, {4, 1, 2, 2}};
  for (const TeamSpec &t : teams) {
    for (size_t nbytes : {0, 1, 7, 15, 16, 17, 100, 1000, 4099}) {
      for (size_t th : {1, 7, 1536}) {
        for (size_t doff : {0, 3, 8}) {
          run_pull(FCOLLECT, t, nbytes, doff, 300000, -1, th, rng);
          run_pull(ALLTOALL, t, nbytes, doff, 300000 + (doff == 3 ? 5 : 0), -1, th, rng);
          run_pull(COLLECT, t, nbytes, doff, 300000, -1, th, rng);
          for (int root = 0; root < t.size; root++) {
            run_pull(BROADCAST, t, nbytes, doff, 300000, root, th, rng);
            /* in place: dest == src everywhere, the root's data must arrive */
            run_pull(BROADCAST, t, nbytes, 300000 + doff, 300000 + doff, root, th, rng);
          }
        }
      }
    }
  }
}

int main(int argc, char **argv) {
  for (int pe = 0; pe < 4; pe++) {
    void *h = aligned_alloc(4096, JSHMEM_INTERNAL_SIZE + DATA);
    memset(h, 0, JSHMEM_INTERNAL_SIZE + DATA);
    heaps.push_back((char *)h);
  }
  if (argc > 1) check_vectors(argv[1]);
  std::mt19937_64 rng(12345);
  int_ops<signed char>(JSHMEM_DTYPE_BYTE, rng);
  int_ops<short>(JSHMEM_DTYPE_SHORT, rng);
  int_ops<int>(JSHMEM_DTYPE_INT, rng);
  int_ops<long long>(JSHMEM_DTYPE_LONG, rng);
  real_ops<jshmemi_elem<float> >(JSHMEM_DTYPE_FLOAT, rng);
  real_ops<jshmemi_elem<double> >(JSHMEM_DTYPE_DOUBLE, rng);
  real_ops<jshmemi_elem<jshmemi_fp16_tag> >(JSHMEM_DTYPE_FP16, rng);
  real_ops<jshmemi_elem<jshmemi_bf16_tag> >(JSHMEM_DTYPE_BF16, rng);
  pull_cases(rng);
  printf("%ld checks, %d failures\n", checks, failures);
  printf(failures == 0 ? "ok\n" : "FAILED\n");
  return failures == 0 ? 0 : 1;
}
