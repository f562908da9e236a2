/*
 * coll_kernels.cu - the runtime's collectives on a stream: all-reduce, fcollect, collect,
 * alltoall, broadcast over a team. One source for nvcc and hipcc. The host functions (0 / -1,
 * message through jshmem_rt_fail) only enqueue work on the given stream.
 *
 * Device state: this translation unit owns a copy of the device state under its own name
 * (jshmemk_coll_state, by renaming jshmem_device_state before including the device library), so it
 * builds without relocatable device code; jshmem_rt_set_state (kernels.cu) fills both copies.
 *
 * Synchronisation: the team's barrier cells (jshmem_barrier.h), the same generation sequence as
 * barriers and the device library's block collectives. Every collective publishes gen+1 at its
 * entry (every member's source is ready and its destination writable) and gen+2 at its exit (no
 * member reads this PE's source or writes its destination any more), whichever shape it takes:
 *   fused: one kernel of one block: jshmemi_team_sync_block (gen+1), the work, jshmemi_team_sync_block
 *          (gen+2, with a quiet where it stored to peers). Lowest latency, for small sizes.
 *   grid:  a kernel of `blocks` blocks, each of which enters with jshmemi_team_enter_block (publishes
 *          and awaits gen+1 without writing the generation cell, so all blocks agree on it and none
 *          waits for another block), then does its share; then a one-block kernel syncs at gen+2
 *          with a quiet (jshmemi_team_sync_block_step(.., 2)). For large sizes.
 *   copy engine (pull collectives): a one-block sync kernel (gen+1), every peer's piece (pulled,
 *          or for fcollect, collect and alltoall by default this PE's pieces pushed)
 *          as a memcpyAsync on side streams forked from and joined back into the caller's stream
 *          with events (ce_lanes of them at once), this PE's own piece by an SM
 *          copy kernel on the caller's stream meanwhile, a one-block sync kernel (gen+2).
 *   low latency (reductions of at most JSHMEM_LL_PAYLOAD bytes on teams of at most JSHMEM_LL_MEMBERS):
 *          one kernel of one block, no synchronisation at all (see jshmemk_reduce_ll); it leaves the
 *          generation alone.
 * Kernel boundaries order a stream's work (the previous kernel's stores, peers' included, are
 * complete before the next kernel starts), and the sync kernels' releases are cumulative over it.
 * A team of one PE: reductions are a plain copy (no sync); the other collectives run as above
 * (a sync with itself costs a few hundred nanoseconds).
 */
#define jshmem_device_state jshmemk_coll_state
#include <jshmem/jshmem.h>

#include <pthread.h>
#include <stddef.h>

#include "gpu.h"
#include "kernel_launch.h"
#include "kernel_trace.cuh"
#include "shim.h"
#include "shim_internal.h"

#if JSHMEM_ARCH_HIP
#define JSHMEMK_COLL_MEMCPY_TO_STATE(src) \
  hipMemcpyToSymbol(HIP_SYMBOL(jshmem_device_state), (src), sizeof(jshmem_device_state_t), 0, \
                    hipMemcpyHostToDevice)
#else
#define JSHMEMK_COLL_MEMCPY_TO_STATE(src) \
  cudaMemcpyToSymbol(jshmem_device_state, (src), sizeof(jshmem_device_state_t), 0, \
                     cudaMemcpyHostToDevice)
#endif

/* Threads per block of the collective kernels (fused and grid); __launch_bounds__(.., 1) lets the
 * reductions use up to 128 registers (no spills; one block per SM). */
#define JSHMEMK_COLL_THREADS 512
/* Threads of the one-block sync kernel: one per member. */
#define JSHMEMK_COLL_SYNC_THREADS JSHMEM_MAX_PES
/* Most blocks a grid kernel may be launched with. */
#define JSHMEMK_COLL_MAX_BLOCKS 65535
/* Bytes per block of the SM copy of this PE's own piece in the copy-engine shape. */
#define JSHMEMK_LOCAL_BYTES_PER_BLOCK (256u << 10)
/* Side streams the copy-engine copies of peers' pieces may be spread over: the most ce_lanes a
 * caller may ask for (org.jshmem.GpuCollectiveTuning.CE_LANES_LIMIT). */
#define JSHMEMK_SIDE_STREAMS 8

/* The function name device-side debug reports give. */
#define JSHMEMK_COLL_FN "jshmem_rt_coll"

/* Host copy of the state last bound: team slots, heap bounds, peer table. */
static jshmem_device_state_t jshmemk_coll_host;
static int jshmemk_coll_host_set = 0;
/* Multiprocessors of the device (set with the side streams). */
static int jshmemk_sms = 1;

/* ---- kernels ----------------------------------------------------------------------------- */

/* Team sync of one block: gen += step, with a quiet first if `quiet`; fenced = 0: neither quiet
 * nor fences (jshmemi_team_sync_at_boundary: the kernel stands alone between the stream's work). */
__global__ void __launch_bounds__(JSHMEMK_COLL_SYNC_THREADS)
    jshmemk_coll_sync(jshmemk_op op, int slot, int quiet, unsigned step, int fenced) {
  jshmemk_chain_start();
  jshmemk_span span(op, "barrier", step == 1 ? "entry sync" : "exit sync");
  if (fenced)
    jshmemi_team_sync_block_step(JSHMEMK_COLL_FN, slot, quiet != 0, step);
  else
    jshmemi_team_sync_at_boundary(JSHMEMK_COLL_FN, slot, step);
}

/* Reduction modes of the kernels below. */
#define JSHMEMK_ONE_SHOT 0
#define JSHMEMK_TWO_SHOT 1
#define JSHMEMK_SCATTER 2 /* reduce-scatter: this PE's block of the members' sources */
#define JSHMEMK_LOW_LATENCY 3 /* all-reduce with the flags inside the data (jshmemk_reduce_ll) */

template <typename E, int OP>
__global__ void __launch_bounds__(JSHMEMK_COLL_THREADS, 1)
    jshmemk_reduce_fused(jshmemk_op op, int slot, void *dest, const void *src, size_t nelems, int mode) {
  jshmemk_chain_start();
  jshmemk_span span(op, "comm", mode == JSHMEMK_SCATTER ? "reduce-scatter" : "all-reduce");
  if (mode == JSHMEMK_SCATTER)
    (void)jshmemi_reducescatter_block<E, OP>(JSHMEMK_COLL_FN, slot, dest, src, nelems);
  else
    (void)jshmemi_reduce_block<E, OP>(JSHMEMK_COLL_FN, slot, dest, src, nelems,
                                      mode == JSHMEMK_TWO_SHOT);
}

