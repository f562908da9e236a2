/*
 * nvlink_micro.cu - what limits issue 19's small-operation rows, measured without jshmem: one
 * process drives two GPUs with peer access (as two PEs would over NVLink). Build:
 *   nvcc -O3 -std=c++17 -arch=sm_90a -o nvlink_micro nvlink_micro.cu
 * A. put_signal ping-pong (8 B), one block of 128 threads per GPU as perf_pingpong_signal, with the
 *    data-to-signal ordering done six ways (one-way latency, us).
 * B. barrier on a stream, back to back (us each): a one-block kernel (as jshmemk_team_sync at a
 *    boundary) against stream memory operations (write the peer's cell, wait for one's own).
 * C. a host-called 8-byte put + stream sync to the peer (us): copy engine, a one-thread kernel,
 *    cuStreamWriteValue64 (the value known on the host).
 * D. an on-stream put of 1 MB to the peer, back to back (GB/s): copy engine, SM kernels.
 * E. the launch floor: empty one-block kernels back to back on GPU 0 from one thread, plainly and
 *    chained (programmatic dependent launch); `nvlink_micro E` runs this part alone.
 * F. whether a stream write reaches a flag that a running kernel spins on (a host p releasing a
 *    kernel): the kernel on one stream, the write on another, on the kernel's GPU and from the peer
 *    GPU; 5 s allowed each. `nvlink_micro F` runs this part alone.
 */
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#include <chrono>
#include <functional>
#include <thread>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

#define CK(x)                                                                         \
  do {                                                                                \
    cudaError_t e_ = (x);                                                             \
    if (e_ != cudaSuccess) {                                                          \
      fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      exit(1);                                                                        \
    }                                                                                 \
  } while (0)
