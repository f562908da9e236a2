/*
 * perf_kernels.cu - benchmark kernels of the device library, mirroring the NVSHMEM anchor
 * (shared/anchors/nvshmem_anchor.cu) launch for launch, plus a raw flag ping-pong for reference
 * (shared/anchors/p2p.cu). Compiled at run time with the include path shmem-device/include.
 *
 * Timing: the host records an event before and after the launch on the launching PE (as the
 * anchor does) and derives:
 *   perf_put_bw         bytes * iters / time                            (GB/s)
 *   perf_get_bw         bytes * iters / time                            (GB/s)
 *   perf_pingpong_p     time / iters / 2                                (one-way latency)
 *   perf_pingpong_signal time / iters / 2                               (one-way latency)
 *   perf_pingpong_raw   time / iters / 2                                (one-way latency)
 *   perf_barrier        time / iters                                    (device barrier)
 *   perf_sync           time / iters                                    (device sync)
 *   perf_amo_latency    time / iters                                    (remote fetch-add)
 * perf_pingpong_p64 and perf_pingpong_raw64 are the same ping-pongs on a 64-bit (long) flag.
 * The host form of the suite (org.jshmem.perf.DeviceForm) zeroes the flag on every PE and holds a
 * host barrier before each launch: the kernels count from 1 in every launch.
 * All buffers are symmetric (shmem.malloc). Targets on 2 x H200: put 256 MB >= 375 GB/s,
 * 1 MB >= 300 GB/s, 64 KB >= 150 GB/s; p + wait_until one way <= 0.9 us; put_signal +
 * signal_wait_until one way (8 B) <= 1.5 us.
 */
#include <jshmem/jshmem.h>

/* ============================================================================================
 * perf_put_bw(char *dst, const char *src, size_t bytes, int peer, int iters)
 *   Launch on the sending PE only: grid G x 1024 threads (the anchor: G = 32 for bytes >= 1 MB,
 *   else 4). Block b puts its chunk [b*chunk, b*chunk + len) of src to the peer's dst `iters`
 *   times with jshmem_putmem_nbi_block, then every thread calls jshmem_quiet.
 *   dst, src: symmetric, >= bytes.
 * ========================================================================================== */
extern "C" __global__ void __launch_bounds__(1024)
    perf_put_bw(char *dst, const char *src, size_t bytes, int peer, int iters) {
  size_t chunk = (bytes + gridDim.x - 1) / gridDim.x;
  size_t off = chunk * blockIdx.x;
  if (off >= bytes) return;
  size_t len = bytes - off < chunk ? bytes - off : chunk;
  for (int i = 0; i < iters; i++) jshmem_putmem_nbi_block(dst + off, src + off, len, peer);
  jshmem_quiet();
}

/* ============================================================================================
 * perf_get_bw(char *dst, const char *src, size_t bytes, int peer, int iters)
 *   As perf_put_bw, with jshmem_getmem_nbi_block from the peer's src into the local dst.
 * ========================================================================================== */
extern "C" __global__ void __launch_bounds__(1024)
    perf_get_bw(char *dst, const char *src, size_t bytes, int peer, int iters) {
  size_t chunk = (bytes + gridDim.x - 1) / gridDim.x;
  size_t off = chunk * blockIdx.x;
  if (off >= bytes) return;
  size_t len = bytes - off < chunk ? bytes - off : chunk;
  for (int i = 0; i < iters; i++) jshmem_getmem_nbi_block(dst + off, src + off, len, peer);
  jshmem_quiet();
}

/* ============================================================================================
 * perf_pingpong_p(int *flag, int iters, int peer, int me)
 *   Launch on both PEs: 1 block x 1 thread. flag: symmetric int, zero. PE 0 sends first:
 *   i = 1..iters: jshmem_int_p(flag, i, peer) then jshmem_int_wait_until(flag, EQ, i);
 *   PE 1 waits first, then answers. One-way latency = time / iters / 2.
 * ========================================================================================== */
extern "C" __global__ void perf_pingpong_p(int *flag, int iters, int peer, int me) {
  for (int i = 1; i <= iters; i++) {
    if (me == 0) {
      jshmem_int_p(flag, i, peer);
      jshmem_int_wait_until(flag, JSHMEM_CMP_EQ, i);
    } else {
      jshmem_int_wait_until(flag, JSHMEM_CMP_EQ, i);
      jshmem_int_p(flag, i, peer);
    }
  }
}

/* ============================================================================================
 * perf_pingpong_p64(long *flag, int iters, int peer, int me)
 *   perf_pingpong_p on a symmetric long (64-bit) flag: jshmem_long_p / jshmem_long_wait_until.
 * ========================================================================================== */
