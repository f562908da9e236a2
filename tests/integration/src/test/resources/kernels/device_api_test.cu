/*
 * device_api_test.cu - kernels that exercise every function of the jshmem device library.
 *
 * Compiled at run time (NVRTC / hiprtc) with the include path shmem-device/include, loaded, state
 * bound, then each kernel is launched on every PE at the same time (each PE's kernel waits for
 * its peers in jshmem barriers and signal waits, so all PEs must launch it). Results land in
 * symmetric buffers that the Java test reads back after the kernel (and a host barrier).
 *
 * Conventions used in the expectations below:
 *   me = jshmem_my_pe(), n = jshmem_n_pes(), right = (me + 1) % n, left = (me + n - 1) % n.
 *   With 2 PEs, left == right == the other PE.
 *   "symmetric" = allocated with shmem.malloc/calloc (same offset on every PE), device pointer
 *   of this PE passed as the argument. All buffers must be zero at launch (calloc) unless said,
 *   on EVERY PE before ANY PE launches (zero, synchronise the device, host barrier, launch):
 *   peers write into this PE's buffers as soon as their kernel starts. After the kernel:
 *   synchronise, host barrier, then read back.
 *   PATTERN(pe, k, i) = (byte) (pe * 37 + k * 11 + i * 7 + 1)       (computed in 64-bit, low byte)
 *   VAL(pe, i)        = (T) ((pe + 1) * 16 + (i % 13))                  (computed in int, cast to T;
 *                       for char: the low 8 bits as a signed byte)
 *   Launch: 1 block; 128 threads unless said. Kernels that use warp scope run the warp variants
 *   on the LAST warp of the block, so a block size that is not a multiple of the warp size (e.g.
 *   100) tests a partial warp. Block sizes up to 1024 work.
 *
 * Debug mode: every kernel except test_debug_trap must pass with debug = 0 and with debug = 1.
 */
#include <jshmem/jshmem.h>

#define SECTION_ALIGN 64

static __device__ unsigned char pattern(int pe, int k, unsigned long long i) {
  return (unsigned char)((unsigned long long)pe * 37 + (unsigned long long)k * 11 + i * 7 + 1);
}

template <typename T>
static __device__ T val(int pe, unsigned long long i) {
  return (T)((pe + 1) * 16 + (int)(i % 13));
}

static __device__ int right_pe() { return (jshmem_my_pe() + 1) % jshmem_n_pes(); }
static __device__ int left_pe() { return (jshmem_my_pe() + jshmem_n_pes() - 1) % jshmem_n_pes(); }

/* Thread index in the block, block size, and whether the thread is in the block's last warp
 * (and its lane / the number of lanes of that warp). */
static __device__ unsigned tid() { return threadIdx.x; }
static __device__ unsigned nthreads() { return blockDim.x; }
static __device__ unsigned last_warp_first() {
  return ((blockDim.x - 1) / JSHMEM_WARP_SIZE) * JSHMEM_WARP_SIZE;
}
static __device__ bool in_last_warp() { return threadIdx.x >= last_warp_first(); }
static __device__ unsigned last_warp_lane() { return threadIdx.x - last_warp_first(); }
static __device__ unsigned last_warp_lanes() { return blockDim.x - last_warp_first(); }

/* Section stride of the byte tests: nbytes + 64 rounded up to 64 (room for offsets < 32 and
 * guard bytes on both sides of every section). */
static __device__ size_t section_stride(size_t nbytes) {
  return (nbytes + 64 + SECTION_ALIGN - 1) / SECTION_ALIGN * SECTION_ALIGN;
}

/* Counts bytes of dst[0, nbytes) that differ from PATTERN(pe, k, i), checked by thread `me_t` of
 * `nt` threads starting at index `first` (so the checker is usually not the copier). */
static __device__ int count_bad(const unsigned char *dst, size_t nbytes, int pe, int k,
                                unsigned me_t, unsigned nt) {
  int bad = 0;
  for (size_t i = (me_t + 1) % nt; i < nbytes; i += nt)
    if (dst[i] != pattern(pe, k, i)) ++bad;
  return bad;
}

/* ============================================================================================
 * test_query(int *out)                          launch: 1 block x 1 thread
 *   out: symmetric int[16].
 *   Writes: out[0] = my_pe, out[1] = n_pes,
 *           out[2] = jshmem_ptr(out, me) == out, out[3] = jshmem_ptr(out, right) != NULL,
 *           out[4] = jshmem_ptr(out, n) == NULL (PE out of range),
 *           out[5] = jshmem_ptr(<address 16, not in the heap>, right) == NULL,
 *           out[6] = jshmem_team_my_pe(0), out[7] = jshmem_team_n_pes(0),
 *           out[8] = jshmem_team_translate_pe(0, me, 0), out[9] = jshmem_team_n_pes(63),
 *           out[10] = jshmem_team_my_pe(-1), out[11] = jshmem_team_translate_pe(0, n, 0).
 *   Expected on PE me: {me, n, 1, 1, 1, 1, me, n, me, -1, -1, -1, 0, 0, 0, 0}
 *   (out[9] assumes team slot 63 is unused).
 * ========================================================================================== */
extern "C" __global__ void test_query(int *out) {
  int me = jshmem_my_pe(), n = jshmem_n_pes();
  out[0] = me;
  out[1] = n;
  out[2] = jshmem_ptr(out, me) == (void *)out ? 1 : 0;
  out[3] = jshmem_ptr(out, (me + 1) % n) != 0 ? 1 : 0;
  out[4] = jshmem_ptr(out, n) == 0 ? 1 : 0;
  out[5] = jshmem_ptr((const void *)16, (me + 1) % n) == 0 ? 1 : 0;
  out[6] = jshmem_team_my_pe(0);
  out[7] = jshmem_team_n_pes(0);
  out[8] = jshmem_team_translate_pe(0, me, 0);
  out[9] = jshmem_team_n_pes(JSHMEM_MAX_TEAMS - 1);
  out[10] = jshmem_team_my_pe(-1);
  out[11] = jshmem_team_translate_pe(0, n, 0);
}

