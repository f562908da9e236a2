// host_service_probe.cu - what a host-called small collective could cost without a kernel launch per call (issue 19's
// row: a host-called 1 KB all-reduce in at most 8 us; a launch and a wait alone cost 8.1-9.6 us on the 2 x H200 guest).
// One process. For each way, 20000 calls after 3000 untimed ones, p10/p50/p90/p99 of the host's time per call:
//   launch+sync      an empty one-block kernel launched, then cudaStreamSynchronize (the floor of today's path)
//   launch+flag      a one-block kernel that stores a flag into mapped host memory at its end, the host spinning on it
//   service          a resident one-block kernel, started once, polls a command word in mapped host memory, sums
//                    `npe` sources of 1 KB (fp32) into its destination, then stores its done word into mapped host
//                    memory; the host stores the command and spins on the done word
//   service xN       N such kernels ("PEs" on this GPU, or one per GPU when there are several), each waiting for the
//                    others' ready flags in device memory before it reads their sources, as a collective would
//   launch+sync beside the service   the first way again while a resident kernel polls its (idle) command word:
//                    whether a resident kernel slows other work's launches
// Build: nvcc -O3 -std=c++17 -arch=sm_90 -o host_service host_service_probe.cu      Run: ./host_service [nsleep]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

constexpr int ELEMS = 256;   // 1 KB of fp32
constexpr int MAXPE = 4;
constexpr unsigned STOP = 0xffffffffu;

struct Pe {
  const float *src[MAXPE];   // every member's source (this one's first is its own)
  float *dst;
  unsigned *ready[MAXPE];    // member p's ready word for this kernel (device memory of member p's GPU)
  int me, npe;
};

