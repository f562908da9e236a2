/*
 * device_proxy_test.cu - device calls to PEs of other nodes, through the proxy (jshmem_proxy.h).
 * DeviceProxyProgram launches each kernel on every PE of a job whose PEs span "nodes" (forced with
 * JSHMEM_TRANSPORT=remote or JSHMEM_NODE_OF_RANK); DeviceProxyTest checks what it reports.
 *
 * Data pattern: byte i of PE p's source is pattern(p, i) = (p * 31 + i * 7 + 1) & 0xff.
 * `peer` is the PE a kernel aims at (on another node); `writer` is the PE whose peer is this one.
 */
#include <jshmem/jshmem.h>

__device__ unsigned char pattern(int pe, size_t i) { return (unsigned char)((pe * 31 + i * 7 + 1) & 0xff); }

/* Fills this PE's src[0, n) with its pattern (one block). */
extern "C" __global__ void proxy_fill(unsigned char *src, size_t n) {
  for (size_t i = threadIdx.x; i < n; i += blockDim.x) src[i] = pattern(jshmem_my_pe(), i);
}

/* 0: whether jshmem_ptr(sym, peer) is NULL (1) or not (0); 1: the same for this PE itself. */
extern "C" __global__ void proxy_ptr(int *sym, int *out, int peer) {
  out[0] = jshmem_ptr(sym, peer) == 0;
  out[1] = jshmem_ptr(sym, jshmem_my_pe()) == 0;
}

/* Puts n bytes from src + 5 to the peer's dst + 3 of each of three sections (stride `stride`),
 * section 0 by thread 0 alone, section 1 by warp 0, section 2 by the whole block; then a barrier.
 * The writer's bytes land in this PE's dst[k * stride + 3 + i] = pattern(writer, 5 + i). */
extern "C" __global__ void proxy_put(unsigned char *dst, const unsigned char *src, size_t n, size_t stride,
                                     int peer) {
  if (threadIdx.x == 0) jshmem_putmem(dst + 3, src + 5, n, peer);
  if (threadIdx.x < 32) jshmem_putmem_warp(dst + stride + 3, src + 5, n, peer);
  jshmem_putmem_nbi_block(dst + 2 * stride + 3, src + 5, n, peer);
  jshmem_quiet();
  jshmem_barrier_all_block();
}

/* Gets n bytes from the peer's src + 5 into this PE's dst + 3 of three sections as proxy_put's
 * (thread, warp, block): dst[k * stride + 3 + i] = pattern(peer, 5 + i). */
extern "C" __global__ void proxy_get(unsigned char *dst, const unsigned char *src, size_t n, size_t stride,
                                     int peer) {
  if (threadIdx.x == 0) jshmem_getmem(dst + 3, src + 5, n, peer);
  if (threadIdx.x < 32) jshmem_getmem_warp(dst + stride + 3, src + 5, n, peer);
  jshmem_getmem_block(dst + 2 * stride + 3, src + 5, n, peer);
}

/* One thread: the atomics, p and g on the peer's cells (all zero before), results in out:
 *   out[0] fetch_add(c[0], 5) = 0        out[1] compare_swap(c[1], 0 -> 42) = 0
 *   out[2] compare_swap(c[1], 0 -> 43) = 42   out[3] swap(c[2], 7) = 0
 *   out[4] fetch(c[3]) after set(c[3], -9) = -9
 *   out[5] fetch_or(c[4], 0xf0) = 0      out[6] fetch_and(c[4], 0x3c) = 0xf0
 *   out[7] fetch_xor(c[4], 0xff) = 0x30  out[8..10] int fetch_inc(ic[0]) x3 = 0, 1, 2
 *   out[11] int fetch(ic[1]) after add(ic[1], -4) = -4
 *   out[12] g(d) after p(d, 2.5) as the double's bits    out[13] char g(ch) after p(ch, 'x')
 *   out[14] long g(c[0]) = 5
 * The peer's cells end as c = {5, 42, 7, -9, 0xcf}, ic = {3, -4}, d = 2.5, ch = 'x'. */