template <typename E, int OP>
__global__ void __launch_bounds__(JSHMEMK_COLL_THREADS, 1)
    jshmemk_reduce_grid(jshmemk_op op, int slot, void *dest, const void *src, size_t nelems, int mode,
                        bool rotated) {
  jshmemk_span span(op, "comm", mode == JSHMEMK_SCATTER ? "reduce-scatter" : "all-reduce");
  jshmemi_team_enter_block(JSHMEMK_COLL_FN, slot);
  size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t nthreads = (size_t)gridDim.x * blockDim.x;
  if (mode == JSHMEMK_SCATTER)
    jshmemi_reducescatter_body<E, OP>(slot, dest, src, nelems, tid, nthreads, rotated);
  else
    jshmemi_reduce_body<E, OP>(slot, dest, src, nelems, mode == JSHMEMK_TWO_SHOT, tid, nthreads, rotated);
}

#include "coll_ll.cuh"

/* The sources of a copy-engine reduction's local work: member i's part of this PE's slice, in team
 * order (this PE's own in its source, the peers' pulled into the scratch buffer). */
struct jshmemk_blocks {
  const char *at[JSHMEM_MAX_PES];
};

/* dest[k] = op over the members (team order) of their block's element k, k < nelems; words of W. */
template <typename E, int OP, typename W>
__device__ void jshmemk_reduce_blocks_with(W *dest, const jshmemk_blocks &b, int n, size_t nwords) {
  size_t step = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < nwords; i += step) {
    jshmemi_red_word<E, OP, W> r;
    r.first(((const W *)b.at[0])[i]);
    for (int m = 1; m < n; ++m) r.next(((const W *)b.at[m])[i]);
    dest[i] = r.result();
  }
}

template <typename E, int OP>
__global__ void __launch_bounds__(JSHMEMK_COLL_THREADS, 1)
    jshmemk_reduce_blocks(jshmemk_op op, void *dest, jshmemk_blocks b, int n, size_t nelems) {
  jshmemk_span span(op, "comm", "reduce pulled");
  typedef typename E::storage S;
  unsigned long long align = jshmemi_addr(dest) | (nelems * sizeof(S));
  for (int m = 0; m < n; ++m) align |= jshmemi_addr(b.at[m]);
  if ((align & 15) == 0)
    jshmemk_reduce_blocks_with<E, OP, jshmemi_v16>((jshmemi_v16 *)dest, b, n,
                                                  nelems * sizeof(S) / 16);
  else
    jshmemk_reduce_blocks_with<E, OP, S>((S *)dest, b, n, nelems);
}

/* Grid copy of this PE's own piece in the copy-engine shape (the engines pull the peers'). */
__global__ void __launch_bounds__(JSHMEMK_COLL_THREADS, 1)
    jshmemk_copy_local(jshmemk_op op, void *dst, const void *src, size_t bytes) {
  jshmemk_span span(op, "comm", "own piece");
  jshmemi_copy<JSHMEMI_UNROLL_BLOCK>(dst, src, bytes, (size_t)blockIdx.x * blockDim.x + threadIdx.x,
                                     (size_t)gridDim.x * blockDim.x);
}

__global__ void __launch_bounds__(JSHMEMK_COLL_THREADS, 1)
    jshmemk_pull_fused(jshmemk_op op, int slot, jshmemi_pull_plan plan) {
  jshmemk_chain_start();
  jshmemk_span span(op, "comm", "pull");
  jshmemi_pull_block(JSHMEMK_COLL_FN, slot, plan);
}

__global__ void __launch_bounds__(JSHMEMK_COLL_THREADS, 1)
    jshmemk_pull_grid(jshmemk_op op, int slot, jshmemi_pull_plan plan) {
  jshmemk_span span(op, "comm", "pull");
  jshmemi_team_enter_block(JSHMEMK_COLL_FN, slot);
  jshmemi_pull(plan, jshmem_device_state.teams[slot],
               (size_t)blockIdx.x * blockDim.x + threadIdx.x, (size_t)gridDim.x * blockDim.x);
}

/* ---- host helpers ------------------------------------------------------------------------ */

static int coll_sync(int slot, int quiet, unsigned step, gpuStream_t st) {
  return jshmemk_launch<jshmemk_coll_sync>("jshmemk_coll_sync", 1, JSHMEMK_COLL_SYNC_THREADS, st, true, slot, quiet,
                                           step, jshmemk_boundary_fences());
}

/* The team in `slot` exists and this PE is in it: *me = its team index, *n = the team size. */
static int coll_team(const char *fn, int slot, int *me_out, int *n_out) {
  if (!jshmemk_coll_host_set) return jshmem_rt_fail("%s: jshmem_rt_set_state was not called", fn);
  if (slot < 0 || slot >= JSHMEM_MAX_TEAMS)
    return jshmem_rt_fail("%s: team slot %d out of range 0..%d", fn, slot, JSHMEM_MAX_TEAMS - 1);
  const jshmem_team_desc_t *t = &jshmemk_coll_host.teams[slot];
  if (t->size <= 0) return jshmem_rt_fail("%s: team slot %d is not in use", fn, slot);
  if (t->size > JSHMEM_MAX_PES)
    return jshmem_rt_fail("%s: team slot %d has %d members, at most %d", fn, slot, t->size,
                          JSHMEM_MAX_PES);
  int me = -1;
  for (int i = 0; i < t->size; i++) {
    int pe = t->start + i * t->stride;
    if (pe < 0 || pe >= jshmemk_coll_host.n_pes)
      return jshmem_rt_fail("%s: team slot %d: member %d is PE %d, outside 0..%d", fn, slot, i, pe,
                            jshmemk_coll_host.n_pes - 1);
    if (pe == jshmemk_coll_host.my_pe) me = i;
  }
  if (me < 0)
    return jshmem_rt_fail("%s: PE %d is not a member of the team in slot %d", fn,
                          jshmemk_coll_host.my_pe, slot);
  *me_out = me;
  *n_out = t->size;
  return 0;
}

/* [p, p + bytes) lies in the user part of this PE's heap; *off = p's heap offset. */
static int coll_range(const char *fn, const char *what, const void *p, size_t bytes,
                      unsigned long long *off) {
  unsigned long long base = (unsigned long long)(size_t)jshmemk_coll_host.heap_base;
  unsigned long long a = (unsigned long long)(size_t)p;
  unsigned long long size = jshmemk_coll_host.heap_size;
  if (p == NULL || a < base + JSHMEM_INTERNAL_SIZE || a - base > size || bytes > size - (a - base))
    return jshmem_rt_fail("%s: %s %p (%llu bytes) is not in the symmetric heap [%p + %llu, %p + %llu)",
                          fn, what, p, (unsigned long long)bytes, (void *)jshmemk_coll_host.heap_base,
                          (unsigned long long)JSHMEM_INTERNAL_SIZE, (void *)jshmemk_coll_host.heap_base,
                          size);
  *off = a - base;
  return 0;
}