/* ============================================================================================
 * test_fcollect_signal(char *dest, char *src, size_t nbytes, uint64_t *sig, uint64_t value,
 *                      int *errors)                 launch: 1 block (any size), every PE
 *   src = PATTERN(me, 0, i) for nbytes; jshmemx_fcollectmem_signal_block over the world (team 0);
 *   thread 0 waits until sig[q] >= value for every PE q; then the block counts the bytes of dest
 *   block q that differ from PATTERN(q, 0, i) into errors[0].
 *   Expected: errors[0] == 0, sig[q] == value for every q.
 * ========================================================================================== */
extern "C" __global__ void test_fcollect_signal(char *dest, char *src, size_t nbytes, uint64_t *sig, uint64_t value,
                                                int *errors) {
  const int me = jshmem_my_pe(), n = jshmem_n_pes();
  for (size_t i = tid(); i < nbytes; i += nthreads()) src[i] = (char)pattern(me, 0, i);
  __syncthreads();
  jshmemx_fcollectmem_signal_block(0, dest, src, nbytes, sig, value);
  if (tid() == 0)
    for (int q = 0; q < n; ++q) jshmem_signal_wait_until(sig + q, JSHMEM_CMP_GE, value);
  __syncthreads();
  int bad = 0;
  for (int q = 0; q < n; ++q)
    for (size_t i = tid(); i < nbytes; i += nthreads()) bad += dest[q * nbytes + i] != (char)pattern(q, 0, i);
  atomicAdd(errors, bad);
}

/* ============================================================================================
 * test_team(int slot, int *out)                 launch: 1 block x 1 thread
 *   slot: a team slot in use (start, stride, size as the Java side split it).
 *   out: symmetric int[8].
 *   Writes: out[0] = jshmem_team_my_pe(slot), out[1] = jshmem_team_n_pes(slot),
 *           out[2] = jshmem_team_translate_pe(slot, 0, 0), out[3] = translate(0, me, slot),
 *           out[4] = translate(slot, size - 1, 0), out[5] = translate(slot, size, 0).
 *   Expected: with the team's start s, stride d, size z and idx = (me - s) / d if me is a
 *   member, else -1: {idx, z, s, idx, s + (z - 1) * d, -1, 0, 0}.
 * ========================================================================================== */
extern "C" __global__ void test_team(int slot, int *out) {
  int size = jshmem_team_n_pes(slot);
  out[0] = jshmem_team_my_pe(slot);
  out[1] = size;
  out[2] = jshmem_team_translate_pe(slot, 0, 0);
  out[3] = jshmem_team_translate_pe(0, jshmem_my_pe(), slot);
  out[4] = jshmem_team_translate_pe(slot, size - 1, 0);
  out[5] = jshmem_team_translate_pe(slot, size, 0);
}

/* ============================================================================================
 * test_putmem(char *dst, char *src, size_t nbytes, int dst_off, int src_off)
 *                                               launch: 1 block x 128 (or 100, any) threads
 *   S = section stride = round_up(nbytes + 64, 64); 0 <= dst_off, src_off < 32.
 *   dst, src: symmetric, 6 * S bytes each, dst zero.
 *   Fills src section k (k = 0..5) at src + k*S + src_off with PATTERN(me, k, i), i < nbytes,
 *   then puts section k to PE right at dst + k*S + dst_off with:
 *     k=0 jshmem_putmem (thread 0)     k=1 jshmem_putmem_nbi (thread 0)
 *     k=2 jshmem_putmem_warp (last warp)   k=3 jshmem_putmem_nbi_warp (last warp)
 *     k=4 jshmem_putmem_block          k=5 jshmem_putmem_nbi_block
 *   then jshmem_quiet and jshmem_barrier_all_block.
 *   Expected on PE me, k = 0..5: dst[k*S + dst_off + i] == PATTERN(left, k, i) for i < nbytes;
 *   every other byte of dst is still 0 (guards before and after each section).
 *   Suggested runs (nbytes, dst_off, src_off): (1,0,0) (13,3,5) (4,4,4) (8,8,0) (8,4,4) (4096,0,0)
 *   (4099,8,0) (65576,4,4) (100003,1,2) (1048576,0,0) (1048576,16,0) (999999,7,3). The lone words (4 and 8
 *   bytes at their alignment) take jshmemi_copy's inline one-store path; (8,4,4) does not.
 * ========================================================================================== */
extern "C" __global__ void test_putmem(char *dst, char *src, size_t nbytes, int dst_off,
                                       int src_off) {
  const size_t S = section_stride(nbytes);
  const int me = jshmem_my_pe(), right = right_pe();
  for (int k = 0; k < 6; ++k)
    for (size_t i = tid(); i < nbytes; i += nthreads())
      src[k * S + src_off + i] = (char)pattern(me, k, i);
  __syncthreads();
#define D(k) (dst + (k) * S + dst_off)
#define SRC(k) (src + (k) * S + src_off)
  if (tid() == 0) jshmem_putmem(D(0), SRC(0), nbytes, right);
  if (tid() == 0) jshmem_putmem_nbi(D(1), SRC(1), nbytes, right);
  if (in_last_warp()) jshmem_putmem_warp(D(2), SRC(2), nbytes, right);
  if (in_last_warp()) jshmem_putmem_nbi_warp(D(3), SRC(3), nbytes, right);
  jshmem_putmem_block(D(4), SRC(4), nbytes, right);
  jshmem_putmem_nbi_block(D(5), SRC(5), nbytes, right);
#undef D
#undef SRC
  jshmem_quiet();
  jshmem_barrier_all_block();
}

