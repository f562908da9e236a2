/*
 * coll_service.cuh - the service kernel: one block that stays on one SM and runs host-called small
 * collectives without a kernel launch per call (JSHMEM_GPU_SERVICE_US; org.jshmem.gpu.GpuService).
 * Included by coll_kernels.cu only (its device state copy, the LL reduction, the reduction dispatch).
 *
 * Why: a host-called collective that launches a kernel and waits for it costs at least a launch and
 * a wait; a resident block answers a posted command in less than half that time.
 *
 * Protocol, through a box in mapped (device-visible pinned) host memory: the host writes the command,
 * then `posted` (the command's number) with release; the block's thread 0 polls `posted` with an
 * acquire at system scope; the block copies the command into shared memory and runs it with the
 * device code of the one-block kernels (so members served by their service kernel and members that
 * launch kernels meet in one protocol); thread 0 then stores `done` = the number with release.
 * One flag word and then the command is faster than a head of words that each carry the flag.
 *
 * Lingering: after linger_ns without a command the kernel returns and leaves its SM, so that a
 * device-wide synchronisation (cudaDeviceSynchronize, cudaFree) waits at most that long; the next
 * post launches it again. A post that races the kernel's return is found by jshmem_rt_service_check
 * (the stream is idle but `done` lags `posted`), which launches the kernel again to serve it.
 * Callers serialise a post and its wait (GpuService); the kernel runs one command at a time.
 */
#ifndef JSHMEMK_COLL_SERVICE_CUH
#define JSHMEMK_COLL_SERVICE_CUH

#include <string.h>
#include <time.h>

/* What a command asks. */
#define JSHMEMK_SERVE_STOP 0      /* return (the kernel ends) */
#define JSHMEMK_SERVE_REDUCE_LL 1 /* the low-latency all-reduce (jshmemk_reduce_ll_block) */
#define JSHMEMK_SERVE_PULL 2      /* a one-block pull collective (jshmemi_pull_block) */

struct jshmemk_service_cmd {
  int kind;
  int slot;
  int dtype;
  int op;
  void *dest;
  const void *src;
  unsigned long long nelems;
  jshmemi_pull_plan plan;
};

/* posted and done a cache line apart (JSHMEM_RT_SERVICE_POSTED / _DONE), the command after them. */
struct jshmemk_service_box {
  unsigned long long posted;
  char pad0[56];
  unsigned long long done;
  char pad1[56];
  jshmemk_service_cmd cmd;
};
static_assert(sizeof(jshmemk_service_cmd) % 8 == 0, "the kernel copies the command in 8-byte words");
static_assert(offsetof(jshmemk_service_box, posted) == JSHMEM_RT_SERVICE_POSTED &&
                  offsetof(jshmemk_service_box, done) == JSHMEM_RT_SERVICE_DONE,
              "the box's layout is shim.h's");

/* Runs the LL all-reduce of a command for its element type and operation. */
struct jshmemk_serve_ll {
  const jshmemk_service_cmd *c;

  template <typename E, int OP>
  __device__ int run() const {
    jshmemk_reduce_ll_block<E, OP>(c->slot, c->dest, c->src, c->nelems);
    return 0;
  }
};

/* Serves the commands after number `seq` until STOP or linger_ns without one. */
__global__ void __launch_bounds__(JSHMEMK_COLL_THREADS, 1)
    jshmemk_service(jshmemk_service_box *box, unsigned long long seq, unsigned long long linger_ns) {
  __shared__ jshmemk_service_cmd cmd;
  __shared__ unsigned long long next;
  for (;;) {
    if (threadIdx.x == 0) {
      unsigned long long p, since = jshmemi_now_ns();
      while ((p = jshmemi_ld_acquire_sys(&box->posted)) == seq && jshmemi_now_ns() - since < linger_ns) {
      }
      next = p;
    }
    __syncthreads();
    const unsigned long long p = next;
    if (p == seq) return; /* idle for linger_ns: leave the SM */
    jshmemi_group_acquire_fence();
    const volatile unsigned long long *from = (const volatile unsigned long long *)&box->cmd;
    for (unsigned i = threadIdx.x; i < sizeof(cmd) / 8; i += blockDim.x) ((unsigned long long *)&cmd)[i] = from[i];
    __syncthreads();
    if (cmd.kind == JSHMEMK_SERVE_REDUCE_LL)
      (void)jshmemk_with_reduction(cmd.dtype, cmd.op, jshmemk_serve_ll{&cmd});
    else if (cmd.kind == JSHMEMK_SERVE_PULL)
      jshmemi_pull_block(JSHMEMK_COLL_FN, cmd.slot, cmd.plan);
    jshmemi_group_release_fence();
    __syncthreads();
    if (threadIdx.x == 0) jshmemi_st_release_sys(&box->done, p); /* after every thread's stores */
    if (cmd.kind == JSHMEMK_SERVE_STOP) return;
    seq = p;
  }
}

