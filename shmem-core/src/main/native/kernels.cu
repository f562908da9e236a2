/*
 * kernels.cu - the device work of the host runtime: state binding, an SM copy, put-with-signal,
 * signal wait, barrier/sync and quiet on a stream. One source for nvcc and hipcc; linked with
 * the shim (shim_error.cu), which implements jshmem_rt_fail / jshmem_rt_last_error.
 *
 * Every exported function returns 0 on success and -1 on failure with a message left through
 * jshmem_rt_fail (shim_error.h). Streams are passed as void* (a cudaStream_t / hipStream_t, or
 * NULL for the default stream). All *_async calls only enqueue work.
 *
 * This translation unit defines the shim's copy of the device symbol jshmem_device_state;
 * coll_kernels.cu (the collectives) owns a second copy under another name, which
 * jshmem_rt_set_state fills too.
 */
#include <jshmem/jshmem.h>

#include "gpu.h"
#include "kernel_launch.h"
#include "kernel_trace.cuh"
#include "shim_internal.h"

#if JSHMEM_ARCH_HIP
#define JSHMEMK_MEMCPY_TO_STATE(src) \
  hipMemcpyToSymbol(HIP_SYMBOL(jshmem_device_state), (src), sizeof(jshmem_device_state_t), 0, \
                    hipMemcpyHostToDevice)
#else
#define JSHMEMK_MEMCPY_TO_STATE(src) \
  cudaMemcpyToSymbol(jshmem_device_state, (src), sizeof(jshmem_device_state_t), 0, \
                     cudaMemcpyHostToDevice)
#endif

/* Threads per block of the copy kernels. */
#define JSHMEMK_COPY_THREADS 512
/* Default grid of the SM copy: one block per 8 KiB (one 16-byte word per thread), at most this
 * many blocks (about two waves of 132 SMs). */
#define JSHMEMK_COPY_BYTES_PER_BLOCK (8u << 10)
#define JSHMEMK_COPY_MAX_BLOCKS 264
/* put_signal up to this size runs as one kernel of one 1024-thread block (lowest latency); above,
 * as a many-block copy kernel followed by a one-thread signal kernel on the same stream. */
#define JSHMEMK_PUT_SIGNAL_ONE_BLOCK_BYTES (256u << 10)
/* Threads of the barrier kernel: one per member, JSHMEM_MAX_PES at most. */
#define JSHMEMK_BARRIER_THREADS JSHMEM_MAX_PES

/* Host copy of the state last bound, for argument checks (team slots, n_pes). */
static jshmem_device_state_t jshmemk_host_state;
static int jshmemk_state_set = 0;

/* ---- kernels ----------------------------------------------------------------------------- */

/* Grid copy: every thread of the grid takes its share of the words. */
__global__ void __launch_bounds__(JSHMEMK_COPY_THREADS)
    jshmemk_copy(void *dst, const void *src, size_t bytes) {
  jshmemk_chain_start();
  size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t nthreads = (size_t)gridDim.x * blockDim.x;
  jshmemi_copy<JSHMEMI_UNROLL_BLOCK>(dst, src, bytes, tid, nthreads);
}

/* Strided copy: element i (sizeof(T) bytes) from src + i*src_pitch to dst + i*dst_pitch, one
 * element per thread per step (iput/iget on GPU heaps; either side may be pinned host memory). */
template <typename T>
__global__ void __launch_bounds__(JSHMEMK_COPY_THREADS)
    jshmemk_copy_strided(char *dst, size_t dst_pitch, const char *src, size_t src_pitch, size_t n) {
  size_t step = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
    *(T *)(dst + i * dst_pitch) = *(const T *)(src + i * src_pitch);
}

/* The same for elements of any width or alignment, byte by byte. */
__global__ void __launch_bounds__(JSHMEMK_COPY_THREADS)
    jshmemk_copy_strided_bytes(char *dst, size_t dst_pitch, const char *src, size_t src_pitch,
                               size_t elem, size_t n) {
  size_t step = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step)
    for (size_t b = 0; b < elem; b++) dst[i * dst_pitch + b] = src[i * src_pitch + b];
}