/* ============================================================================================
 * test_getmem(char *dst, char *src, size_t nbytes, int dst_off, int src_off, int *errors)
 *                                               launch: 1 block x 128 (or 100, any) threads
 *   S as in test_putmem. dst, src: symmetric, 6 * S bytes, dst zero. errors: symmetric int[8].
 *   Fills src section k with PATTERN(me, k, i) at src + k*S + src_off, jshmem_barrier_all_block,
 *   then gets PE right's section k into dst + k*S + dst_off with:
 *     k=0 jshmem_getmem (thread 0)     k=1 jshmem_getmem_nbi (thread 0, then quiet)
 *     k=2 jshmem_getmem_warp (last warp)   k=3 jshmem_getmem_nbi_warp (last warp, quiet, sync)
 *     k=4 jshmem_getmem_block          k=5 jshmem_getmem_nbi_block (quiet, __syncthreads)
 *   Right after each blocking get returns, the group checks bytes that (mostly) other threads of
 *   the group copied (the blocking guarantee) and adds mismatches to errors[k]; the nbi forms
 *   are checked after quiet + barrier. Ends with jshmem_barrier_all_block.
 *   Expected on PE me: dst[k*S + dst_off + i] == PATTERN(right, k, i) for i < nbytes, all other
 *   bytes of dst 0, errors[0..7] == 0.
 *   Suggested runs: as test_putmem.
 * ========================================================================================== */
extern "C" __global__ void test_getmem(char *dst, char *src, size_t nbytes, int dst_off,
                                       int src_off, int *errors) {
  const size_t S = section_stride(nbytes);
  const int me = jshmem_my_pe(), right = right_pe();
  for (int k = 0; k < 6; ++k)
    for (size_t i = tid(); i < nbytes; i += nthreads())
      src[k * S + src_off + i] = (char)pattern(me, k, i);
  jshmem_barrier_all_block();
#define D(k) (dst + (k) * S + dst_off)
#define SRC(k) (src + (k) * S + src_off)
#define UD(k) ((const unsigned char *)D(k))
  if (tid() == 0) {
    jshmem_getmem(D(0), SRC(0), nbytes, right);
    atomicAdd(&errors[0], count_bad(UD(0), nbytes, right, 0, 0, 1));
    jshmem_getmem_nbi(D(1), SRC(1), nbytes, right);
    jshmem_quiet();
    atomicAdd(&errors[1], count_bad(UD(1), nbytes, right, 1, 0, 1));
  }
  if (in_last_warp()) {
    jshmem_getmem_warp(D(2), SRC(2), nbytes, right);
    atomicAdd(&errors[2], count_bad(UD(2), nbytes, right, 2, last_warp_lane(), last_warp_lanes()));
    jshmem_getmem_nbi_warp(D(3), SRC(3), nbytes, right);
    jshmem_quiet();
  }
  __syncthreads();
  atomicAdd(&errors[3], count_bad(UD(3), nbytes, right, 3, tid(), nthreads()));
  jshmem_getmem_block(D(4), SRC(4), nbytes, right);
  atomicAdd(&errors[4], count_bad(UD(4), nbytes, right, 4, tid(), nthreads()));
  jshmem_getmem_nbi_block(D(5), SRC(5), nbytes, right);
  jshmem_quiet();
  __syncthreads();
  atomicAdd(&errors[5], count_bad(UD(5), nbytes, right, 5, tid(), nthreads()));
#undef D
#undef SRC
#undef UD
  jshmem_barrier_all_block();
}

/* ============================================================================================
 * test_rma_<T>(T *dst, T *src, size_t nelems, uint64_t *sig, int *errors)
 *   for <T> = char short int long longlong float double uint32 uint64 size
 *   (kernel names test_rma_char ... test_rma_size; C types char, short, int, long, long long,
 *   float, double, uint32_t, uint64_t, size_t).   launch: 1 block x 128 (or 100) threads
 *   dst: symmetric T[20 * nelems], zero. src: symmetric T[nelems]. sig: symmetric uint64_t[1],
 *   zero. errors: symmetric int[1], zero.
 *   src[i] = VAL(me, i); jshmem_barrier_all_block; then, section s = dst + s * nelems:
 *     s=0..5   puts of src to PE right's section s: jshmem_<T>_put (thread 0), _put_nbi
 *              (thread 0), _put_warp (last warp), _put_nbi_warp (last warp), _put_block,
 *              _put_nbi_block
 *     s=6..11  gets of PE right's src into my section s: _get, _get_nbi, _get_warp,
 *              _get_nbi_warp, _get_block, _get_nbi_block (same scopes; each blocking get is
 *              checked at once by another thread of its group, mismatches into errors[0])
 *     s=12     jshmem_<T>_p(&dst[12n + i], VAL(me, i), right) for every i (threads stride)
 *     s=13     dst[13n + i] = jshmem_<T>_g(&src[i], right)
 *     s=14..19 jshmem_<T>_put_signal (thread 0), _put_signal_nbi (thread 0), _put_signal_warp,
 *              _put_signal_nbi_warp (last warp), _put_signal_block, _put_signal_nbi_block of src
 *              to PE right's section s, each adding 1 to PE right's sig (JSHMEM_SIGNAL_ADD);
 *              then thread 0 waits until its own sig == 6 and the block checks sections 14..19
 *              (ordering of data before signal), mismatches into errors[0].
 *   Ends with jshmem_quiet, jshmem_barrier_all_block.
 *   Expected on PE me: dst[s*n + i] == VAL(left, i) for s in 0..5, 12, 14..19;
 *   dst[s*n + i] == VAL(right, i) for s in 6..11, 13; sig[0] == 6; errors[0] == 0.
 *   Suggested nelems: 1, 7, 1000, 65536 + 3.
 * ========================================================================================== */
template <typename T>
static __device__ int count_bad_vals(const T *d, size_t nelems, int pe, unsigned t, unsigned nt) {
  int bad = 0;
  for (size_t i = (t + 1) % nt; i < nelems; i += nt)
    if (d[i] != val<T>(pe, i)) ++bad;
  return bad;
}