/* ---- reductions -------------------------------------------------------------------------- */


template <typename E, int OP>
static int reduce_launch(int slot, void *dest, const void *src, size_t nelems, int mode,
                         const jshmemk_blocks *gathered, int blocks, bool rotated, gpuStream_t st) {
  if (gathered != NULL) {   /* a copy-engine reduction's local work */
    if (blocks <= 0) blocks = jshmemk_sms;
    return jshmemk_launch<jshmemk_reduce_blocks<E, OP>>("jshmemk_reduce_blocks", blocks, JSHMEMK_COLL_THREADS, st,
                                                        false, dest, *gathered, jshmemk_coll_host.teams[slot].size,
                                                        nelems);
  }
  if (mode == JSHMEMK_LOW_LATENCY)
    return jshmemk_launch<jshmemk_reduce_ll<E, OP>>("jshmemk_reduce_ll", 1, JSHMEMK_COLL_THREADS, st, true, slot, dest,
                                                    src, nelems);
  if (blocks <= 0)
    return jshmemk_launch<jshmemk_reduce_fused<E, OP>>("jshmemk_reduce_fused", 1, JSHMEMK_COLL_THREADS, st, true, slot,
                                                       dest, src, nelems, mode);
  if (jshmemk_launch<jshmemk_reduce_grid<E, OP>>("jshmemk_reduce_grid", blocks, JSHMEMK_COLL_THREADS, st, false, slot,
                                                 dest, src, nelems, mode, rotated) != 0)
    return -1;
  return coll_sync(slot, 1, 2, st);
}

/* Calls f.template run<E, OP>() for the element type (JSHMEM_DTYPE_*) and the operation
 * (JSHMEM_REDUCE_*): on the host to launch or post a reduction, in the service kernel to run one.
 * A bitwise operation on a floating-point type is -1 (on the host with the reason). */
#if !JSHMEM_IS_HIP
#pragma nv_exec_check_disable
#endif
template <typename E, typename F>
__host__ __device__ static int jshmemk_with_arith(int op, const F &f) {
  switch (op) {
    case JSHMEM_REDUCE_SUM: return f.template run<E, JSHMEM_REDUCE_SUM>();
    case JSHMEM_REDUCE_PROD: return f.template run<E, JSHMEM_REDUCE_PROD>();
    case JSHMEM_REDUCE_MIN: return f.template run<E, JSHMEM_REDUCE_MIN>();
    case JSHMEM_REDUCE_MAX: return f.template run<E, JSHMEM_REDUCE_MAX>();
    default:
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
      return -1;
#else
      return jshmem_rt_fail("jshmem_rt_coll: operation %d is not defined for floating-point types", op);
#endif
  }
}

#if !JSHMEM_IS_HIP
#pragma nv_exec_check_disable
#endif
template <typename T, typename F>
__host__ __device__ static int jshmemk_with_int(int op, const F &f) {
  typedef jshmemi_elem<T> E;
  switch (op) {
    case JSHMEM_REDUCE_AND: return f.template run<E, JSHMEM_REDUCE_AND>();
    case JSHMEM_REDUCE_OR: return f.template run<E, JSHMEM_REDUCE_OR>();
    case JSHMEM_REDUCE_XOR: return f.template run<E, JSHMEM_REDUCE_XOR>();
    default: return jshmemk_with_arith<E>(op, f);
  }
}

#if !JSHMEM_IS_HIP
#pragma nv_exec_check_disable
#endif
template <typename F>
__host__ __device__ static int jshmemk_with_reduction(int dtype, int op, const F &f) {
  switch (dtype) {
    case JSHMEM_DTYPE_BYTE: return jshmemk_with_int<signed char>(op, f);
    case JSHMEM_DTYPE_SHORT: return jshmemk_with_int<short>(op, f);
    case JSHMEM_DTYPE_INT: return jshmemk_with_int<int>(op, f);
    case JSHMEM_DTYPE_LONG: return jshmemk_with_int<long long>(op, f);
    case JSHMEM_DTYPE_FLOAT: return jshmemk_with_arith<jshmemi_elem<float> >(op, f);
    case JSHMEM_DTYPE_DOUBLE: return jshmemk_with_arith<jshmemi_elem<double> >(op, f);
    case JSHMEM_DTYPE_FP16: return jshmemk_with_arith<jshmemi_elem<jshmemi_fp16_tag> >(op, f);
    default: return jshmemk_with_arith<jshmemi_elem<jshmemi_bf16_tag> >(op, f);
  }
}

/* The arguments of a reduction launch, passed through the type and operation switches. */
struct reduce_args {
  int slot;
  void *dest;
  const void *src;
  size_t nelems;
  int mode;
  const jshmemk_blocks *gathered;
  int blocks;
  bool rotated;
  gpuStream_t st;

  template <typename E, int OP>
  int run() const {
    return reduce_launch<E, OP>(slot, dest, src, nelems, mode, gathered, blocks, rotated, st);
  }
};

/* Launches the reduction of `a` for the element type and operation. */
static int reduce_typed(int dtype, int op, const reduce_args &a) {
  return jshmemk_with_reduction(dtype, op, a);
}

#include "coll_service.cuh"

static size_t dtype_size(int dtype) {
  switch (dtype) {
    case JSHMEM_DTYPE_BYTE: return 1;
    case JSHMEM_DTYPE_SHORT: case JSHMEM_DTYPE_FP16: case JSHMEM_DTYPE_BF16: return 2;
    case JSHMEM_DTYPE_INT: case JSHMEM_DTYPE_FLOAT: return 4;
    case JSHMEM_DTYPE_LONG: case JSHMEM_DTYPE_DOUBLE: return 8;
    default: return 0;
  }
}

/* A reduction's team (as coll_team) and its element type and operation are known: *sz = the
 * element's bytes. */
static int coll_reduction(const char *fn, int slot, int dtype, int op, int *me, int *n, size_t *sz) {
  if (coll_team(fn, slot, me, n) != 0) return -1;
  *sz = dtype_size(dtype);
  if (*sz == 0) return jshmem_rt_fail("%s: unknown element type %d", fn, dtype);
  if (op < JSHMEM_REDUCE_SUM || op > JSHMEM_REDUCE_XOR) return jshmem_rt_fail("%s: unknown operation %d", fn, op);
  return 0;
}

/* ---- pull collectives: fused, grid or copy engines ---------------------------------------- */

