// host_path_probe.cu - where the host-bound rows of issue 19 spend their time, and whether it depends on the CPU the
// calling thread runs on. One process drives GPU 0, which writes into GPU 1 (peer access); for each CPU given, the
// main thread is pinned to it and measures:
//   put4k      100 on-stream copies of `size` bytes to the peer, timed with events around the loop as the anchors
//              time nvshmemx_putmem_on_stream (GB/s), and the host's time per enqueue (us)
//   put4k-ce   the same 100 copies queued behind a kernel that holds the stream until all are queued: the copy
//              engine's time alone (GB/s)
//   put8+sync  a copy of 8 bytes to the peer, then cudaStreamSynchronize: a host put + quiet (us)
//   put8+poll  the same, waiting by polling cudaStreamQuery (us)
//   launch     an empty kernel launch, host time per launch over 1000 back to back (us)
//   launch+sync  an empty kernel launch, then cudaStreamSynchronize (us)
// Each measurement is made two ways, alternated repetition by repetition on the same CPU: through the runtime
// (cudaMemcpyAsync, <<<>>>; row "rt") and through the driver (cuMemcpyAsync, cuLaunchKernel; row "drv").
// Medians of 7 repetitions each after a warm-up. The stream is non-blocking, as jshmem's.
// Build: nvcc -O2 -arch=sm_90 -o host_path host_path_probe.cu -lcuda      Run: ./host_path [size] [cpu ...]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <sched.h>
#include <vector>
#include <cuda.h>
#include <cuda_runtime.h>
#define CD(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { printf("%s: %d\n", #x, (int)r_); exit(1); } } while (0)
#define CK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(err_)); exit(1); } } while (0)

__global__ void hold(volatile int *flag) {
  while (*flag == 0) {
  }
}
__global__ void empty() {}

static double now_us() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}
static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main(int argc, char **argv) {
  size_t size = argc > 1 ? strtoul(argv[1], nullptr, 0) : 4096;
  std::vector<int> cpus;
  for (int i = 2; i < argc; i++) cpus.push_back(atoi(argv[i]));
  if (cpus.empty()) cpus.push_back(sched_getcpu());
  char *peer, *src;
  CK(cudaSetDevice(1));
  CK(cudaDeviceEnablePeerAccess(0, 0));
  CK(cudaMalloc(&peer, 1 << 20));
  CK(cudaSetDevice(0));
  CK(cudaDeviceEnablePeerAccess(1, 0));
  CK(cudaMalloc(&src, 1 << 20));
  CK(cudaMemset(src, 7, 1 << 20));
  int *flag, *flag_dev;
  CK(cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped));
  CK(cudaHostGetDevicePointer(&flag_dev, flag, 0));
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  cudaFunction_t rf;
  CK(cudaGetFuncBySymbol(&rf, (const void *)empty));
  CUfunction empty_fn = (CUfunction)rf;
  auto copy = [&](size_t bytes, bool drv) {
    if (drv)
      CD(cuMemcpyAsync((CUdeviceptr)peer, (CUdeviceptr)src, bytes, (CUstream)s));
    else
      CK(cudaMemcpyAsync(peer, src, bytes, cudaMemcpyDefault, s));
  };
  auto launch = [&](bool drv) {
    if (drv)
      CD(cuLaunchKernel(empty_fn, 1, 1, 1, 32, 1, 1, 0, (CUstream)s, nullptr, nullptr));
    else
      empty<<<1, 32, 0, s>>>();
  };
  const int n = 100, reps = 7;
  printf("%4s %4s %10s %12s %12s %10s %10s %10s %12s\n", "cpu", "api", "put GB/s", "enqueue us", "CE-only GB/s",
         "put8+sync", "put8+poll", "launch us", "launch+sync");
  for (int cpu : cpus) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) { printf("cpu %d: sched_setaffinity failed\n", cpu); continue; }
    std::vector<double> bw[2], enq[2], ce[2], sync8[2], poll8[2], launch_us[2], launch_sync[2];
    for (int r = 0; r < 2 * (reps + 1); r++) {
      const bool drv = r % 2;
      float ms;
      CK(cudaEventRecord(a, s));
      double t0 = now_us();
      for (int i = 0; i < n; i++) copy(size, drv);
      double t1 = now_us();
      CK(cudaEventRecord(b, s));
      CK(cudaEventSynchronize(b));
      CK(cudaEventElapsedTime(&ms, a, b));
      bw[drv].push_back(size * n / (ms * 1e6));
      enq[drv].push_back((t1 - t0) / n);

      *(volatile int *)flag = 0;
      hold<<<1, 1, 0, s>>>(flag_dev);
      CK(cudaEventRecord(a, s));
      for (int i = 0; i < n; i++) copy(size, drv);
      CK(cudaEventRecord(b, s));
      __sync_synchronize();
      *(volatile int *)flag = 1;
      CK(cudaEventSynchronize(b));
      CK(cudaEventElapsedTime(&ms, a, b));
      ce[drv].push_back(size * n / (ms * 1e6));

      t0 = now_us();
      for (int i = 0; i < n; i++) {
        copy(8, drv);
        CK(cudaStreamSynchronize(s));
      }
      sync8[drv].push_back((now_us() - t0) / n);
      t0 = now_us();
      for (int i = 0; i < n; i++) {
        copy(8, drv);
        cudaError_t q;
        while ((q = cudaStreamQuery(s)) == cudaErrorNotReady) {
        }
        CK(q);
      }
      poll8[drv].push_back((now_us() - t0) / n);

      t0 = now_us();
      for (int i = 0; i < 10 * n; i++) launch(drv);
      launch_us[drv].push_back((now_us() - t0) / (10 * n));
      CK(cudaStreamSynchronize(s));
      t0 = now_us();
      for (int i = 0; i < n; i++) {
        launch(drv);
        CK(cudaStreamSynchronize(s));
      }
      launch_sync[drv].push_back((now_us() - t0) / n);
      if (r < 2)   // the warm-up of each way
        bw[drv].clear(), enq[drv].clear(), ce[drv].clear(), sync8[drv].clear(), poll8[drv].clear(),
            launch_us[drv].clear(), launch_sync[drv].clear();
    }
    for (int drv = 0; drv < 2; drv++)
      printf("%4d %4s %10.2f %12.2f %12.2f %10.2f %10.2f %10.2f %12.2f\n", cpu, drv ? "drv" : "rt", median(bw[drv]),
             median(enq[drv]), median(ce[drv]), median(sync8[drv]), median(poll8[drv]), median(launch_us[drv]),
             median(launch_sync[drv]));
  }
  return 0;
}