#define TEST_RMA_TYPED(NAME, T)                                                                  \
  extern "C" __global__ void test_rma_##NAME(T *dst, T *src, size_t nelems, uint64_t *sig,       \
                                             int *errors) {                                      \
    const int me = jshmem_my_pe(), right = right_pe(), left = left_pe();                         \
    const size_t n = nelems;                                                                     \
    for (size_t i = tid(); i < n; i += nthreads()) src[i] = val<T>(me, i);                       \
    jshmem_barrier_all_block();                                                                  \
    /* puts */                                                                                   \
    if (tid() == 0) jshmem_##NAME##_put(dst + 0 * n, src, n, right);                             \
    if (tid() == 0) jshmem_##NAME##_put_nbi(dst + 1 * n, src, n, right);                         \
    if (in_last_warp()) jshmem_##NAME##_put_warp(dst + 2 * n, src, n, right);                    \
    if (in_last_warp()) jshmem_##NAME##_put_nbi_warp(dst + 3 * n, src, n, right);                \
    jshmem_##NAME##_put_block(dst + 4 * n, src, n, right);                                       \
    jshmem_##NAME##_put_nbi_block(dst + 5 * n, src, n, right);                                   \
    /* gets */                                                                                   \
    if (tid() == 0) {                                                                            \
      jshmem_##NAME##_get(dst + 6 * n, src, n, right);                                           \
      atomicAdd(&errors[0], count_bad_vals<T>(dst + 6 * n, n, right, 0, 1));                     \
      jshmem_##NAME##_get_nbi(dst + 7 * n, src, n, right);                                       \
    }                                                                                            \
    if (in_last_warp()) {                                                                        \
      jshmem_##NAME##_get_warp(dst + 8 * n, src, n, right);                                      \
      atomicAdd(&errors[0], count_bad_vals<T>(dst + 8 * n, n, right, last_warp_lane(),           \
                                              last_warp_lanes()));                               \
      jshmem_##NAME##_get_nbi_warp(dst + 9 * n, src, n, right);                                  \
    }                                                                                            \
    jshmem_##NAME##_get_block(dst + 10 * n, src, n, right);                                      \
    atomicAdd(&errors[0], count_bad_vals<T>(dst + 10 * n, n, right, tid(), nthreads()));         \
    jshmem_##NAME##_get_nbi_block(dst + 11 * n, src, n, right);                                  \
    /* p and g */                                                                                \
    for (size_t i = tid(); i < n; i += nthreads()) {                                             \
      jshmem_##NAME##_p(&dst[12 * n + i], val<T>(me, i), right);                                 \
      dst[13 * n + i] = jshmem_##NAME##_g(&src[i], right);                                       \
    }                                                                                            \
    /* put_signal */                                                                             \
    if (tid() == 0) {                                                                            \
      jshmem_##NAME##_put_signal(dst + 14 * n, src, n, sig, 1, JSHMEM_SIGNAL_ADD, right);        \
      jshmem_##NAME##_put_signal_nbi(dst + 15 * n, src, n, sig, 1, JSHMEM_SIGNAL_ADD, right);    \
    }                                                                                            \
    if (in_last_warp()) {                                                                        \
      jshmem_##NAME##_put_signal_warp(dst + 16 * n, src, n, sig, 1, JSHMEM_SIGNAL_ADD, right);   \
      jshmem_##NAME##_put_signal_nbi_warp(dst + 17 * n, src, n, sig, 1, JSHMEM_SIGNAL_ADD,       \
                                          right);                                                \
    }                                                                                            \
    jshmem_##NAME##_put_signal_block(dst + 18 * n, src, n, sig, 1, JSHMEM_SIGNAL_ADD, right);    \
    jshmem_##NAME##_put_signal_nbi_block(dst + 19 * n, src, n, sig, 1, JSHMEM_SIGNAL_ADD,        \
                                         right);                                                 \
    if (tid() == 0) jshmem_signal_wait_until(sig, JSHMEM_CMP_EQ, 6);                             \
    __syncthreads();                                                                             \
    for (int s = 14; s < 20; ++s)                                                                \
      atomicAdd(&errors[0], count_bad_vals<T>(dst + s * n, n, left, tid(), nthreads()));         \
    jshmem_quiet();                                                                              \
    jshmem_barrier_all_block();                                                                  \
  }
JSHMEM_FOR_RMA_TYPES(TEST_RMA_TYPED)

/* ============================================================================================
 * test_amo_<T>(T *cells, T *out)                launch: 1 block x 1 thread
 *   for <T> = int long longlong uint32 uint64 ulonglong (kernels test_amo_int ...).
 *   cells: symmetric T[16 * n], zero. out: symmetric T[32], zero.
 *   Runs the sequence below twice: on PE right's cells[16*me + 0..3] (results out[0..12]) and on
 *   its own cells[16*me + 8 + 0..3] through pe = me (results out[16..28]); c0..c3 = the 4 cells:
 *     set(c0, 5);               r0 = fetch(c0)                   -> 5
 *     add(c1, 7); inc(c1);      r1 = fetch_add(c1, 10)           -> 8    r2 = fetch_inc(c1) -> 18
 *     set(c2, 12);              r3 = fetch_and(c2, 10)           -> 12;  and(c2, 12)
 *                               r4 = fetch_or(c2, 3)             -> 8;   or(c2, 16)
 *                               r5 = fetch_xor(c2, 5)            -> 27;  xor(c2, 1)
 *     r6 = swap(c3, 42) -> 0;   r7 = compare_swap(c3, 41, 7) -> 42 (no swap)
 *                               r8 = compare_swap(c3, 42, 9) -> 42;  r9 = fetch(c3) -> 9
 *     r10 = fetch(c1) -> 19;    r11 = fetch(c2) -> 31;           r12 = fetch_add(c0, 0) -> 5
 *   Ends with jshmem_quiet, jshmem_barrier_all_block.
 *   Expected on PE me: out[0..12] == out[16..28] == {5, 8, 18, 12, 8, 27, 0, 42, 42, 9, 19, 31, 5},
 *   other out entries 0. In PE me's cells: cells[16*left + 0..3] == {5, 19, 31, 9} (PE left's
 *   remote run) and cells[16*me + 8 + 0..3] == {5, 19, 31, 9} (my local run); every other cell
 *   is 0 (for n == 1, left == me and both blocks are mine).
 * ========================================================================================== */