static pthread_mutex_t jshmemk_side_lock = PTHREAD_MUTEX_INITIALIZER;
static int jshmemk_side_ready = 0;
static gpuStream_t jshmemk_side[JSHMEMK_SIDE_STREAMS];
static gpuEvent_t jshmemk_fork;
static gpuEvent_t jshmemk_join[JSHMEMK_SIDE_STREAMS];

static int side_init(void) {
  if (jshmemk_side_ready) return 0;
  int dev = 0;
  GPU_TRY(gpuGetDevice(&dev));
  GPU_TRY(gpuDeviceGetAttribute(&jshmemk_sms, gpuDevAttrMultiProcessorCount, dev));
  if (jshmemk_sms < 1) jshmemk_sms = 1;
  GPU_TRY(gpuEventCreateWithFlags(&jshmemk_fork, gpuEventDisableTiming));
  for (int j = 0; j < JSHMEMK_SIDE_STREAMS; j++) {
    GPU_TRY(gpuStreamCreateWithFlags(&jshmemk_side[j], gpuStreamNonBlocking));
    GPU_TRY(gpuEventCreateWithFlags(&jshmemk_join[j], gpuEventDisableTiming));
  }
  jshmemk_side_ready = 1;
  return 0;
}

/* `st` waits for the work queued on side stream j so far. A wait takes the event's latest record, so
 * one join event per lane serves any number of joins. */
static int side_join(int j, gpuStream_t st) {
  GPU_TRY(gpuEventRecord(jshmemk_join[j], jshmemk_side[j]));
  GPU_TRY(gpuStreamWaitEvent(st, jshmemk_join[j], 0));
  return 0;
}

/* Checks a caller's ce_lanes (1..JSHMEMK_SIDE_STREAMS). On one lane the copies run one after the
 * other in rotated order, so at each moment every PE is read (written) by exactly one other, which
 * beats several lanes contending for the same links. Pushes (this PE's pieces written into the
 * members' dests) beat pulls where every member sends to every member: a write over NVLink carries
 * its data with the request, a read needs a request one way and the data the other. Measured by
 * GpuCollectivesBench (docs/performance.md); org.jshmem.GpuCollectiveTuning picks both
 * (JSHMEM_GPU_COLL_CE_LANES / _CE_MODE). */
static int ce_lanes_ok(const char *fn, int lanes) {
  if (lanes < 1 || lanes > JSHMEMK_SIDE_STREAMS)
    return jshmem_rt_fail("%s: %d copy-engine lanes asked, give 1 to %d", fn, lanes, JSHMEMK_SIDE_STREAMS);
  return 0;
}

/* Enqueues one piece: a copy engine on the next side stream for a peer's, an SM copy kernel on the
 * caller's stream for this PE's own (at the same time, without taking an engine from the others). */
static int ce_piece(char *dst, const char *src, size_t len, int local, int lanes, int *next, int *used,
                    gpuStream_t st) {
  if (local) {
    size_t want = (len + JSHMEMK_LOCAL_BYTES_PER_BLOCK - 1) / JSHMEMK_LOCAL_BYTES_PER_BLOCK;
    int blocks = want > (size_t)jshmemk_sms ? jshmemk_sms : (int)want;
    return jshmemk_launch<jshmemk_copy_local>("jshmemk_copy_local", blocks, JSHMEMK_COLL_THREADS, st, false, dst, src,
                                              len);
  }
  int j = (*next)++ % lanes;
  if (!used[j]) {
    GPU_TRY(gpuStreamWaitEvent(jshmemk_side[j], jshmemk_fork, 0));
    used[j] = 1;
  }
  GPU_TRY(gpuMemcpyAsync(dst, src, len, gpuMemcpyDefault, jshmemk_side[j]));
  return 0;
}

/* With jshmemk_side_lock held: entry sync, the pieces on copy engines (`lanes` side streams, see
 * ce_lanes_ok) in rotated order, each PE starting with the member after itself, exit sync. Pulls
 * bring member i's piece into dest + at[i]; pushes (push_stride >= 0: every member sends to every
 * member, its piece for member i at src + i * push_stride) write this PE's piece into dest + at[me]
 * of every member. */
static int pull_ce_locked(int slot, int me, const jshmemi_pull_plan *p, int lanes, long long push_stride,
                          gpuStream_t st) {
  if (side_init() != 0) return -1;
  int push = push_stride >= 0;
  const jshmem_team_desc_t *t = &jshmemk_coll_host.teams[slot];
  if (coll_sync(slot, 0, 1, st) != 0) return -1;
  GPU_TRY(gpuEventRecord(jshmemk_fork, st));
  int used[JSHMEMK_SIDE_STREAMS] = {0};
  int next = 0;
  for (int k = 0; k < p->count; k++) {
    int i = p->first + (me + 1 + k) % p->count;
    int pe = t->start + i * t->stride;
    int local = pe == jshmemk_coll_host.my_pe;
    char *dst;
    const char *src;
    size_t len;
    if (push) {   /* this PE's piece into member i's dest */
      len = (size_t)(p->at[me + 1] - p->at[me]);
      dst = jshmemk_coll_host.peer_base[pe] + p->dst_off + p->at[me];
      src = jshmemk_coll_host.heap_base + p->src_off + (size_t)i * (size_t)push_stride;
    } else {      /* member i's piece into this PE's dest */
      len = (size_t)(p->at[i + 1] - p->at[i]);
      dst = jshmemk_coll_host.heap_base + p->dst_off + p->at[i];
      src = jshmemk_coll_host.peer_base[pe] + p->src_off + p->src_skip;
    }
    if (len == 0 || dst == src) continue;
    if (ce_piece(dst, src, len, local, lanes, &next, used, st) != 0) return -1;
  }
  for (int j = 0; j < JSHMEMK_SIDE_STREAMS; j++) {
    if (used[j] && side_join(j, st) != 0) return -1;
  }
  return coll_sync(slot, 1, 1, st);
}

/* Checks the plan's pieces against the heap (destination bytes up to at[last], source pieces on
 * every member) and enqueues the collective. */