#define DK(x)                                                          \
  do {                                                                 \
    CUresult r_ = (x);                                                 \
    if (r_ != CUDA_SUCCESS) {                                          \
      fprintf(stderr, "%s:%d %s: %d\n", __FILE__, __LINE__, #x, (int)r_); \
      exit(1);                                                         \
    }                                                                  \
  } while (0)

static PFN_cuStreamWriteValue64_v11070 writeValue64;
static PFN_cuStreamWaitValue64_v11070 waitValue64;
static PFN_cuStreamBatchMemOp_v11070 batchMemOp;

template <class F>
static void entry(const char *name, F *slot) {
  cudaDriverEntryPointQueryResult q;
  CK(cudaGetDriverEntryPointByVersion(name, (void **)slot, 12000, cudaEnableDefault, &q));
  if (q != cudaDriverEntryPointSuccess) {
    fprintf(stderr, "no %s\n", name);
    exit(1);
  }
}

static double now_us() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/* ---- A. put_signal ordering variants ---- */
__device__ __forceinline__ unsigned long long ld_acq(const unsigned long long *p) {
  unsigned long long v;
  asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
template <int V>
__device__ __forceinline__ void send(unsigned long long *data, unsigned long long *sig, unsigned long long i) {
  if (V == 6) { /* floor: data and signal in one 16-byte store (they are adjacent) */
    asm volatile("st.relaxed.sys.global.v2.u64 [%0], {%1, %2};" ::"l"(data), "l"(i), "l"(i) : "memory");
    return;
  }
  asm volatile("st.relaxed.sys.global.u64 [%0], %1;" ::"l"(data), "l"(i) : "memory");
  if (V == 0) asm volatile("st.release.sys.global.u64 [%0], %1;" ::"l"(sig), "l"(i) : "memory");
  if (V == 1) asm volatile("fence.acq_rel.sys;\nst.relaxed.sys.global.u64 [%0], %1;" ::"l"(sig), "l"(i) : "memory");
  if (V == 2) asm volatile("fence.sc.sys;\nst.relaxed.sys.global.u64 [%0], %1;" ::"l"(sig), "l"(i) : "memory");
  if (V == 3) asm volatile("fence.acq_rel.gpu;\nst.relaxed.sys.global.u64 [%0], %1;" ::"l"(sig), "l"(i) : "memory");
  if (V == 4) asm volatile("red.release.sys.global.add.u64 [%0], 1;" ::"l"(sig) : "memory");
  if (V == 5) asm volatile("st.relaxed.sys.global.u64 [%0], %1;" ::"l"(sig), "l"(i) : "memory"); /* unordered */
}
template <int V>
__global__ void pingpong(unsigned long long *peer_data, unsigned long long *peer_sig, const unsigned long long *my_sig,
                         int iters, int first) {
  for (int i = 1; i <= iters; i++) {
    if (!first) {
      if (threadIdx.x == 0)
        while (ld_acq(my_sig) < (unsigned long long)i) {
        }
      __syncthreads();
    }
    __syncthreads();
    if (threadIdx.x == 0) send<V>(peer_data, peer_sig, (unsigned long long)i);
    if (first) {
      if (threadIdx.x == 0)
        while (ld_acq(my_sig) < (unsigned long long)i) {
        }
      __syncthreads();
    }
  }
}

/* ---- B. kernel barrier: publish relaxed, poll relaxed (a stream boundary: nothing else to order) ---- */
__device__ __noinline__ void kbarrier_body(unsigned long long *peer_cell, const unsigned long long *my_cell, unsigned long long *gen) {
  if (threadIdx.x != 0) return;
  unsigned long long g = *gen + 1;
  *gen = g;
  asm volatile("st.relaxed.sys.global.u64 [%0], %1;" ::"l"(peer_cell), "l"(g) : "memory");
  unsigned long long v;
  do {
    asm volatile("ld.relaxed.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(my_cell) : "memory");
  } while (v < g);
}

__global__ void kbarrier(unsigned long long *peer_cell, const unsigned long long *my_cell, unsigned long long *gen) {
  kbarrier_body(peer_cell, my_cell, gen);
}
/* the same, launched chained: waits for the previous kernel of the stream first */
__global__ void kbarrier_pdl(unsigned long long *peer_cell, const unsigned long long *my_cell, unsigned long long *gen) {
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
  kbarrier_body(peer_cell, my_cell, gen);
}
__global__ void empty() {}

/* ---- C, D. SM copies ---- */
__global__ void copy8(unsigned long long *dst, const unsigned long long *src) { *dst = *src; }
__global__ void copy_sm(int4 *dst, const int4 *src, size_t n) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    dst[i] = src[i];
}

struct Gpu {
  cudaStream_t s;
  unsigned long long *cells; /* [0] data, [1] sig (adjacent: variant 6), [16] barrier cell, [32] gen */
  char *buf;
};

static void launch_floor(cudaStream_t s) {
  const int n = 20000;
  for (int chained = 0; chained < 2; chained++)
    for (int rep = 0; rep < 3; rep++) {
      cudaLaunchAttribute attr;
      attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
      attr.val.programmaticStreamSerializationAllowed = 1;
      cudaLaunchConfig_t cfg = {};
      cfg.gridDim = dim3(1);
      cfg.blockDim = dim3(32);
      cfg.stream = s;
      cfg.attrs = &attr;
      cfg.numAttrs = chained;
      CK(cudaStreamSynchronize(s));
      double t0 = now_us();
      for (int i = 0; i < n; i++) CK(cudaLaunchKernelEx(&cfg, empty));
      double enqueued = now_us() - t0;
      CK(cudaStreamSynchronize(s));
      printf("E empty kernels on GPU 0, one thread, %s: %.3f us each (enqueue alone %.3f us)\n",
             chained ? "chained" : "plain  ", (now_us() - t0) / n, enqueued / n);
    }
}

__global__ void spin_until(const unsigned long long *flag, unsigned long long v) {
  while (ld_acq(flag) < v) {
  }
}

/* F: spin on GPU `spin_dev`'s flag; write it from a stream of GPU `write_dev`. */
static void released_by_write(int spin_dev, int write_dev, const char *what) {
  unsigned long long *flag;
  cudaStream_t ks, ws;
  CK(cudaSetDevice(spin_dev));
  CK(cudaMalloc(&flag, 8));
  CK(cudaMemset(flag, 0, 8));
  CK(cudaDeviceSynchronize());
  CK(cudaStreamCreateWithFlags(&ks, cudaStreamNonBlocking));
  spin_until<<<1, 1, 0, ks>>>(flag, 1);
  CK(cudaSetDevice(write_dev));
  CK(cudaStreamCreateWithFlags(&ws, cudaStreamNonBlocking));
  double t0 = now_us();
  DK(writeValue64((CUstream)ws, (CUdeviceptr)flag, 1, CU_STREAM_WRITE_VALUE_DEFAULT));
  CK(cudaStreamSynchronize(ws));
  double written = now_us() - t0;
  CK(cudaSetDevice(spin_dev));
  while (cudaStreamQuery(ks) == cudaErrorNotReady) {
    if (now_us() - t0 > 5e6) {
      printf("F %s: HANG (the write %s after %.1f us; the kernel still spins after 5 s)\n", what,
             written < 5e6 ? "completed" : "did not complete", written);
      fflush(stdout);
      _exit(2);
    }
  }
  printf("F %s: released after %.1f us (the write's stream synchronised after %.1f us)\n", what, now_us() - t0, written);
}

int main(int argc, char **argv) {
  if (argc > 1 && argv[1][0] == 'F') {
    entry("cuStreamWriteValue64", &writeValue64);
    for (int d = 0; d < 2; d++) {
      CK(cudaSetDevice(d));
      CK(cudaDeviceEnablePeerAccess(1 - d, 0));
    }
    released_by_write(0, 0, "kernel and write on GPU 0");
    released_by_write(1, 0, "kernel on GPU 1, write from GPU 0");
    return 0;
  }
  if (argc > 1 && argv[1][0] == 'E') {
    cudaStream_t s;
    CK(cudaSetDevice(0));
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    launch_floor(s);
    return 0;
  }
  entry("cuStreamWriteValue64", &writeValue64);
  entry("cuStreamWaitValue64", &waitValue64);
  entry("cuStreamBatchMemOp", &batchMemOp);
  Gpu g[2];
  const size_t MB = 1 << 20;
  for (int d = 0; d < 2; d++) {
    CK(cudaSetDevice(d));
    CK(cudaDeviceEnablePeerAccess(1 - d, 0));
    CK(cudaStreamCreateWithFlags(&g[d].s, cudaStreamNonBlocking));
    CK(cudaMalloc(&g[d].cells, 4096));
    CK(cudaMemset(g[d].cells, 0, 4096));
    CK(cudaMalloc(&g[d].buf, 2 * MB));
    CK(cudaMemset(g[d].buf, 1, 2 * MB));
    CK(cudaDeviceSynchronize());
  }
  auto sync_both = [&] {
    for (int d = 0; d < 2; d++) {
      CK(cudaSetDevice(d));
      CK(cudaStreamSynchronize(g[d].s));
    }
  };
  auto reset = [&] {
    for (int d = 0; d < 2; d++) {
      CK(cudaSetDevice(d));
      CK(cudaMemset(g[d].cells, 0, 4096));
      CK(cudaDeviceSynchronize());
    }
  };

  /* A */
  const int iters = 20000;
  auto run_pp = [&](const char *name, auto kernel) {
    for (int rep = 0; rep < 3; rep++) {
      reset();
      double t0 = now_us();
      for (int d = 1; d >= 0; d--) {
        CK(cudaSetDevice(d));
        kernel<<<1, 128, 0, g[d].s>>>(g[1 - d].cells, g[1 - d].cells + 1, g[d].cells + 1, iters, d == 0);
        CK(cudaGetLastError());
      }
      sync_both();
      printf("A put_signal 8B %-34s one way %.3f us\n", name, (now_us() - t0) / iters / 2);
    }
  };
  run_pp("V0 st.release.sys (jshmem now)", pingpong<0>);
  run_pp("V1 fence.acq_rel.sys + st.relaxed", pingpong<1>);
  run_pp("V2 fence.sc.sys + st.relaxed", pingpong<2>);
  run_pp("V3 fence.acq_rel.gpu + st (unsafe)", pingpong<3>);
  run_pp("V4 red.release.sys.add", pingpong<4>);
  run_pp("V5 no ordering (unsafe)", pingpong<5>);
  run_pp("V6 one 16 B store (LL floor)", pingpong<6>);

  /* B: each GPU's stream is fed by a thread of its own, as each PE's process feeds its own */
  const int nb = 2000;
  auto both = [&](const char *name, std::function<void(int, int)> step) {
    for (int rep = 0; rep < 3; rep++) {
      reset();
      double t0 = now_us();
      std::thread t[2];
      for (int d = 0; d < 2; d++)
        t[d] = std::thread([&, d] {
          CK(cudaSetDevice(d));
          for (int i = 1; i <= nb; i++) step(d, i);
          CK(cudaStreamSynchronize(g[d].s));
        });
      for (auto &x : t) x.join();
      printf("B barrier %-36s %.3f us each\n", name, (now_us() - t0) / nb);
    }
  };
  both("kernel, back to back", [&](int d, int) {
    kbarrier<<<1, 32, 0, g[d].s>>>(g[1 - d].cells + 16, g[d].cells + 16, g[d].cells + 32);
  });
  both("memops write + wait", [&](int d, int i) {
    DK(writeValue64((CUstream)g[d].s, (CUdeviceptr)(g[1 - d].cells + 16), i, CU_STREAM_WRITE_VALUE_DEFAULT));
    DK(waitValue64((CUstream)g[d].s, (CUdeviceptr)(g[d].cells + 16), i, CU_STREAM_WAIT_VALUE_GEQ));
  });
  both("kernel, programmatic dependent launch", [&](int d, int) {
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(1);
    cfg.blockDim = dim3(32);
    cfg.stream = g[d].s;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    CK(cudaLaunchKernelEx(&cfg, kbarrier_pdl, g[1 - d].cells + 16, (const unsigned long long *)(g[d].cells + 16),
                          g[d].cells + 32));
  });
  both("(no barrier: empty kernels)", [&](int d, int) { empty<<<1, 32, 0, g[d].s>>>(); });
  both("memops, one batch", [&](int d, int i) {
    CUstreamBatchMemOpParams ops[2] = {};
    ops[0].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_64;
    ops[0].writeValue.address = (CUdeviceptr)(g[1 - d].cells + 16);
    ops[0].writeValue.value64 = i;
    ops[1].waitValue.operation = CU_STREAM_MEM_OP_WAIT_VALUE_64;
    ops[1].waitValue.address = (CUdeviceptr)(g[d].cells + 16);
    ops[1].waitValue.value64 = i;
    ops[1].waitValue.flags = CU_STREAM_WAIT_VALUE_GEQ;
    DK(batchMemOp((CUstream)g[d].s, 2, ops, 0));
  });

  /* C */
  CK(cudaSetDevice(0));
  unsigned long long *pinned;
  CK(cudaHostAlloc(&pinned, 64, cudaHostAllocDefault));
  const int nc = 5000;
  for (int rep = 0; rep < 2; rep++) {
    double t0 = now_us();
    for (int i = 0; i < nc; i++) {
      CK(cudaMemcpyAsync(g[1].cells + 40, g[0].cells + 40, 8, cudaMemcpyDeviceToDevice, g[0].s));
      CK(cudaStreamSynchronize(g[0].s));
    }
    printf("C put 8 B D2D peer, copy engine + sync       %.3f us\n", (now_us() - t0) / nc);
    t0 = now_us();
    for (int i = 0; i < nc; i++) {
      copy8<<<1, 1, 0, g[0].s>>>(g[1].cells + 40, g[0].cells + 40);
      CK(cudaStreamSynchronize(g[0].s));
    }
    printf("C put 8 B D2D peer, one-thread kernel + sync %.3f us\n", (now_us() - t0) / nc);
    t0 = now_us();
    for (int i = 0; i < nc; i++) {
      DK(writeValue64((CUstream)g[0].s, (CUdeviceptr)(g[1].cells + 40), i, CU_STREAM_WRITE_VALUE_DEFAULT));
      CK(cudaStreamSynchronize(g[0].s));
    }
    printf("C put 8 B H2D peer, cuStreamWriteValue64 + sync %.3f us\n", (now_us() - t0) / nc);
    t0 = now_us();
    for (int i = 0; i < nc; i++) {
      CK(cudaMemcpyAsync(g[1].cells + 40, pinned, 8, cudaMemcpyHostToDevice, g[0].s));
      CK(cudaStreamSynchronize(g[0].s));
    }
    printf("C put 8 B H2D peer (pinned), copy engine + sync %.3f us\n", (now_us() - t0) / nc);
    t0 = now_us();
    for (int i = 0; i < nc; i++) CK(cudaStreamSynchronize(g[0].s));
    printf("C empty stream sync                          %.3f us\n", (now_us() - t0) / nc);
  }

  /* D */
  const int nd = 200;
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  for (int rep = 0; rep < 2; rep++) {
    for (int blocks : {0, 16, 32, 64, 132}) {
      CK(cudaEventRecord(e0, g[0].s));
      for (int i = 0; i < nd; i++) {
        if (blocks == 0)
          CK(cudaMemcpyAsync(g[1].buf, g[0].buf, MB, cudaMemcpyDeviceToDevice, g[0].s));
        else
          copy_sm<<<blocks, 1024, 0, g[0].s>>>((int4 *)g[1].buf, (const int4 *)g[0].buf, MB / 16);
      }
      CK(cudaEventRecord(e1, g[0].s));
      CK(cudaEventSynchronize(e1));
      float ms;
      CK(cudaEventElapsedTime(&ms, e0, e1));
      printf("D on-stream put 1 MB, %-14s %d: %.1f GB/s\n", blocks ? "SM kernel blocks" : "copy engine", blocks,
             (double)MB * nd / (ms * 1e-3) / 1e9);
    }
  }
  printf("done\n");
  return 0;
}