/* ---- host side ----------------------------------------------------------------------------- */

static struct {
  jshmemk_service_box *box;         /* mapped pinned host memory, the same address on the device; NULL: no service */
  gpuStream_t st;                   /* the kernel's own stream */
  unsigned long long linger_ns;
  int launched;                     /* a kernel was launched that may not have returned */
  unsigned long long alive_until;   /* host time (ns) before which a launched kernel cannot have returned */
} jshmemk_svc;

static unsigned long long host_now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (unsigned long long)t.tv_sec * 1000000000ull + (unsigned long long)t.tv_nsec;
}

/* Whether `st` is the service's stream: the caller asks for its call to be served. */
static bool jshmemk_served(gpuStream_t st) {
  return jshmemk_svc.box != NULL && st == jshmemk_svc.st;
}

/* *ended = whether the kernel has returned (its stream is idle); -1 when the stream failed. */
static int service_ended(int *ended) {
  gpuError_t e = gpuStreamQuery(jshmemk_svc.st);
  if (e == gpuErrorNotReady) {
    (void)gpuGetLastError();
    *ended = 0;
    return 0;
  }
  GPU_TRY(e);
  *ended = 1;
  return 0;
}

/* Launches the kernel to serve the commands after the last one done. */
static int service_launch(void) {
  unsigned long long from = __atomic_load_n(&jshmemk_svc.box->done, __ATOMIC_ACQUIRE);
  if (jshmemk_launch<jshmemk_service>("jshmemk_service", 1, JSHMEMK_COLL_THREADS, jshmemk_svc.st, false,
                                      jshmemk_svc.box, from, jshmemk_svc.linger_ns) != 0)
    return -1;
  jshmemk_svc.launched = 1;
  return 0;
}

/* Writes command c into the box, then its number (posted + 1) with release. */
static void service_write(const jshmemk_service_cmd *c) {
  memcpy((void *)&jshmemk_svc.box->cmd, c, sizeof *c);
  __atomic_store_n(&jshmemk_svc.box->posted, jshmemk_svc.box->posted + 1, __ATOMIC_RELEASE);
}

/* Posts a command (its number: box->posted) and launches the kernel if it is not running. */
static int service_post(const jshmemk_service_cmd *c) {
  if (jshmemk_svc.launched && host_now_ns() >= jshmemk_svc.alive_until) {
    int ended = 0;
    if (service_ended(&ended) != 0) return -1;
    if (ended) jshmemk_svc.launched = 0;
  }
  service_write(c);
  if (!jshmemk_svc.launched && service_launch() != 0) return -1;
  /* the kernel lingers from the end of this command on, which comes after now */
  jshmemk_svc.alive_until = host_now_ns() + jshmemk_svc.linger_ns / 2;
  return 0;
}

/* Posts an LL all-reduce for its element type and operation (the dispatch checks the pair). */
struct jshmemk_post_ll {
  const jshmemk_service_cmd *c;

  template <typename E, int OP>
  int run() const {
    return service_post(c);
  }
};

/* A command of `kind` for the team in `slot`, its other fields zero. */
static jshmemk_service_cmd service_cmd(int kind, int slot) {
  jshmemk_service_cmd c;
  memset(&c, 0, sizeof c);
  c.kind = kind;
  c.slot = slot;
  return c;
}

static int service_reduce_ll(const char *fn, int slot, int dtype, int op, void *dest, const void *src,
                             size_t nelems, int n, int shape) {
  if (n < 2 || shape != JSHMEM_RT_REDUCE_LOW_LATENCY)
    return jshmem_rt_fail("%s: the service kernel runs low-latency reductions of 2 or more PEs, not shape %d on"
                          " %d PE(s): pass another stream", fn, shape, n);
  jshmemk_service_cmd c = service_cmd(JSHMEMK_SERVE_REDUCE_LL, slot);
  c.dtype = dtype;
  c.op = op;
  c.dest = dest;
  c.src = src;
  c.nelems = nelems;
  return jshmemk_with_reduction(dtype, op, jshmemk_post_ll{&c});
}