static int pull_async(const char *fn, int slot, int me, const jshmemi_pull_plan *p,
                      unsigned long long src_piece_max, int blocks, int ce_lanes, long long push_stride,
                      gpuStream_t st) {
  unsigned long long dst_end = p->at[p->first + p->count];
  if (p->dst_off < JSHMEM_INTERNAL_SIZE || p->dst_off > jshmemk_coll_host.heap_size ||
      dst_end > jshmemk_coll_host.heap_size - p->dst_off)
    return jshmem_rt_fail("%s: dest (heap offset %llu, %llu bytes) outside the symmetric heap (%llu bytes)",
                          fn, p->dst_off, dst_end, (unsigned long long)jshmemk_coll_host.heap_size);
  unsigned long long s0 = p->src_off + p->src_skip;
  if (p->src_off < JSHMEM_INTERNAL_SIZE || s0 > jshmemk_coll_host.heap_size ||
      src_piece_max > jshmemk_coll_host.heap_size - s0)
    return jshmem_rt_fail("%s: source (heap offset %llu + %llu, %llu bytes) outside the symmetric heap",
                          fn, p->src_off, p->src_skip, src_piece_max);
  if (blocks > JSHMEMK_COLL_MAX_BLOCKS)
    return jshmem_rt_fail("%s: %d blocks asked, at most %d", fn, blocks, JSHMEMK_COLL_MAX_BLOCKS);
  if (ce_lanes != 0 && ce_lanes_ok(fn, ce_lanes) != 0) return -1;
  if (dst_end == 0) return 0;
  if (jshmemk_served(st)) return service_pull(fn, slot, p, blocks, ce_lanes);
  if (ce_lanes != 0) {
    pthread_mutex_lock(&jshmemk_side_lock);
    int rc = pull_ce_locked(slot, me, p, ce_lanes, push_stride, st);
    pthread_mutex_unlock(&jshmemk_side_lock);
    return rc;
  }
  if (blocks <= 0)
    return jshmemk_launch<jshmemk_pull_fused>("jshmemk_pull_fused", 1, JSHMEMK_COLL_THREADS, st, true, slot, *p);
  if (jshmemk_launch<jshmemk_pull_grid>("jshmemk_pull_grid", blocks, JSHMEMK_COLL_THREADS, st, false, slot, *p) != 0)
    return -1;
  return coll_sync(slot, 1, 2, st);
}

/* Plan of fcollect / alltoall: member i's `bytes` go to dest + i * bytes. */
static void plan_blocks(jshmemi_pull_plan *p, int n, unsigned long long dst_off,
                        unsigned long long src_off, size_t bytes, unsigned long long skip) {
  p->dst_off = dst_off;
  p->src_off = src_off;
  p->src_skip = skip;
  for (int i = 0; i <= n; i++) p->at[i] = (unsigned long long)i * bytes;
  p->first = 0;
  p->count = n;
}

/* ---- copy-engine reductions -------------------------------------------------------------- */

/* The copy-engine reductions (a reduce-scatter; an all-reduce as its reduce-scatter and all-gather
 * halves): the peers' parts of this PE's slice are pulled by the copy engines into a local scratch
 * buffer (kept and grown; freed by jshmem_rt_coll_release), reduced there by SM kernels, and for an
 * all-reduce pushed by the copy engines into the members' destinations. */
static void *jshmemk_rs_scratch = NULL;
static size_t jshmemk_rs_capacity = 0;
/* Recorded after each local reduction: the next call's pulls (maybe on another stream) and a
 * regrowth of the scratch wait for the last reader of the scratch. */
static gpuEvent_t jshmemk_rs_done;
/* Recorded after each chunk's reduction of an all-reduce: its pushes wait for it. */
static gpuEvent_t jshmemk_rs_reduced;
static int jshmemk_rs_events_made = 0;

/* Chunks of a copy-engine reduction: at most this many, of at least JSHMEMK_RS_CHUNK_MIN bytes. Each
 * chunk costs a copy, an event and a wait per lane and a launch (an all-reduce's another event, wait
 * and copy), so 4 chunks beat 8 even though more would shorten the work left after the last pull. */
#define JSHMEMK_RS_CHUNKS 4
#define JSHMEMK_RS_CHUNK_MIN (1u << 20)

/* Bytes per chunk of a slice: a multiple of 16, so every chunk's reduction takes 16-byte words
 * where the slice does (an element is at most 8 bytes). */
static size_t rs_chunk_bytes(size_t slice) {
  size_t c = (slice + JSHMEMK_RS_CHUNKS - 1) / JSHMEMK_RS_CHUNKS;
  if (c < JSHMEMK_RS_CHUNK_MIN) c = JSHMEMK_RS_CHUNK_MIN;
  return (c + 15) & ~(size_t)15;
}

/* One copy-engine reduction's slice on this PE: the bytes at src + at .. + len on every member
 * reduce into out (this PE's heap), which an all-reduce (push) then copies to the same heap offset
 * on every member. */
struct rs_slice {
  const char *src;
  size_t at;
  size_t len;
  char *out;
  int push;
};

/* With jshmemk_side_lock held: a copy-engine reduction. Entry sync; chunk after chunk, the peers'
 * parts pulled on `lanes` side streams in rotated order (member me+1 first, so the members do not all
 * read one peer at once), then reduced on `st` over this PE's own part and the pulled ones in team
 * order, as soon as that chunk's pulls end: the SMs reduce chunk c while the engines pull chunk c + 1.
 * An all-reduce pushes each reduced chunk on `lanes` other side streams at the same time. Exit sync:
 * every member's pulls (and pushes) are done; a reduce-scatter's comes before its last chunk's
 * reduction, which needs no peer. */