#define TEST_AMO_SEQUENCE(NAME, T, c, pe, r)                                                     \
  do {                                                                                           \
    jshmem_##NAME##_atomic_set(&c[0], (T)5, pe);                                                 \
    r[0] = jshmem_##NAME##_atomic_fetch(&c[0], pe);                                              \
    jshmem_##NAME##_atomic_add(&c[1], (T)7, pe);                                                 \
    jshmem_##NAME##_atomic_inc(&c[1], pe);                                                       \
    r[1] = jshmem_##NAME##_atomic_fetch_add(&c[1], (T)10, pe);                                   \
    r[2] = jshmem_##NAME##_atomic_fetch_inc(&c[1], pe);                                          \
    jshmem_##NAME##_atomic_set(&c[2], (T)12, pe);                                                \
    r[3] = jshmem_##NAME##_atomic_fetch_and(&c[2], (T)10, pe);                                   \
    jshmem_##NAME##_atomic_and(&c[2], (T)12, pe);                                                \
    r[4] = jshmem_##NAME##_atomic_fetch_or(&c[2], (T)3, pe);                                     \
    jshmem_##NAME##_atomic_or(&c[2], (T)16, pe);                                                 \
    r[5] = jshmem_##NAME##_atomic_fetch_xor(&c[2], (T)5, pe);                                    \
    jshmem_##NAME##_atomic_xor(&c[2], (T)1, pe);                                                 \
    r[6] = jshmem_##NAME##_atomic_swap(&c[3], (T)42, pe);                                        \
    r[7] = jshmem_##NAME##_atomic_compare_swap(&c[3], (T)41, (T)7, pe);                          \
    r[8] = jshmem_##NAME##_atomic_compare_swap(&c[3], (T)42, (T)9, pe);                          \
    r[9] = jshmem_##NAME##_atomic_fetch(&c[3], pe);                                              \
    r[10] = jshmem_##NAME##_atomic_fetch(&c[1], pe);                                             \
    r[11] = jshmem_##NAME##_atomic_fetch(&c[2], pe);                                             \
    r[12] = jshmem_##NAME##_atomic_fetch_add(&c[0], (T)0, pe);                                   \
  } while (0)

#define TEST_AMO_TYPED(NAME, T)                                                                  \
  extern "C" __global__ void test_amo_##NAME(T *cells, T *out) {                                 \
    const int me = jshmem_my_pe(), right = right_pe();                                           \
    T *remote = cells + 16 * me;                                                                 \
    T *local = cells + 16 * me + 8;                                                              \
    TEST_AMO_SEQUENCE(NAME, T, remote, right, out);                                              \
    T *out_local = out + 16;                                                                     \
    TEST_AMO_SEQUENCE(NAME, T, local, me, out_local);                                            \
    jshmem_quiet();                                                                              \
    jshmem_barrier_all_block();                                                                  \
  }
JSHMEM_FOR_AMO_TYPES(TEST_AMO_TYPED)

/* ============================================================================================
 * test_amo_contention(uint64_t *counter, int *icounter, unsigned long long *fetched_sum,
 *                     int iters)                launch: G blocks x T threads (e.g. 8 x 256)
 *   counter: symmetric uint64_t[1], icounter: symmetric int[1], fetched_sum: symmetric
 *   unsigned long long[1], all zero. Every thread of every PE, iters times:
 *   v = jshmem_uint64_atomic_fetch_add(counter, 1, 0); jshmem_int_atomic_inc(icounter, 0);
 *   and adds v into its PE's fetched_sum (local atomicAdd).
 *   Let N = n * G * T * iters (keep it < 2^31).
 *   Expected: on PE 0 counter == N and icounter == N; on the other PEs both 0; the sum of
 *   fetched_sum over all PEs == N * (N - 1) / 2 (every ticket 0..N-1 handed out once).
 *   Needs the host barrier after the kernel on every PE before PE 0 reads.
 * ========================================================================================== */
extern "C" __global__ void test_amo_contention(uint64_t *counter, int *icounter,
                                               unsigned long long *fetched_sum, int iters) {
  unsigned long long sum = 0;
  for (int it = 0; it < iters; ++it) {
    sum += (unsigned long long)jshmem_uint64_atomic_fetch_add(counter, 1, 0);
    jshmem_int_atomic_inc(icounter, 0);
  }
  atomicAdd(fetched_sum, sum);
}

/* ============================================================================================
 * test_signal(char *dst, char *src, size_t nbytes, uint64_t *sig, int *flag, int *errors,
 *             uint64_t *seen)                   launch: 1 block x 128 (or 100) threads
 *   S = round_up(nbytes + 64, 64) (offsets 0). dst, src: symmetric 9 * S bytes, dst zero.
 *   sig: symmetric uint64_t[16 * 16], zero (signal k at sig[16*k]). flag: symmetric int[2],
 *   zero. errors: symmetric int[16], zero. seen: symmetric uint64_t[16], zero.
 *   Fills src section k (k = 0..8) with PATTERN(me, k, i); then to PE right:
 *     k=0 jshmem_putmem_signal (thread 0), SET (1000*(k+1) + me) on sig k
 *     k=1 jshmem_putmem_signal_nbi (thread 0), SET 2000 + me
 *     k=2 jshmem_putmem_signal_warp (last warp), SET 3000 + me
 *     k=3 jshmem_putmem_signal_nbi_warp (last warp), SET 4000 + me
 *     k=4 jshmem_putmem_signal_block, SET 5000 + me
 *     k=5 jshmem_putmem_signal_nbi_block, SET 6000 + me
 *     k=6 jshmem_putmem_signal_nbi_block ADD 5 on sig 6, then thread 0: jshmem_signal_op(sig 6,
 *         7, ADD) and jshmem_signal_op(sig 7, 99, SET), and (no data) jshmem_signal_op(sig 8,
 *         2^64-1, SET) and jshmem_signal_op(sig 9, 2^63, SET)
 *     k=7 jshmem_putmem_nbi_block, __syncthreads, thread 0: jshmem_fence, jshmem_int_p(flag[0], 1)
 *     k=8 jshmem_putmem_nbi_block, __syncthreads, thread 0: jshmem_quiet,
 *         jshmem_int_atomic_set(flag[1], 1)
 *   Then thread 0 of the receiver: seen[k] = jshmem_signal_wait_until(sig k, EQ, 1000*(k+1) +
 *   left) for k = 0..5; seen[6] = wait_until(sig 6, GE, 12); seen[7] = wait_until(sig 7, EQ, 99);
 *   seen[8] = jshmem_signal_fetch(sig 0); jshmem_int_wait_until(flag[0], EQ, 1);
 *   jshmem_int_wait_until(flag[1], EQ, 1); seen[9] = jshmem_int_test(flag, EQ, 1); signals are
 *   unsigned: seen[10] = wait_until(sig 8, GT, 0); seen[11] = wait_until(sig 9, GE, 2^63-1);
 *   seen[12] = wait_until(sig 9, LT, 2^64-1).
 *   __syncthreads; then the block checks sections 0..8 against PATTERN(left, k, i) (the data
 *   must be there as soon as the signal / flag is: ordering test) into errors[k].
 *   Ends with jshmem_barrier_all_block.
 *   Expected on PE me: seen = {1000+left, 2000+left, 3000+left, 4000+left, 5000+left,
 *   6000+left, 12, 99, 1000+left, 1, 2^64-1, 2^63, 2^63, 0...}; errors[0..15] == 0; sig[16*k] ==
 *   1000*(k+1)+left for k=0..5, sig[96] == 12, sig[112] == 99, sig[128] == 2^64-1, sig[144] ==
 *   2^63; flag == {1, 1}; dst section k (k = 0..8) ==
 *   PATTERN(left, k, i) for i < nbytes, the rest of dst 0.
 *   Suggested nbytes: 8, 4096, 65536, 1048576 (big sections make a missing fence visible).
 * ========================================================================================== */