extern "C" __global__ void perf_pingpong_p64(long *flag, int iters, int peer, int me) {
  for (int i = 1; i <= iters; i++) {
    if (me == 0) {
      jshmem_long_p(flag, (long)i, peer);
      jshmem_long_wait_until(flag, JSHMEM_CMP_EQ, (long)i);
    } else {
      jshmem_long_wait_until(flag, JSHMEM_CMP_EQ, (long)i);
      jshmem_long_p(flag, (long)i, peer);
    }
  }
}

/* ============================================================================================
 * perf_pingpong_signal(char *buf, uint64_t *sig, size_t bytes, int iters, int peer, int me)
 *   Launch on both PEs: 1 block x 128 threads. buf: symmetric >= bytes; sig: symmetric
 *   uint64_t, zero. i = 1..iters: PE 0 does jshmem_putmem_signal_nbi_block(buf, buf, bytes, sig,
 *   i, SET, peer), then thread 0 waits with jshmem_signal_wait_until(sig, EQ, i), __syncthreads;
 *   PE 1 waits first, then answers. Anchor sizes: 8 B, 4 KB, 64 KB.
 * ========================================================================================== */
extern "C" __global__ void perf_pingpong_signal(char *buf, uint64_t *sig, size_t bytes, int iters,
                                                int peer, int me) {
  for (int i = 1; i <= iters; i++) {
    if (me == 0) {
      jshmem_putmem_signal_nbi_block(buf, buf, bytes, sig, (uint64_t)i, JSHMEM_SIGNAL_SET, peer);
      if (threadIdx.x == 0) jshmem_signal_wait_until(sig, JSHMEM_CMP_EQ, (uint64_t)i);
      __syncthreads();
    } else {
      if (threadIdx.x == 0) jshmem_signal_wait_until(sig, JSHMEM_CMP_EQ, (uint64_t)i);
      __syncthreads();
      jshmem_putmem_signal_nbi_block(buf, buf, bytes, sig, (uint64_t)i, JSHMEM_SIGNAL_SET, peer);
    }
  }
}

/* ============================================================================================
 * perf_pingpong_raw(int *flag, int iters, int peer, int me)
 *   The hardware reference (p2p.cu's pingpong): volatile store into the peer's flag through
 *   jshmem_ptr, __threadfence_system, volatile spin on the own flag (>= i). Launch on both PEs:
 *   1 block x 32 threads (thread 0 works). flag: symmetric int, zero.
 * ========================================================================================== */
template <typename T>
__device__ void perf_pingpong_raw_t(T *flag, int iters, int peer, int me) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  volatile T *mine = flag;
  volatile T *theirs = (volatile T *)jshmem_ptr(flag, peer);
  for (int i = 1; i <= iters; i++) {
    if (me == 0) {
      *theirs = (T)i;
      __threadfence_system();
      while (*mine < (T)i) {
      }
    } else {
      while (*mine < (T)i) {
      }
      *theirs = (T)i;
      __threadfence_system();
    }
  }
}

extern "C" __global__ void perf_pingpong_raw(int *flag, int iters, int peer, int me) {
  perf_pingpong_raw_t(flag, iters, peer, me);
}

/* perf_pingpong_raw on a symmetric long (64-bit) flag. */
extern "C" __global__ void perf_pingpong_raw64(long *flag, int iters, int peer, int me) {
  perf_pingpong_raw_t(flag, iters, peer, me);
}

/* ============================================================================================
 * perf_barrier(int iters, int team_slot)
 *   Launch on every member: 1 block x 64 threads. iters x jshmem_barrier_block(team_slot)
 *   (team_slot 0: all PEs). Device-side barrier latency = time / iters.
 * ========================================================================================== */
extern "C" __global__ void perf_barrier(int iters, int team_slot) {
  for (int i = 0; i < iters; i++) jshmem_barrier_block(team_slot);
}

/* ============================================================================================
 * perf_sync(int iters, int team_slot)
 *   As perf_barrier with jshmem_team_sync_block (no quiet). Device-side sync latency = time / iters.
 * ========================================================================================== */
extern "C" __global__ void perf_sync(int iters, int team_slot) {
  for (int i = 0; i < iters; i++) jshmem_team_sync_block(team_slot);
}

/* ============================================================================================
 * perf_amo_latency(uint64_t *counter, int iters, int peer, uint64_t *out)
 *   Launch on one PE: 1 block x 1 thread. iters x jshmem_uint64_atomic_fetch_add(counter, 1,
 *   peer), the sum of the fetched values into *out (keeps the fetches). counter: symmetric,
 *   zero; out: any device memory. Latency = time / iters.
 * ========================================================================================== */
extern "C" __global__ void perf_amo_latency(uint64_t *counter, int iters, int peer,
                                            uint64_t *out) {
  uint64_t sum = 0;
  for (int i = 0; i < iters; i++) sum += jshmem_uint64_atomic_fetch_add(counter, 1, peer);
  *out = sum;
}