static int reduce_ce_locked(int slot, int dtype, int op, int me, int n, const rs_slice *s, size_t sz,
                            int blocks, int lanes, gpuStream_t st) {
  if (side_init() != 0) return -1;
  if (!jshmemk_rs_events_made) {
    GPU_TRY(gpuEventCreateWithFlags(&jshmemk_rs_done, gpuEventDisableTiming));
    GPU_TRY(gpuEventCreateWithFlags(&jshmemk_rs_reduced, gpuEventDisableTiming));
    GPU_TRY(gpuEventRecord(jshmemk_rs_done, st));
    jshmemk_rs_events_made = 1;
  }
  size_t need = s->len * (size_t)n;
  if (need > jshmemk_rs_capacity) {
    GPU_TRY(gpuEventSynchronize(jshmemk_rs_done)); /* no queued reduction still reads the old one */
    if (jshmemk_rs_scratch != NULL) GPU_TRY(gpuFree(jshmemk_rs_scratch));
    jshmemk_rs_scratch = NULL;
    jshmemk_rs_capacity = 0;
    GPU_TRY(gpuMalloc(&jshmemk_rs_scratch, need));
    jshmemk_rs_capacity = need;
  }
  const jshmem_team_desc_t *t = &jshmemk_coll_host.teams[slot];
  size_t soff = (size_t)(s->src - jshmemk_coll_host.heap_base) + s->at;
  size_t ooff = (size_t)(s->out - jshmemk_coll_host.heap_base);
  int used = lanes < n - 1 ? lanes : n - 1;
  jshmemk_blocks b;
  for (int i = 0; i < n; i++)
    b.at[i] = i == me ? s->src + s->at : (const char *)jshmemk_rs_scratch + (size_t)i * s->len;
  if (coll_sync(slot, 0, 1, st) != 0) return -1;
  GPU_TRY(gpuEventRecord(jshmemk_fork, st));
  for (int j = 0; j < used; j++) {
    GPU_TRY(gpuStreamWaitEvent(jshmemk_side[j], jshmemk_fork, 0));
    GPU_TRY(gpuStreamWaitEvent(jshmemk_side[j], jshmemk_rs_done, 0));
  }
  int exited = 0;
  size_t chunk = rs_chunk_bytes(s->len);
  for (size_t off = 0; off < s->len; off += chunk) {
    size_t len = s->len - off < chunk ? s->len - off : chunk;
    for (int k = 0; k < n - 1; k++) {
      int i = (me + 1 + k) % n;
      const char *peer = jshmemk_coll_host.peer_base[t->start + i * t->stride] + soff + off;
      GPU_TRY(gpuMemcpyAsync((char *)b.at[i] + off, peer, len, gpuMemcpyDefault, jshmemk_side[k % used]));
    }
    for (int j = 0; j < used; j++) {
      if (side_join(j, st) != 0) return -1;
    }
    if (!s->push && off + len == s->len) {
      if (coll_sync(slot, 0, 1, st) != 0) return -1;
      exited = 1;
    }
    jshmemk_blocks at;
    for (int i = 0; i < n; i++) at.at[i] = b.at[i] + off;
    reduce_args a = {slot, s->out + off, NULL, len / sz, JSHMEMK_SCATTER, &at, blocks, false, st};
    if (reduce_typed(dtype, op, a) != 0) return -1;
    if (s->push) {   /* on lanes after the pulls' (the same ones where 2 x lanes > JSHMEMK_SIDE_STREAMS) */
      GPU_TRY(gpuEventRecord(jshmemk_rs_reduced, st));
      for (int j = 0; j < used; j++)
        GPU_TRY(gpuStreamWaitEvent(jshmemk_side[(used + j) % JSHMEMK_SIDE_STREAMS], jshmemk_rs_reduced, 0));
      for (int k = 0; k < n - 1; k++) {
        int i = (me + 1 + k) % n;
        char *peer = jshmemk_coll_host.peer_base[t->start + i * t->stride] + ooff + off;
        GPU_TRY(gpuMemcpyAsync(peer, s->out + off, len, gpuMemcpyDefault,
                               jshmemk_side[(used + k % used) % JSHMEMK_SIDE_STREAMS]));
      }
    }
  }
  GPU_TRY(gpuEventRecord(jshmemk_rs_done, st));
  if (s->push) {
    for (int j = 0; j < used; j++) {
      if (side_join((used + j) % JSHMEMK_SIDE_STREAMS, st) != 0) return -1;
    }
  }
  return exited ? 0 : coll_sync(slot, 1, 1, st);
}

/* ---- exported ---------------------------------------------------------------------------- */

/* Copies *state into this module's device state (called by jshmem_rt_set_state). */
extern "C" int jshmemk_coll_set_state(const void *state) {
  const jshmem_device_state_t *s = (const jshmem_device_state_t *)state;
  for (int pe = 0; pe < s->n_pes; pe++) {
    if (((size_t)s->peer_base[pe] & 15) != 0)
      return jshmem_rt_fail("jshmem_rt_set_state: PE %d's heap base %p is not 16-byte aligned (the"
                            " collectives need it)", pe, (void *)s->peer_base[pe]);
  }
  GPU_TRY(JSHMEMK_COLL_MEMCPY_TO_STATE(s));
  jshmemk_coll_host = *s;
  jshmemk_coll_host_set = 1;
  return 0;
}