extern "C" __global__ void test_signal(char *dst, char *src, size_t nbytes, uint64_t *sig,
                                       int *flag, int *errors, uint64_t *seen) {
  const size_t S = section_stride(nbytes);
  const int me = jshmem_my_pe(), right = right_pe(), left = left_pe();
  for (int k = 0; k < 9; ++k)
    for (size_t i = tid(); i < nbytes; i += nthreads()) src[k * S + i] = (char)pattern(me, k, i);
  __syncthreads();
#define D(k) (dst + (k) * S)
#define SRC(k) (src + (k) * S)
#define SIG(k) (sig + 16 * (k))
#define SETV(k) ((uint64_t)(1000 * ((k) + 1) + me))
  if (tid() == 0) {
    jshmem_putmem_signal(D(0), SRC(0), nbytes, SIG(0), SETV(0), JSHMEM_SIGNAL_SET, right);
    jshmem_putmem_signal_nbi(D(1), SRC(1), nbytes, SIG(1), SETV(1), JSHMEM_SIGNAL_SET, right);
  }
  if (in_last_warp()) {
    jshmem_putmem_signal_warp(D(2), SRC(2), nbytes, SIG(2), SETV(2), JSHMEM_SIGNAL_SET, right);
    jshmem_putmem_signal_nbi_warp(D(3), SRC(3), nbytes, SIG(3), SETV(3), JSHMEM_SIGNAL_SET,
                                  right);
  }
  jshmem_putmem_signal_block(D(4), SRC(4), nbytes, SIG(4), SETV(4), JSHMEM_SIGNAL_SET, right);
  jshmem_putmem_signal_nbi_block(D(5), SRC(5), nbytes, SIG(5), SETV(5), JSHMEM_SIGNAL_SET, right);
  jshmem_putmem_signal_nbi_block(D(6), SRC(6), nbytes, SIG(6), 5, JSHMEM_SIGNAL_ADD, right);
  if (tid() == 0) {
    jshmem_signal_op(SIG(6), 7, JSHMEM_SIGNAL_ADD, right);
    jshmem_signal_op(SIG(7), 99, JSHMEM_SIGNAL_SET, right);
    jshmem_signal_op(SIG(8), ~0ull, JSHMEM_SIGNAL_SET, right);
    jshmem_signal_op(SIG(9), 1ull << 63, JSHMEM_SIGNAL_SET, right);
  }
  jshmem_putmem_nbi_block(D(7), SRC(7), nbytes, right);
  __syncthreads();
  if (tid() == 0) {
    jshmem_fence();
    jshmem_int_p(&flag[0], 1, right);
  }
  jshmem_putmem_nbi_block(D(8), SRC(8), nbytes, right);
  __syncthreads();
  if (tid() == 0) {
    jshmem_quiet();
    jshmem_int_atomic_set(&flag[1], 1, right);
  }
  if (tid() == 0) {
    for (int k = 0; k < 6; ++k)
      seen[k] = jshmem_signal_wait_until(SIG(k), JSHMEM_CMP_EQ, (uint64_t)(1000 * (k + 1) + left));
    seen[6] = jshmem_signal_wait_until(SIG(6), JSHMEM_CMP_GE, 12);
    seen[7] = jshmem_signal_wait_until(SIG(7), JSHMEM_CMP_EQ, 99);
    seen[8] = jshmem_signal_fetch(SIG(0));
    jshmem_int_wait_until(&flag[0], JSHMEM_CMP_EQ, 1);
    jshmem_int_wait_until(&flag[1], JSHMEM_CMP_EQ, 1);
    seen[9] = (uint64_t)jshmem_int_test(&flag[0], JSHMEM_CMP_EQ, 1);
    seen[10] = jshmem_signal_wait_until(SIG(8), JSHMEM_CMP_GT, 0);
    seen[11] = jshmem_signal_wait_until(SIG(9), JSHMEM_CMP_GE, (1ull << 63) - 1);
    seen[12] = jshmem_signal_wait_until(SIG(9), JSHMEM_CMP_LT, ~0ull);
  }
  __syncthreads();
  for (int k = 0; k < 9; ++k)
    atomicAdd(&errors[k], count_bad((const unsigned char *)D(k), nbytes, left, k, tid(),
                                    nthreads()));
#undef D
#undef SRC
#undef SIG
#undef SETV
  jshmem_barrier_all_block();
}