static int service_pull(const char *fn, int slot, const jshmemi_pull_plan *p, int blocks, int ce_lanes) {
  if (blocks > 0 || ce_lanes != 0)
    return jshmem_rt_fail("%s: the service kernel runs one-block collectives, not %d blocks or %d copy-engine"
                          " lanes: pass another stream", fn, blocks, ce_lanes);
  jshmemk_service_cmd c = service_cmd(JSHMEMK_SERVE_PULL, slot);
  c.plan = *p;
  return service_post(&c);
}

/* Ends the kernel if it runs (a STOP command, then a wait for its stream). */
static int service_stop(void) {
  if (!jshmemk_svc.launched) return 0;
  int ended = 0;
  if (service_ended(&ended) != 0) return -1;
  if (!ended) {
    jshmemk_service_cmd c = service_cmd(JSHMEMK_SERVE_STOP, 0);
    service_write(&c);
    GPU_TRY(gpuStreamSynchronize(jshmemk_svc.st));
  }
  jshmemk_svc.launched = 0;
  return 0;
}

extern "C" {

/* Opens this process's service: *box = the mapped box (posted at JSHMEM_RT_SERVICE_POSTED, done at
 * JSHMEM_RT_SERVICE_DONE: the command is served when done == posted), *stream = the stream to pass to
 * the collectives it serves (jshmem_rt_coll_reduce_async's LL shape, the one-block pull collectives).
 * The kernel starts with the first command and returns after linger_us without one. */
int jshmem_rt_service_open(unsigned long long linger_us, void **box, void **stream) {
  const char *fn = "jshmem_rt_service_open";
  BIND_DEVICE();
  if (box == NULL || stream == NULL) return jshmem_rt_fail("%s: NULL out-pointer", fn);
  if (jshmemk_svc.box != NULL) return jshmem_rt_fail("%s: the service is open already", fn);
  if (linger_us == 0 || linger_us > 60000000ull)
    return jshmem_rt_fail("%s: linger of %llu us, give 1 to 60000000", fn, linger_us);
  void *host = NULL, *st = NULL;
  if (jshmem_rt_host_alloc(sizeof(jshmemk_service_box), &host) != 0) return -1;
  if (jshmem_rt_stream_create(&st) != 0) {
    (void)jshmem_rt_host_free(host); /* the stream's failure is the message */
    return -1;
  }
  memset(host, 0, sizeof(jshmemk_service_box));
  jshmemk_svc.box = (jshmemk_service_box *)host;
  jshmemk_svc.st = (gpuStream_t)st;
  jshmemk_svc.linger_ns = linger_us * 1000ull;
  jshmemk_svc.launched = 0;
  *box = host;
  *stream = st;
  return 0;
}

/* Called while a command is waited for: -1 if the kernel's stream failed (a fault); launches the
 * kernel again if it returned before it saw the command (a post that raced its linger's end). */
int jshmem_rt_service_check(void) {
  BIND_DEVICE();
  if (jshmemk_svc.box == NULL) return jshmem_rt_fail("jshmem_rt_service_check: the service is not open");
  int ended = 0;
  if (jshmemk_svc.launched && service_ended(&ended) != 0) return -1;
  if (!jshmemk_svc.launched || ended) {
    jshmemk_svc.launched = 0;
    if (__atomic_load_n(&jshmemk_svc.box->done, __ATOMIC_ACQUIRE) != jshmemk_svc.box->posted)
      return service_launch();
  }
  return 0;
}

/* Ends the kernel (it is launched again by the next command): before a wait for the whole device. */
int jshmem_rt_service_stop(void) {
  BIND_DEVICE();
  if (jshmemk_svc.box == NULL) return 0;
  return service_stop();
}

/* Ends the kernel and releases the box and the stream. */
int jshmem_rt_service_close(void) {
  BIND_DEVICE();
  if (jshmemk_svc.box == NULL) return 0;
  if (service_stop() != 0) return -1;
  if (jshmem_rt_stream_destroy(jshmemk_svc.st) != 0 || jshmem_rt_host_free(jshmemk_svc.box) != 0) return -1;
  memset(&jshmemk_svc, 0, sizeof jshmemk_svc);
  return 0;
}

} /* extern "C" */

#endif /* JSHMEMK_COLL_SERVICE_CUH */