/* One block: copy, block barrier, then thread 0 signals with release at system scope. */
__global__ void __launch_bounds__(1024)
    jshmemk_put_signal_block(void *dst, const void *src, size_t bytes, uint64_t *sig,
                             uint64_t value, int sig_op) {
  jshmemk_chain_start();
  jshmemi_copy<JSHMEMI_UNROLL_BLOCK>(dst, src, bytes, threadIdx.x, blockDim.x);
  jshmemi_group_release_fence();
  __syncthreads();
  if (threadIdx.x == 0) jshmemi_signal(sig, value, sig_op);
}

/* The signal after a copy kernel on the same stream (the copy's stores are complete and visible
 * when the next kernel of the stream starts; the release orders them before the signal). */
__global__ void jshmemk_signal(uint64_t *sig, uint64_t value, int sig_op) {
  jshmemk_chain_start();
  jshmemi_signal(sig, value, sig_op);
}

/* One thread spins (acquire, system scope) until *sig cmp value. */
__global__ void jshmemk_signal_wait(uint64_t *sig, int cmp, uint64_t value) {
  jshmemk_chain_start();
  (void)jshmemi_wait_until("signalWaitUntilOnStream", (const unsigned long long *)sig, cmp, (unsigned long long)value);
}

/* fenced = 0: no quiet and no fences (jshmemi_team_sync_at_boundary): the kernel is alone at a
 * stream boundary, where the stream's earlier stores are already complete. */
__global__ void __launch_bounds__(JSHMEMK_BARRIER_THREADS)
    jshmemk_team_sync(jshmemk_op op, int slot, int quiet, int fenced) {
  /* Launched plainly (chaining it gains nothing, kernel_launch.h); this lets a chained kernel
   * after it be scheduled early. */
  jshmemk_chain_start();
  jshmemk_span span(op, "barrier", quiet ? "barrier" : "sync");
  const char *fn = quiet ? "jshmem_rt_barrier_async" : "jshmem_rt_sync_async";
  if (fenced)
    jshmemi_team_sync_block(fn, slot, quiet != 0);
  else
    jshmemi_team_sync_at_boundary(fn, slot, 1);
}

__global__ void jshmemk_quiet() {
  jshmemk_chain_start();
  jshmem_quiet();
}

/* The GPU clock of the device library's timeouts and trace spans, into mapped host memory. */
__global__ void jshmemk_gpu_time(unsigned long long *out) {
  *(volatile unsigned long long *)out = jshmemi_now_ns();
}

/* ---- host functions ----------------------------------------------------------------------- */

static int jshmemk_check_state(const char *fn) {
  if (!jshmemk_state_set) return jshmem_rt_fail("%s: jshmem_rt_set_state was not called", fn);
  return 0;
}

static int jshmemk_check_team(const char *fn, int team_slot) {
  if (jshmemk_check_state(fn) != 0) return -1;
  if (team_slot < 0 || team_slot >= JSHMEM_MAX_TEAMS)
    return jshmem_rt_fail("%s: team slot %d out of range 0..%d", fn, team_slot,
                          JSHMEM_MAX_TEAMS - 1);
  const jshmem_team_desc_t *t = &jshmemk_host_state.teams[team_slot];
  if (t->size <= 0) return jshmem_rt_fail("%s: team slot %d is not in use", fn, team_slot);
  if (t->size > JSHMEM_MAX_PES)
    return jshmem_rt_fail("%s: team slot %d has %d members, at most %d", fn, team_slot, t->size,
                          JSHMEM_MAX_PES);
  return 0;
}

/* The traced stream operation this thread queues (kernel_launch.h). */
thread_local unsigned jshmemk_trace_op = 0;
thread_local unsigned jshmemk_trace_kernels = 0;

/* The trace ring's records for the runtime's kernels (jshmem_rt_trace_ops_ring): the next to reserve
 * (past the capacity: none left) and the blocks that found none. */
static jshmem_trace_record_t *jshmemk_ops_records = NULL;
static unsigned long long jshmemk_ops_capacity = 0;
static unsigned long long jshmemk_ops_next = 0;
static unsigned long long jshmemk_ops_lost = 0;