/* ============================================================================================
 * test_wait_<T>(T *ivar, int *out)              launch: 1 block x 1 thread
 *   for <T> = int long longlong uint32 uint64 ulonglong (kernels test_wait_int ...).
 *   ivar: symmetric T[4], zero. out: symmetric int[16], zero.
 *     jshmem_<T>_p(&ivar[0], 10, right); jshmem_<T>_wait_until(&ivar[0], GE, 10)
 *     out[0..5] = test(ivar[0], EQ 10, NE 10, GT 9, GE 11, LT 11, LE 9)        -> 1 0 1 0 1 0
 *     wait_until(ivar[0]) with EQ 10, NE 3, GT 9, GE 10, LT 11, LE 10 (all hold); out[6] = 1
 *     jshmem_<T>_p(&ivar[1], (T)-5, right); wait_until(&ivar[1], NE, 0);
 *     out[7] = test(ivar[1], LT, 0), out[8] = test(ivar[1], GT, 100)
 *   Ends with jshmem_barrier_all_block.
 *   Expected on PE me: out = {1,0,1,0,1,0,1, a, b, 0...} with a = 1, b = 0 for the signed types
 *   (int, long, longlong) and a = 0, b = 1 for the unsigned ones; ivar[0] == 10,
 *   ivar[1] == (T)-5.
 * ========================================================================================== */
#define TEST_WAIT_TYPED(NAME, T)                                                                 \
  extern "C" __global__ void test_wait_##NAME(T *ivar, int *out) {                               \
    const int right = right_pe();                                                                \
    jshmem_##NAME##_p(&ivar[0], (T)10, right);                                                   \
    jshmem_##NAME##_wait_until(&ivar[0], JSHMEM_CMP_GE, (T)10);                                  \
    out[0] = jshmem_##NAME##_test(&ivar[0], JSHMEM_CMP_EQ, (T)10);                               \
    out[1] = jshmem_##NAME##_test(&ivar[0], JSHMEM_CMP_NE, (T)10);                               \
    out[2] = jshmem_##NAME##_test(&ivar[0], JSHMEM_CMP_GT, (T)9);                                \
    out[3] = jshmem_##NAME##_test(&ivar[0], JSHMEM_CMP_GE, (T)11);                               \
    out[4] = jshmem_##NAME##_test(&ivar[0], JSHMEM_CMP_LT, (T)11);                               \
    out[5] = jshmem_##NAME##_test(&ivar[0], JSHMEM_CMP_LE, (T)9);                                \
    jshmem_##NAME##_wait_until(&ivar[0], JSHMEM_CMP_EQ, (T)10);                                  \
    jshmem_##NAME##_wait_until(&ivar[0], JSHMEM_CMP_NE, (T)3);                                   \
    jshmem_##NAME##_wait_until(&ivar[0], JSHMEM_CMP_GT, (T)9);                                   \
    jshmem_##NAME##_wait_until(&ivar[0], JSHMEM_CMP_GE, (T)10);                                  \
    jshmem_##NAME##_wait_until(&ivar[0], JSHMEM_CMP_LT, (T)11);                                  \
    jshmem_##NAME##_wait_until(&ivar[0], JSHMEM_CMP_LE, (T)10);                                  \
    out[6] = 1;                                                                                  \
    jshmem_##NAME##_p(&ivar[1], (T)-5, right);                                                   \
    jshmem_##NAME##_wait_until(&ivar[1], JSHMEM_CMP_NE, (T)0);                                   \
    out[7] = jshmem_##NAME##_test(&ivar[1], JSHMEM_CMP_LT, (T)0);                                \
    out[8] = jshmem_##NAME##_test(&ivar[1], JSHMEM_CMP_GT, (T)100);                              \
    jshmem_barrier_all_block();                                                                  \
  }
JSHMEM_FOR_AMO_TYPES(TEST_WAIT_TYPED)

/* ============================================================================================
 * test_barrier(int *slots, int rounds, int team_slot, int *errors)
 *                                               launch: 1 block x 64 (or 32, or 1) threads
 *   team_slot: 0 (world) or any team slot this PE is a member of (z members, my index idx).
 *   slots: symmetric int[64], zero. errors: symmetric int[4], zero.
 *   Round r = 1..rounds: each member idx writes r into slots[idx] of every member with
 *   jshmem_int_p, then one of (by r % 4):
 *     0: jshmem_barrier_block(team_slot)        1: jshmem_quiet + jshmem_team_sync_block(team_slot)
 *     2: jshmem_barrier_all_block (world only)  3: jshmem_quiet + jshmem_sync_all_block (world)
 *   (2 and 3 are replaced by 0 and 1 when team_slot != 0), then every slots[i], i < z, must read
 *   r (else errors[0] += 1), then jshmem_team_sync_block(team_slot) so nobody writes round r + 1
 *   before all have checked round r.
 *   Expected on each member: errors[0] == 0, slots[i] == rounds for i < z, other slots 0.
 *   Suggested: rounds = 1000 with team_slot 0; rounds = 100 with a split team.
 * ========================================================================================== */
extern "C" __global__ void test_barrier(int *slots, int rounds, int team_slot, int *errors) {
  const int idx = jshmem_team_my_pe(team_slot);
  const int z = jshmem_team_n_pes(team_slot);
  for (int r = 1; r <= rounds; ++r) {
    for (int i = (int)tid(); i < z; i += (int)nthreads())
      jshmem_int_p(&slots[idx], r, jshmem_team_translate_pe(team_slot, i, 0));
    int variant = team_slot == 0 ? r % 4 : r % 2;
    if (variant == 0) {
      jshmem_barrier_block(team_slot);
    } else if (variant == 1) {
      jshmem_quiet();
      jshmem_team_sync_block(team_slot);
    } else if (variant == 2) {
      jshmem_barrier_all_block();
    } else {
      jshmem_quiet();
      jshmem_sync_all_block();
    }
    for (int i = (int)tid(); i < z; i += (int)nthreads())
      if (slots[i] != r) atomicAdd(&errors[0], 1);
    jshmem_team_sync_block(team_slot);
  }
}