extern "C" {

/* All-reduce over the team in team_slot: dest[k] = op over the members (team order) of src[k],
 * k < nelems, on every member. dtype: JSHMEM_DTYPE_*, op: JSHMEM_REDUCE_* (AND/OR/XOR integers
 * only). dest == src allowed (not one-shot). dest and src: this PE's addresses in its heap, aligned
 * to the element size. shape: JSHMEM_RT_REDUCE_ONE_SHOT = every PE reduces everything (pull),
 * _TWO_SHOT = each PE reduces its slice and stores it into every member's dest, _LOW_LATENCY = the
 * flags inside the data (teams of at most JSHMEM_LL_MEMBERS, at most JSHMEM_LL_PAYLOAD bytes; one
 * block, blocks ignored). blocks: 0 = one fused block (small sizes), else a kernel of that many
 * blocks plus a one-block sync kernel. ce_lanes > 0 (two-shot only): the copy engines pull the
 * peers' parts of this PE's slice and push its reduced slice, on that many side streams each, and
 * SM kernels of `blocks` blocks (0: one per SM) reduce it locally, chunk by chunk (reduce_ce_locked). */
int jshmem_rt_coll_reduce_async(int team_slot, int dtype, int op, void *dest, const void *src,
                                size_t nelems, int shape, int blocks, int ce_lanes, int rotated, void *stream) {
  const char *fn = "jshmem_rt_coll_reduce_async";
  BIND_DEVICE();
  int me = 0, n = 0;
  size_t sz = 0;
  if (coll_reduction(fn, team_slot, dtype, op, &me, &n, &sz) != 0) return -1;
  if (nelems > ((size_t)-1) / sz) return jshmem_rt_fail("%s: %zu elements overflow", fn, nelems);
  size_t bytes = nelems * sz;
  unsigned long long doff = 0, soff = 0;
  if (coll_range(fn, "dest", dest, bytes, &doff) != 0 || coll_range(fn, "src", src, bytes, &soff) != 0)
    return -1;
  if ((doff % sz) != 0 || (soff % sz) != 0)
    return jshmem_rt_fail("%s: dest (heap offset %llu) and src (%llu) must be aligned to the element size %zu",
                          fn, doff, soff, sz);
  if (doff != soff && doff < soff + bytes && soff < doff + bytes)
    return jshmem_rt_fail("%s: dest and src overlap without being the same range", fn);
  if (shape < JSHMEM_RT_REDUCE_ONE_SHOT || shape > JSHMEM_RT_REDUCE_LOW_LATENCY)
    return jshmem_rt_fail("%s: unknown shape %d", fn, shape);
  if (doff == soff && shape == JSHMEM_RT_REDUCE_ONE_SHOT)
    return jshmem_rt_fail("%s: in place (dest == src) cannot be one-shot", fn);
  if (shape == JSHMEM_RT_REDUCE_LOW_LATENCY && (n > JSHMEM_LL_MEMBERS || bytes > JSHMEM_LL_PAYLOAD))
    return jshmem_rt_fail("%s: the low-latency shape takes teams of at most %d PEs and %llu bytes, not %d PEs"
                          " and %zu bytes", fn, JSHMEM_LL_MEMBERS, JSHMEM_LL_PAYLOAD, n, bytes);
  if (blocks > JSHMEMK_COLL_MAX_BLOCKS)
    return jshmem_rt_fail("%s: %d blocks asked, at most %d", fn, blocks, JSHMEMK_COLL_MAX_BLOCKS);
  if (ce_lanes != 0 && shape != JSHMEM_RT_REDUCE_TWO_SHOT)
    return jshmem_rt_fail("%s: copy-engine lanes (%d) asked for a shape other than two-shot", fn, ce_lanes);
  if (ce_lanes != 0 && ce_lanes_ok(fn, ce_lanes) != 0) return -1;
  if (nelems == 0) return 0;
  gpuStream_t st = (gpuStream_t)stream;
  (void)gpuGetLastError(); /* a stale "not ready" of a stream query is not this launch's error */
  if (jshmemk_served(st)) return service_reduce_ll(fn, team_slot, dtype, op, dest, src, nelems, n, shape);
  if (n == 1) {
    if (doff != soff) GPU_TRY(gpuMemcpyAsync(dest, src, bytes, gpuMemcpyDefault, st));
    return 0;
  }
  if (ce_lanes != 0) {   /* slices of whole 16-byte words (every member's the same length but the last ones) */
    size_t per = (nelems + (size_t)n - 1) / (size_t)n * sz;
    per = (per + 15) & ~(size_t)15;
    size_t at = (size_t)me * per < bytes ? (size_t)me * per : bytes;
    size_t len = bytes - at < per ? bytes - at : per;
    rs_slice sl = {(const char *)src, at, len, (char *)dest + at, 1};
    pthread_mutex_lock(&jshmemk_side_lock);
    int rc = reduce_ce_locked(team_slot, dtype, op, me, n, &sl, sz, blocks, ce_lanes, st);
    pthread_mutex_unlock(&jshmemk_side_lock);
    return rc;
  }
  int mode = shape == JSHMEM_RT_REDUCE_LOW_LATENCY ? JSHMEMK_LOW_LATENCY
             : shape == JSHMEM_RT_REDUCE_TWO_SHOT   ? JSHMEMK_TWO_SHOT
                                                    : JSHMEMK_ONE_SHOT;
  reduce_args a = {team_slot, dest, src, nelems, mode, NULL, blocks, rotated != 0 && n >= 3, st};
  return reduce_typed(dtype, op, a);
}

/* Reduce-scatter over the team in team_slot: on team PE i, dest[k] = op over the members (team
 * order) of src[i * nper + k], k < nper. src: n * nper elements, dest: nper, not overlapping;
 * both this PE's addresses in its heap, aligned to the element size. blocks: 0 = one fused block
 * (small sizes), else a kernel of that many blocks plus a sync kernel (the SM shape reads the
 * peers' blocks in place); ce_lanes > 0: the peers' blocks pulled by the copy engines (on that
 * many side streams) and reduced locally by kernels of `blocks` blocks (0: one per SM), chunk by chunk
 * (reduce_ce_locked). */
int jshmem_rt_coll_reducescatter_async(int team_slot, int dtype, int op, void *dest, const void *src,
                                       size_t nper, int blocks, int ce_lanes, int rotated, void *stream) {
  const char *fn = "jshmem_rt_coll_reducescatter_async";
  BIND_DEVICE();
  int me = 0, n = 0;
  size_t sz = 0;
  if (coll_reduction(fn, team_slot, dtype, op, &me, &n, &sz) != 0) return -1;
  if (nper > ((size_t)-1) / sz / (size_t)n) return jshmem_rt_fail("%s: %zu elements per PE overflow", fn, nper);
  size_t block = nper * sz;
  unsigned long long doff = 0, soff = 0;
  if (coll_range(fn, "dest", dest, block, &doff) != 0 ||
      coll_range(fn, "src", src, block * (size_t)n, &soff) != 0)
    return -1;
  if ((doff % sz) != 0 || (soff % sz) != 0)
    return jshmem_rt_fail("%s: dest (heap offset %llu) and src (%llu) must be aligned to the element size %zu",
                          fn, doff, soff, sz);
  if (doff < soff + block * (size_t)n && soff < doff + block)
    return jshmem_rt_fail("%s: dest and src overlap", fn);
  if (blocks > JSHMEMK_COLL_MAX_BLOCKS)
    return jshmem_rt_fail("%s: %d blocks asked, at most %d", fn, blocks, JSHMEMK_COLL_MAX_BLOCKS);
  if (ce_lanes != 0 && ce_lanes_ok(fn, ce_lanes) != 0) return -1;
  if (nper == 0) return 0;
  gpuStream_t st = (gpuStream_t)stream;
  (void)gpuGetLastError(); /* a stale "not ready" of a stream query is not this launch's error */
  if (jshmemk_served(st)) return jshmem_rt_fail("%s: the service kernel does not run reduce-scatters", fn);
  if (n == 1) {
    GPU_TRY(gpuMemcpyAsync(dest, src, block, gpuMemcpyDefault, st));
    return 0;
  }
  if (ce_lanes != 0) {
    pthread_mutex_lock(&jshmemk_side_lock);
    rs_slice sl = {(const char *)src, (size_t)me * block, block, (char *)dest, 0};
    int rc = reduce_ce_locked(team_slot, dtype, op, me, n, &sl, sz, blocks, ce_lanes, st);
    pthread_mutex_unlock(&jshmemk_side_lock);
    return rc;
  }
  reduce_args a = {team_slot, dest, src, nper, JSHMEMK_SCATTER, NULL, blocks, rotated != 0 && n >= 3, st};
  return reduce_typed(dtype, op, a);
}

/* fcollect: dest (n * bytes) = every member's `bytes` of src, in team order. blocks as for reduce;
 * ce_lanes > 0: the pieces as memcpyAsync on that many side streams (blocks ignored), pushed where
 * ce_push != 0, else pulled. */
int jshmem_rt_coll_fcollect_async(int team_slot, void *dest, const void *src, size_t bytes,
                                  int blocks, int ce_lanes, int ce_push, void *stream) {
  const char *fn = "jshmem_rt_coll_fcollect_async";
  BIND_DEVICE();
  int me = 0, n = 0;
  unsigned long long doff = 0, soff = 0;
  if (coll_team(fn, team_slot, &me, &n) != 0) return -1;
  if (bytes > ((size_t)-1) / (size_t)n) return jshmem_rt_fail("%s: %zu bytes x %d overflow", fn, bytes, n);
  if (coll_range(fn, "dest", dest, bytes * (size_t)n, &doff) != 0 || coll_range(fn, "src", src, bytes, &soff) != 0)
    return -1;
  (void)gpuGetLastError();
  jshmemi_pull_plan p;
  plan_blocks(&p, n, doff, soff, bytes, 0);
  return pull_async(fn, team_slot, me, &p, bytes, blocks, ce_lanes, ce_push ? 0 : -1, (gpuStream_t)stream);
}

/* collect: member i's piece (offsets[i+1] - offsets[i] bytes, from the start of its src) goes to
 * dest + offsets[i]. offsets: a host array of team-size + 1 byte offsets, offsets[0] = 0, not
 * decreasing, the same on every member. */
int jshmem_rt_coll_collect_async(int team_slot, void *dest, const void *src, const size_t *offsets,
                                 int blocks, int ce_lanes, int ce_push, void *stream) {
  const char *fn = "jshmem_rt_coll_collect_async";
  BIND_DEVICE();
  int me = 0, n = 0;
  unsigned long long doff = 0, soff = 0;
  if (coll_team(fn, team_slot, &me, &n) != 0) return -1;
  if (offsets == NULL || offsets[0] != 0) return jshmem_rt_fail("%s: offsets is NULL or offsets[0] != 0", fn);
  jshmemi_pull_plan p;
  unsigned long long piece_max = 0;
  for (int i = 0; i < n; i++) {
    if (offsets[i + 1] < offsets[i])
      return jshmem_rt_fail("%s: offsets[%d] = %zu < offsets[%d] = %zu", fn, i + 1, offsets[i + 1], i, offsets[i]);
    if (offsets[i + 1] - offsets[i] > piece_max) piece_max = offsets[i + 1] - offsets[i];
  }
  if (coll_range(fn, "dest", dest, offsets[n], &doff) != 0 ||
      coll_range(fn, "src", src, offsets[me + 1] - offsets[me], &soff) != 0)
    return -1;
  p.dst_off = doff;
  p.src_off = soff;
  p.src_skip = 0;
  for (int i = 0; i <= n; i++) p.at[i] = offsets[i];
  p.first = 0;
  p.count = n;
  (void)gpuGetLastError();
  return pull_async(fn, team_slot, me, &p, piece_max, blocks, ce_lanes, ce_push ? 0 : -1, (gpuStream_t)stream);
}

/* alltoall: block j (bytes_per_pe) of team PE i's src goes to block i of team PE j's dest. */
int jshmem_rt_coll_alltoall_async(int team_slot, void *dest, const void *src, size_t bytes_per_pe,
                                  int blocks, int ce_lanes, int ce_push, void *stream) {
  const char *fn = "jshmem_rt_coll_alltoall_async";
  BIND_DEVICE();
  int me = 0, n = 0;
  unsigned long long doff = 0, soff = 0;
  if (coll_team(fn, team_slot, &me, &n) != 0) return -1;
  if (bytes_per_pe > ((size_t)-1) / (size_t)n)
    return jshmem_rt_fail("%s: %zu bytes x %d overflow", fn, bytes_per_pe, n);
  size_t all = bytes_per_pe * (size_t)n;
  if (coll_range(fn, "dest", dest, all, &doff) != 0 || coll_range(fn, "src", src, all, &soff) != 0) return -1;
  (void)gpuGetLastError();
  jshmemi_pull_plan p;
  plan_blocks(&p, n, doff, soff, bytes_per_pe, (unsigned long long)me * bytes_per_pe);
  return pull_async(fn, team_slot, me, &p, bytes_per_pe, blocks, ce_lanes,
                    ce_push ? (long long)bytes_per_pe : -1, (gpuStream_t)stream);
}

/* broadcast: dest = team PE root's `bytes` of src on every member; dest == src allowed. */
int jshmem_rt_coll_broadcast_async(int team_slot, void *dest, const void *src, size_t bytes, int root,
                                   int blocks, int ce_lanes, void *stream) {
  const char *fn = "jshmem_rt_coll_broadcast_async";
  BIND_DEVICE();
  int me = 0, n = 0;
  unsigned long long doff = 0, soff = 0;
  if (coll_team(fn, team_slot, &me, &n) != 0) return -1;
  if (root < 0 || root >= n) return jshmem_rt_fail("%s: root %d is not a team PE (0..%d)", fn, root, n - 1);
  if (coll_range(fn, "dest", dest, bytes, &doff) != 0 || coll_range(fn, "src", src, bytes, &soff) != 0) return -1;
  (void)gpuGetLastError();
  jshmemi_pull_plan p;
  p.dst_off = doff;
  p.src_off = soff;
  p.src_skip = 0;
  for (int i = 0; i <= JSHMEM_MAX_PES; i++) p.at[i] = 0;
  p.at[root + 1] = bytes;
  p.first = root;
  p.count = 1;
  return pull_async(fn, team_slot, me, &p, bytes, blocks, ce_lanes, -1, (gpuStream_t)stream);
}

/* Releases the side streams and events of the copy-engine collectives (made on first use). Work
 * queued on them finishes first. */
int jshmem_rt_coll_release(void) {
  BIND_DEVICE();
  pthread_mutex_lock(&jshmemk_side_lock);
  int rc = 0;
  if (jshmemk_side_ready) {
    jshmemk_side_ready = 0;
    for (int j = 0; j < JSHMEMK_SIDE_STREAMS; j++) {
      if (gpuStreamDestroy(jshmemk_side[j]) != gpuSuccess) rc = -1;
      if (gpuEventDestroy(jshmemk_join[j]) != gpuSuccess) rc = -1;
    }
    if (gpuEventDestroy(jshmemk_fork) != gpuSuccess) rc = -1;
  }
  if (jshmemk_rs_events_made) {
    if (gpuEventDestroy(jshmemk_rs_done) != gpuSuccess) rc = -1;
    if (gpuEventDestroy(jshmemk_rs_reduced) != gpuSuccess) rc = -1;
    jshmemk_rs_events_made = 0;
  }
  if (jshmemk_rs_scratch != NULL) {
    if (gpuFree(jshmemk_rs_scratch) != gpuSuccess) rc = -1;
    jshmemk_rs_scratch = NULL;
    jshmemk_rs_capacity = 0;
  }
  pthread_mutex_unlock(&jshmemk_side_lock);
  if (rc != 0) return jshmem_rt_fail("jshmem_rt_coll_release: destroying the side streams or the scratch failed");
  return 0;
}

} /* extern "C" */