jshmem_trace_record_t *jshmemk_trace_reserve(unsigned grid, gpuStream_t st) {
  gpuStreamCaptureStatus capture;
  if (gpuStreamIsCapturing(st, &capture) != gpuSuccess || capture != gpuStreamCaptureStatusNone)
    return NULL;   /* a graph would replay the records: captured work is timed by its graph's launch */
  jshmemk_trace_kernels++;
  jshmem_trace_record_t *records = __atomic_load_n(&jshmemk_ops_records, __ATOMIC_ACQUIRE);
  unsigned long long first = __atomic_fetch_add(&jshmemk_ops_next, (unsigned long long)grid, __ATOMIC_RELAXED);
  if (records == NULL || first + grid > jshmemk_ops_capacity) {
    __atomic_fetch_add(&jshmemk_ops_lost, (unsigned long long)grid, __ATOMIC_RELAXED);
    return NULL;
  }
  return records + first;
}

extern "C" {

/* Copies *s into this module's jshmem_device_state (synchronous). */
int jshmem_rt_set_state(const jshmem_device_state_t *s) {
  if (s == NULL) return jshmem_rt_fail("jshmem_rt_set_state: state is NULL");
  if (s->n_pes < 1 || s->n_pes > JSHMEM_MAX_PES || s->my_pe < 0 || s->my_pe >= s->n_pes)
    return jshmem_rt_fail("jshmem_rt_set_state: my_pe %d / n_pes %d out of range (1..%d PEs)",
                          s->my_pe, s->n_pes, JSHMEM_MAX_PES);
  BIND_DEVICE();
  GPU_TRY(JSHMEMK_MEMCPY_TO_STATE(s));
  if (jshmemk_coll_set_state(s) != 0) return -1;
  jshmemk_host_state = *s;
  jshmemk_state_set = 1;
  return 0;
}

/* SM copy of `bytes` from src to dst (any device-accessible memory, local or a peer's);
 * blocks <= 0 picks a grid for the size. chained != 0 launches it chained (kernel_launch.h): only
 * where no other PE's kernels share this GPU. */
int jshmem_rt_copy_sm_async(void *dst, const void *src, size_t bytes, int blocks, int chained, void *stream) {
  if (bytes == 0) return 0;
  if (dst == NULL || src == NULL)
    return jshmem_rt_fail("jshmem_rt_copy_sm_async: %s is NULL (bytes %zu)",
                          dst == NULL ? "dst" : "src", bytes);
  if (blocks <= 0) {
    size_t b = (bytes + JSHMEMK_COPY_BYTES_PER_BLOCK - 1) / JSHMEMK_COPY_BYTES_PER_BLOCK;
    blocks = b > JSHMEMK_COPY_MAX_BLOCKS ? JSHMEMK_COPY_MAX_BLOCKS : (int)b;
  }
  return jshmemk_launch<jshmemk_copy>("jshmemk_copy", blocks, JSHMEMK_COPY_THREADS, (gpuStream_t)stream, chained != 0,
                                      dst, src, bytes);
}

/* Strided copy of n elements of `elem` bytes: element i from src + i*src_pitch to
 * dst + i*dst_pitch (any device-accessible memory: a peer's heap, pinned host memory). Elements
 * of 1, 2, 4 or 8 bytes move as one load and store where pitches and pointers allow. */
int jshmem_rt_copy_strided_async(void *dst, size_t dst_pitch, const void *src, size_t src_pitch,
                                 size_t elem, size_t n, void *stream) {
  if (n == 0 || elem == 0) return 0;
  if (dst == NULL || src == NULL)
    return jshmem_rt_fail("jshmem_rt_copy_strided_async: %s is NULL (%zu elements of %zu bytes)",
                          dst == NULL ? "dst" : "src", n, elem);
  if (dst_pitch < elem || src_pitch < elem)
    return jshmem_rt_fail("jshmem_rt_copy_strided_async: pitches %zu/%zu below the element size %zu",
                          dst_pitch, src_pitch, elem);
  size_t b = (n + JSHMEMK_COPY_THREADS - 1) / JSHMEMK_COPY_THREADS;
  int blocks = b > JSHMEMK_COPY_MAX_BLOCKS ? JSHMEMK_COPY_MAX_BLOCKS : (int)b;
  gpuStream_t st = (gpuStream_t)stream;
  char *d = (char *)dst;
  const char *s = (const char *)src;
  size_t align = (size_t)d | (size_t)s | dst_pitch | src_pitch;
  const char *name = "jshmemk_copy_strided";
  const unsigned threads = JSHMEMK_COPY_THREADS;
  if (elem == 8 && (align & 7) == 0)
    return jshmemk_launch<jshmemk_copy_strided<uint64_t>>(name, blocks, threads, st, false, d, dst_pitch, s,
                                                          src_pitch, n);
  if (elem == 4 && (align & 3) == 0)
    return jshmemk_launch<jshmemk_copy_strided<uint32_t>>(name, blocks, threads, st, false, d, dst_pitch, s,
                                                          src_pitch, n);
  if (elem == 2 && (align & 1) == 0)
    return jshmemk_launch<jshmemk_copy_strided<uint16_t>>(name, blocks, threads, st, false, d, dst_pitch, s,
                                                          src_pitch, n);
  if (elem == 1)
    return jshmemk_launch<jshmemk_copy_strided<uint8_t>>(name, blocks, threads, st, false, d, dst_pitch, s,
                                                         src_pitch, n);
  return jshmemk_launch<jshmemk_copy_strided_bytes>("jshmemk_copy_strided_bytes", blocks, threads, st, false, d,
                                                    dst_pitch, s, src_pitch, elem, n);
}

/* Copies `bytes` from src to dst (a peer's memory), then applies sig_op (JSHMEM_SIGNAL_SET/ADD)
 * with `value` to sig_remote (the peer's signal word, as this process maps it). The peer that
 * sees the signal sees all the data (release at system scope after the data). */
int jshmem_rt_put_signal_async(void *dst, const void *src, size_t bytes, uint64_t *sig_remote,
                               uint64_t value, int sig_op, void *stream) {
  if (sig_remote == NULL) return jshmem_rt_fail("jshmem_rt_put_signal_async: sig_remote is NULL");
  if (((size_t)sig_remote & 7) != 0)
    return jshmem_rt_fail("jshmem_rt_put_signal_async: sig_remote %p is not 8-byte aligned",
                          (void *)sig_remote);
  if (sig_op != JSHMEM_SIGNAL_SET && sig_op != JSHMEM_SIGNAL_ADD)
    return jshmem_rt_fail("jshmem_rt_put_signal_async: unknown signal operation %d", sig_op);
  if (bytes > 0 && (dst == NULL || src == NULL))
    return jshmem_rt_fail("jshmem_rt_put_signal_async: %s is NULL (bytes %zu)",
                          dst == NULL ? "dst" : "src", bytes);
  gpuStream_t st = (gpuStream_t)stream;
  if (bytes <= JSHMEMK_PUT_SIGNAL_ONE_BLOCK_BYTES)
    return jshmemk_launch<jshmemk_put_signal_block>("jshmemk_put_signal_block", 1, 1024, st, true, dst, src, bytes,
                                                    sig_remote, value, sig_op);
  if (jshmem_rt_copy_sm_async(dst, src, bytes, 0, 0, stream) != 0) return -1;
  return jshmemk_launch<jshmemk_signal>("jshmemk_signal", 1, 1, st, true, sig_remote, value, sig_op);
}

/* Makes the stream wait until the local signal word satisfies *sig_local cmp value
 * (JSHMEM_CMP_*, unsigned 64-bit comparison). Work enqueued after it sees what the signalling
 * PE released with the signal. */
int jshmem_rt_signal_wait_async(uint64_t *sig_local, int cmp, uint64_t value, void *stream) {
  if (sig_local == NULL) return jshmem_rt_fail("jshmem_rt_signal_wait_async: sig_local is NULL");
  if (((size_t)sig_local & 7) != 0)
    return jshmem_rt_fail("jshmem_rt_signal_wait_async: sig_local %p is not 8-byte aligned",
                          (void *)sig_local);
  if (cmp < JSHMEM_CMP_EQ || cmp > JSHMEM_CMP_LE)
    return jshmem_rt_fail("jshmem_rt_signal_wait_async: unknown comparison %d", cmp);
  return jshmemk_launch<jshmemk_signal_wait>("jshmemk_signal_wait", 1, 1, (gpuStream_t)stream, true, sig_local, cmp,
                                             value);
}

/* Barrier over the team in team_slot on the stream: the stream's earlier work (and its stores
 * to peers) is complete on every member before any member's later work starts. */
int jshmem_rt_barrier_async(int team_slot, void *stream) {
  if (jshmemk_check_team("jshmem_rt_barrier_async", team_slot) != 0) return -1;
  return jshmemk_launch<jshmemk_team_sync>("jshmemk_team_sync", 1, JSHMEMK_BARRIER_THREADS, (gpuStream_t)stream, false,
                                           team_slot, 1, jshmemk_boundary_fences());
}

/* Sync over the team in team_slot on the stream (no quiet; kernel boundaries already complete
 * the stream's earlier stores, so in practice it orders as much as the barrier). */
int jshmem_rt_sync_async(int team_slot, void *stream) {
  if (jshmemk_check_team("jshmem_rt_sync_async", team_slot) != 0) return -1;
  return jshmemk_launch<jshmemk_team_sync>("jshmemk_team_sync", 1, JSHMEMK_BARRIER_THREADS, (gpuStream_t)stream, false,
                                           team_slot, 0, jshmemk_boundary_fences());
}

/* A system-scope fence on the stream. Stream order already completes the earlier kernels' and
 * copies' stores before later work starts, so the runtime needs this only where it wants an
 * explicit fence (e.g. before the host reads peers' data without a stream sync). */
int jshmem_rt_quiet_async(void *stream) {
  return jshmemk_launch<jshmemk_quiet>("jshmemk_quiet", 1, 1, (gpuStream_t)stream, true);
}

int jshmem_rt_trace_ops_ring(void *records, unsigned long long capacity) {
  if (records == NULL && capacity != 0)
    return jshmem_rt_fail("jshmem_rt_trace_ops_ring: no records for a capacity of %llu", capacity);
  __atomic_store_n(&jshmemk_ops_records, (jshmem_trace_record_t *)NULL, __ATOMIC_RELEASE);
  jshmemk_ops_capacity = capacity;
  __atomic_store_n(&jshmemk_ops_next, 0ull, __ATOMIC_RELAXED);
  __atomic_store_n(&jshmemk_ops_lost, 0ull, __ATOMIC_RELAXED);
  __atomic_store_n(&jshmemk_ops_records, (jshmem_trace_record_t *)records, __ATOMIC_RELEASE);
  return 0;
}

void jshmem_rt_trace_ops_taken(unsigned long long *reserved, unsigned long long *lost) {
  *reserved = __atomic_load_n(&jshmemk_ops_next, __ATOMIC_RELAXED);
  *lost = __atomic_load_n(&jshmemk_ops_lost, __ATOMIC_RELAXED);
}

unsigned jshmem_rt_trace_op(unsigned op) {
  unsigned kernels = jshmemk_trace_kernels;
  jshmemk_trace_op = op;
  jshmemk_trace_kernels = 0;
  return kernels;
}

/* Reads the GPU clock (jshmemi_now_ns) with a one-thread kernel on the stream and waits for it; out:
 * pinned, mapped host memory. The host brackets the call with its own clock to map one onto the other. */
int jshmem_rt_gpu_time(unsigned long long *out, void *stream) {
  if (out == NULL) return jshmem_rt_fail("jshmem_rt_gpu_time: out is NULL");
  if (jshmemk_launch<jshmemk_gpu_time>("jshmemk_gpu_time", 1, 1, (gpuStream_t)stream, false, out) != 0) return -1;
  GPU_TRY(gpuStreamSynchronize((gpuStream_t)stream));
  return 0;
}

} /* extern "C" */