extern "C" __global__ void proxy_amo(long *c, int *ic, double *d, char *ch, long *out, int peer) {
  if (threadIdx.x != 0) return;
  out[0] = jshmem_long_atomic_fetch_add(c, 5, peer);
  out[1] = jshmem_long_atomic_compare_swap(c + 1, 0, 42, peer);
  out[2] = jshmem_long_atomic_compare_swap(c + 1, 0, 43, peer);
  out[3] = jshmem_long_atomic_swap(c + 2, 7, peer);
  jshmem_long_atomic_set(c + 3, -9, peer);
  out[4] = jshmem_long_atomic_fetch(c + 3, peer);
  out[5] = jshmem_long_atomic_fetch_or(c + 4, 0xf0, peer);
  out[6] = jshmem_long_atomic_fetch_and(c + 4, 0x3c, peer);
  out[7] = jshmem_long_atomic_fetch_xor(c + 4, 0xff, peer);
  for (int k = 0; k < 3; ++k) out[8 + k] = jshmem_int_atomic_fetch_inc(ic, peer);
  jshmem_int_atomic_add(ic + 1, -4, peer);
  out[11] = jshmem_int_atomic_fetch(ic + 1, peer);
  jshmem_double_p(d, 2.5, peer);
  double back = jshmem_double_g(d, peer);
  out[12] = *(long *)&back;
  jshmem_char_p(ch, 'x', peer);
  out[13] = jshmem_char_g(ch, peer);
  out[14] = jshmem_long_g(c, peer);
}

/* blocks x threads threads each add 1 to the peer's counter `iters` times (atomic_inc) and to
 * its fetched sum the values fetch_add returned; the peer's counter ends at blocks * threads *
 * iters times the number of PEs aiming at it. */
extern "C" __global__ void proxy_contention(unsigned long long *counter, int iters, int peer) {
  for (int k = 0; k < iters; ++k) jshmem_ulonglong_atomic_inc(counter, peer);
}

/* Both directions at once: put_signal (ADD 1) of n bytes from src to the peer's dst by the block,
 * and a signal_op (SET 9) to the peer's sig[1]; then waits for the writer's two signals and checks
 * its bytes in place: errors[0] counts mismatches, seen[0..1] the signals that released it. */
extern "C" __global__ void proxy_signal(unsigned char *dst, const unsigned char *src, size_t n, uint64_t *sig,
                                        int *errors, unsigned long long *seen, int writer, int peer) {
  jshmem_putmem_signal_block(dst, src, n, sig, 1, JSHMEM_SIGNAL_ADD, peer);
  if (threadIdx.x == 0) {
    jshmem_signal_op(sig + 1, 9, JSHMEM_SIGNAL_SET, peer);
    seen[0] = jshmem_signal_wait_until(sig, JSHMEM_CMP_GE, 1);
    seen[1] = jshmem_signal_wait_until(sig + 1, JSHMEM_CMP_EQ, 9);
  }
  __syncthreads();
  int bad = 0;
  for (size_t i = threadIdx.x; i < n; i += blockDim.x) bad += dst[i] != pattern(writer, i);
  if (bad) atomicAdd(errors, bad);
}

/* `rounds` times: thread 0 adds 1 to every other PE's counter (through NVLink or the proxy), then
 * the block's barrier over all PEs; after round r this PE's counter must be (n_pes - 1) * (r + 1):
 * errors[0] counts the rounds where it was not. */
extern "C" __global__ void proxy_barrier(int *counter, int rounds, int *errors) {
  int me = jshmem_my_pe(), n = jshmem_n_pes();
  for (int r = 0; r < rounds; ++r) {
    if (threadIdx.x == 0)
      for (int pe = 0; pe < n; ++pe)
        if (pe != me) jshmem_int_atomic_add(counter, 1, pe);
    jshmem_barrier_all_block();
    if (threadIdx.x == 0 && jshmem_int_atomic_fetch(counter, me) != (n - 1) * (r + 1)) errors[0] += 1;
    jshmem_barrier_all_block();
  }
}