/* ============================================================================================
 * test_additions(long long *dst, long long *src, uint64_t *sig, uint64_t *out)
 *                                               launch: 1 block x 1 thread
 *   OpenSHMEM 1.6's device forms. dst: symmetric long long[48], zero; src: symmetric long long[24];
 *   sig: symmetric uint64_t[16], zero; out: symmetric uint64_t[4], zero.
 *     src[i] = 1000 * me + i (i < 24)
 *     jshmem_longlong_ibput(dst, src, 4, 3, 2, 4, right): src[3i + j] -> right's dst[4i + j], i < 4, j < 2
 *     jshmem_pe_quiet({right}, 1); jshmem_signal_add(&sig[0], 5, right); jshmem_signal_add(&sig[0], 6,
 *     right); jshmem_signal_set(&sig[8], 77, right)
 *     out[0] = jshmem_signal_wait_until(&sig[0], EQ, 11); out[1] = ..(&sig[8], EQ, 77)
 *     jshmem_longlong_ibget(&dst[32], src, 3, 4, 1, 5, left): left's src[4i] -> dst[32 + 3i], i < 5
 *   Ends with jshmem_trace_end("additions", ...) (a span in a job that traces) and jshmem_barrier_all_block.
 *   Expected on PE me: dst[4i + j] == 1000 * left + 3i + j (i < 4, j < 2), dst[32 + 3i] ==
 *   1000 * left + 4i (i < 5), every other dst element 0; sig[0] == 11, sig[8] == 77, the rest 0;
 *   out == {11, 77, 0, 0}.
 * ========================================================================================== */
extern "C" __global__ void test_additions(long long *dst, long long *src, uint64_t *sig, uint64_t *out) {
  const unsigned long long traced = jshmem_trace_begin(); /* a span when compiled for a job that traces */
  const int me = jshmem_my_pe(), right = right_pe(), left = left_pe();
  for (int i = 0; i < 24; ++i) src[i] = 1000ll * me + i;
  jshmem_longlong_ibput(dst, src, 4, 3, 2, 4, right);
  const int targets[1] = {right};
  jshmem_pe_quiet(targets, 1);
  jshmem_signal_add(&sig[0], 5, right);
  jshmem_signal_add(&sig[0], 6, right);
  jshmem_signal_set(&sig[8], 77, right);
  out[0] = jshmem_signal_wait_until(&sig[0], JSHMEM_CMP_EQ, 11);
  out[1] = jshmem_signal_wait_until(&sig[8], JSHMEM_CMP_EQ, 77);
  jshmem_longlong_ibget(&dst[32], src, 3, 4, 1, 5, left);
  jshmem_trace_end("additions", traced);
  jshmem_barrier_all_block();
}

/* ============================================================================================
 * test_stuck_wait(uint64_t *sig, int which)     launch: 1 block x 1 thread, JSHMEM_WAIT_TIMEOUT set
 *   A job where one PE skips its part, so that the others' waits never end and time out.
 *   which 0: every PE but PE 1 adds 1 to sig on every PE; every PE waits until sig == n_pes
 *            (jshmem_signal_wait_until): all stuck, each seeing n_pes - 1 (PE 1 too).
 *   which 1: every PE but PE 1 enters jshmem_barrier_all_block: all but PE 1 stuck, waiting for PE 1.
 *   Expected: each stuck PE prints its "made no progress" line and traps; PE 1 returns in case 1.
 * ========================================================================================== */
extern "C" __global__ void test_stuck_wait(uint64_t *sig, int which) {
  const int me = jshmem_my_pe(), n = jshmem_n_pes();
  if (which == 0) {
    if (me != 1)
      for (int pe = 0; pe < n; ++pe) jshmem_signal_add(sig, 1, pe);
    (void)jshmem_signal_wait_until(sig, JSHMEM_CMP_EQ, (uint64_t)n);
  } else if (me != 1) {
    jshmem_barrier_all_block();
  }
}

/* ============================================================================================
 * test_debug_trap(int *sym, int which)          launch: 1 block x 1 thread, debug = 1
 *   sym: symmetric int[4], 8-byte aligned. Each `which` makes one invalid call that debug mode must catch: the
 *   kernel prints one line and traps (launch fails; on CUDA the context is unusable afterwards,
 *   so run each case in its own process, last). The line starts with:
 *     0: "jshmem: jshmem_int_p: pe: PE out of range (PE <n>, n_pes <n> / "
 *     1: "jshmem: jshmem_putmem: dest: address range outside the symmetric heap (PE <me>, "
 *     2: "jshmem: jshmem_int_atomic_fetch_add: dest: address not naturally aligned (PE <right>, "
 *     3: "jshmem: jshmem_int_wait_until: cmp: unknown comparison code"
 *     4: "jshmem: jshmem_signal_op: sig_op: unknown signal operation"
 *     5: "jshmem: jshmem_barrier_block: team: slot out of range"
 *     6: "jshmem: jshmem_getmem: source: address in jshmem's internal region"
 *     other: a valid call (jshmem_int_p(sym, 1, me)): no trap, sym[0] == 1 afterwards.
 *   With debug = 0 the cases are undefined behaviour: do not run them.
 * ========================================================================================== */
extern "C" __global__ void test_debug_trap(int *sym, int which) {
  const int me = jshmem_my_pe(), n = jshmem_n_pes();
  char *heap_end = (char *)sym + (1ull << 40); /* far past any heap */
  switch (which) {
    case 0: jshmem_int_p(sym, 1, n); break;
    case 1: jshmem_putmem(heap_end, sym, 4, me); break;
    case 2: (void)jshmem_int_atomic_fetch_add((int *)((char *)sym + 1), 1, right_pe()); break;
    case 3: jshmem_int_wait_until(sym, 17, 0); break;
    case 4: jshmem_signal_op((uint64_t *)sym, 1, 5, me); break;
    case 5: jshmem_barrier_block(JSHMEM_MAX_TEAMS); break;
    case 6: jshmem_getmem(sym, jshmem_device_state.heap_base + JSHMEM_CELL, 4, me); break;
    default: jshmem_int_p(sym, 1, me); break;
  }
}