__device__ __forceinline__ unsigned ld_acquire_sys(const unsigned *p) {
  unsigned v;
  asm volatile("ld.acquire.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void st_release_sys(unsigned *p, unsigned v) {
  asm volatile("st.release.sys.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

__global__ void empty_kernel() {}
__global__ void flag_kernel(unsigned *flag, unsigned v) {
  if (threadIdx.x == 0) st_release_sys(flag, v);
}

// The resident kernel: one block of ELEMS threads, one command after the other until STOP.
__global__ void service(const unsigned *cmd, unsigned *done, Pe pe, int nsleep) {
  __shared__ unsigned next;
  unsigned seq = 0;
  for (;;) {
    if (threadIdx.x == 0) {
      unsigned c;
      while ((c = ld_acquire_sys(cmd)) == seq) {
        if (nsleep > 0) __nanosleep(nsleep);
      }
      next = c;
    }
    __syncthreads();
    unsigned c = next;
    if (c == STOP) return;
    seq = c;
    if (pe.npe > 1) {   // entry: every member's source is ready (a real collective also syncs at exit)
      if (threadIdx.x < pe.npe && threadIdx.x != pe.me) st_release_sys(pe.ready[threadIdx.x] + pe.me, seq);
      if (threadIdx.x < pe.npe && threadIdx.x != pe.me) {
        while (ld_acquire_sys(pe.ready[pe.me] + threadIdx.x) != seq) {
        }
      }
      __syncthreads();
    }
    float s = 0;
    for (int p = 0; p < pe.npe; p++) s += pe.src[p][threadIdx.x];
    pe.dst[threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.x == 0) st_release_sys(done, seq);   // release.sys: the sums are visible before the word
  }
}

static double now_us() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

template <class F>
static void measure(const char *name, F f) {
  const int n = 20000;
  std::vector<double> t(n);
  for (int i = 0; i < 3000; i++) f(i);
  for (int i = 0; i < n; i++) {
    double t0 = now_us();
    f(3000 + i);
    t[i] = now_us() - t0;
  }
  std::sort(t.begin(), t.end());
  printf("%-44s p10 %6.2f p50 %6.2f p90 %6.2f p99 %6.2f us\n", name, t[n / 10], t[n / 2], t[n * 9 / 10], t[n * 99 / 100]);
  fflush(stdout);
}

static void host_store(unsigned *p, unsigned v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
static unsigned host_load(const unsigned *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }

struct Served {
  int npe = 0;
  unsigned *words = nullptr;   // mapped host memory: cmd and done of every member, a cache line apart
  unsigned *dwords = nullptr;
  cudaStream_t st[MAXPE];
  float *dsts[MAXPE];
  unsigned *cmd(int p) { return words + p * 32; }
  unsigned *done(int p) { return words + p * 32 + 16; }

  // One resident kernel per member; member p on GPU p % gpus.
  void start(int n, int gpus, int nsleep) {
    npe = n;
    CK(cudaSetDevice(0));
    CK(cudaHostAlloc(&words, MAXPE * 128, cudaHostAllocMapped | cudaHostAllocPortable));
    for (int i = 0; i < MAXPE * 32; i++) words[i] = 0;
    CK(cudaHostGetDevicePointer(&dwords, words, 0));
    float *src[MAXPE], *dst[MAXPE];
    unsigned *ready[MAXPE];
    for (int p = 0; p < n; p++) {
      CK(cudaSetDevice(p % gpus));
      CK(cudaMalloc(&src[p], ELEMS * sizeof(float)));
      CK(cudaMalloc(&dst[p], ELEMS * sizeof(float)));
      dsts[p] = dst[p];
      CK(cudaMalloc(&ready[p], MAXPE * sizeof(unsigned)));
      CK(cudaMemset(ready[p], 0, MAXPE * sizeof(unsigned)));
      std::vector<float> h(ELEMS, float(p + 1));
      CK(cudaMemcpy(src[p], h.data(), ELEMS * sizeof(float), cudaMemcpyHostToDevice));
      CK(cudaStreamCreateWithFlags(&st[p], cudaStreamNonBlocking));
    }
    for (int p = 0; p < n; p++) {
      CK(cudaSetDevice(p % gpus));
      Pe pe{};
      pe.me = p;
      pe.npe = n;
      pe.dst = dst[p];
      for (int q = 0; q < n; q++) {
        pe.src[q] = src[q];
        pe.ready[q] = ready[q];
      }
      service<<<1, ELEMS, 0, st[p]>>>(dwords + p * 32, dwords + p * 32 + 16, pe, nsleep);
      CK(cudaGetLastError());
    }
  }
  void call(unsigned seq) {
    for (int p = 0; p < npe; p++) host_store(cmd(p), seq);
    for (int p = 0; p < npe; p++)
      while (host_load(done(p)) != seq) {
      }
  }
  void stop() {
    for (int p = 0; p < npe; p++) host_store(cmd(p), STOP);
    for (int p = 0; p < npe; p++) {
      CK(cudaStreamSynchronize(st[p]));
      std::vector<float> h(ELEMS);
      CK(cudaMemcpy(h.data(), dsts[p], ELEMS * sizeof(float), cudaMemcpyDeviceToHost));
      float want = npe * (npe + 1) / 2.0f;
      for (float v : h)
        if (v != want) { printf("member %d: sum %g, expected %g\n", p, v, want); exit(1); }
    }
    CK(cudaFreeHost(words));
  }
};

int main(int argc, char **argv) {
  int nsleep = argc > 1 ? atoi(argv[1]) : 0;
  int gpus = 0;
  CK(cudaGetDeviceCount(&gpus));
  for (int a = 0; a < gpus; a++)
    for (int b = 0; b < gpus; b++)
      if (a != b) {
        CK(cudaSetDevice(a));
        cudaDeviceEnablePeerAccess(b, 0);
      }
  cudaGetLastError();
  printf("GPUs: %d, resident kernel's poll sleep: %d ns\n", gpus, nsleep);
  CK(cudaSetDevice(0));
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  unsigned *hflag, *dflag;
  CK(cudaHostAlloc(&hflag, 64, cudaHostAllocMapped));
  CK(cudaHostGetDevicePointer(&dflag, hflag, 0));
  *hflag = 0;
  auto launch_sync = [&](int) {
    empty_kernel<<<1, 32, 0, s>>>();
    CK(cudaStreamSynchronize(s));
  };
  measure("launch+sync", launch_sync);
  measure("launch+flag", [&](int i) {
    flag_kernel<<<1, 32, 0, s>>>(dflag, (unsigned)i + 1);
    while (host_load(hflag) != (unsigned)i + 1) {
    }
  });
  CK(cudaStreamSynchronize(s));
  for (int n : {1, 2}) {
    Served sv;
    sv.start(n, n <= gpus ? n : 1, nsleep);
    char name[64];
    snprintf(name, sizeof name, "service x%d (%s)", n, n == 1 ? "1 GPU" : n <= gpus ? "a GPU each" : "one GPU");
    measure(name, [&](int i) { sv.call((unsigned)i + 1); });
    if (n == 1) {
      CK(cudaSetDevice(0));
      measure("launch+sync beside the idle service", launch_sync);
    }
    sv.stop();
  }
  CK(cudaSetDevice(0));
  measure("launch+sync after the service stopped", launch_sync);
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
