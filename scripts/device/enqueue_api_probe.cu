// enqueue_api_probe.cu - the host's cost of queuing work on a stream, by API, on one CPU at a time. A small on-stream
// put between GPUs is bound by the host's enqueue (host_path_probe.cu: 1.7-3.2 us a call on the 2 x H200 VM,
// depending on the CPU and the moment), so a cheaper call would raise it. One process, GPU 0 writing into GPU 1
// (peer access), a non-blocking stream, the main thread pinned to each CPU given. Each repetition runs every
// variant once, 200 calls each, in turn (the CPU's speed drifts, so the variants share it); then the stream is
// drained. Host microseconds per call, medians of 9 repetitions after a warm-up:
//   copies of `size` bytes: cudaMemcpyAsync (Default, DeviceToDevice), cudaMemcpyPeerAsync, cuMemcpyDtoDAsync,
//   cuMemcpyAsync; an empty one-block kernel: <<<>>>, cudaLaunchKernel, cuLaunchKernel; cuStreamWriteValue64 into
//   the peer; cuStreamBatchMemOp of a write into the peer and a wait on local memory (a barrier's two halves).
// Build: nvcc -O2 -arch=sm_90 -o enqueue_api enqueue_api_probe.cu -lcuda      Run: ./enqueue_api [size] [cpu ...]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <sched.h>
#include <vector>
#include <cuda.h>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(err_)); exit(1); } } while (0)
#define CD(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char *m_; cuGetErrorString(r_, &m_); printf("%s: %s\n", #x, m_); exit(1); } } while (0)

__global__ void empty() {}

static double now_us() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

int main(int argc, char **argv) {
  size_t size = argc > 1 ? strtoul(argv[1], nullptr, 0) : 4096;
  std::vector<int> cpus;
  for (int i = 2; i < argc; i++) cpus.push_back(atoi(argv[i]));
  if (cpus.empty()) cpus.push_back(sched_getcpu());
  char *peer, *src;
  unsigned long long *local_word;
  CK(cudaSetDevice(1));
  CK(cudaDeviceEnablePeerAccess(0, 0));
  CK(cudaMalloc(&peer, 1 << 20));
  CK(cudaSetDevice(0));
  CK(cudaDeviceEnablePeerAccess(1, 0));
  CK(cudaMalloc(&src, 1 << 20));
  CK(cudaMalloc(&local_word, 8));
  CK(cudaMemset(local_word, 0, 8));
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CUstream cs = (CUstream)s;
  cudaFunction_t rf;
  CK(cudaGetFuncBySymbol(&rf, (const void *)empty));
  CUfunction f = (CUfunction)rf;
  CUdeviceptr dpeer = (CUdeviceptr)peer, dsrc = (CUdeviceptr)src, dword = (CUdeviceptr)local_word;
  unsigned long long gen = 0;
  struct Variant {
    const char *name;
    std::function<void()> call;
  };
  std::vector<Variant> variants = {
      {"cudaMemcpyAsync(Default)", [&] { CK(cudaMemcpyAsync(peer, src, size, cudaMemcpyDefault, s)); }},
      {"cudaMemcpyAsync(DtoD)", [&] { CK(cudaMemcpyAsync(peer, src, size, cudaMemcpyDeviceToDevice, s)); }},
      {"cudaMemcpyPeerAsync", [&] { CK(cudaMemcpyPeerAsync(peer, 1, src, 0, size, s)); }},
      {"cuMemcpyDtoDAsync", [&] { CD(cuMemcpyDtoDAsync(dpeer, dsrc, size, cs)); }},
      {"cuMemcpyAsync", [&] { CD(cuMemcpyAsync(dpeer, dsrc, size, cs)); }},
      {"kernel <<<>>>", [&] { empty<<<1, 32, 0, s>>>(); }},
      {"cudaLaunchKernel", [&] { CK(cudaLaunchKernel((const void *)empty, dim3(1), dim3(32), nullptr, 0, s)); }},
      {"cuLaunchKernel", [&] { CD(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, cs, nullptr, nullptr)); }},
      {"cuStreamWriteValue64(peer)", [&] { CD(cuStreamWriteValue64(cs, dpeer, ++gen, 0)); }},
      {"cuStreamBatchMemOp(write+wait)", [&] {
         ++gen;
         CUstreamBatchMemOpParams p[2] = {};
         p[0].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_64;
         p[0].writeValue.address = dword;   // local, so that the wait after it is met
         p[0].writeValue.value64 = gen;
         p[1].waitValue.operation = CU_STREAM_MEM_OP_WAIT_VALUE_64;
         p[1].waitValue.address = dword;
         p[1].waitValue.value64 = gen;
         p[1].waitValue.flags = CU_STREAM_WAIT_VALUE_GEQ;
         CD(cuStreamBatchMemOp(cs, 2, p, 0));
       }},
  };
  const int n = 200, reps = 9;
  printf("%-32s", "us per call, CPU:");
  for (int cpu : cpus) printf(" %7d", cpu);
  printf("\n");
  std::vector<std::vector<double>> med(variants.size());
  for (int cpu : cpus) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) { printf("cpu %d: sched_setaffinity failed\n", cpu); return 1; }
    std::vector<std::vector<double>> t(variants.size());
    for (int r = 0; r <= reps; r++) {
      for (size_t v = 0; v < variants.size(); v++) {
        CK(cudaStreamSynchronize(s));
        double t0 = now_us();
        for (int i = 0; i < n; i++) variants[v].call();
        double dt = (now_us() - t0) / n;
        if (r > 0) t[v].push_back(dt);
      }
    }
    CK(cudaStreamSynchronize(s));
    for (size_t v = 0; v < variants.size(); v++) {
      std::sort(t[v].begin(), t[v].end());
      med[v].push_back(t[v][t[v].size() / 2]);
    }
  }
  for (size_t v = 0; v < variants.size(); v++) {
    printf("%-32s", variants[v].name);
    for (double m : med[v]) printf(" %7.2f", m);
    printf("\n");
  }
  return 0;
}
