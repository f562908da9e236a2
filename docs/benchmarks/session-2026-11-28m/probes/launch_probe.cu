// Experiment (not kept): the host round trip of one small kernel on this GPU, one process: launch, then wait for it.
#include <cstdio>
#include <cstdlib>
#include <chrono>
#include <algorithm>
#include <vector>
#include <cuda_runtime.h>

__global__ void empty_kernel() {}
__global__ void flag_kernel(volatile unsigned *flag, unsigned v) { *flag = v; __threadfence_system(); }

static double now_us() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
template <class F> static void measure(const char *name, F f) {
  const int n = 20000;
  std::vector<double> t(n);
  for (int i = 0; i < 3000; i++) f(i);
  for (int i = 0; i < n; i++) { double t0 = now_us(); f(i); t[i] = now_us() - t0; }
  std::sort(t.begin(), t.end());
  printf("%-58s p10 %6.2f p50 %6.2f p90 %6.2f p99 %6.2f us\n", name, t[n / 10], t[n / 2], t[n * 9 / 10], t[n * 99 / 100]);
}

int main(int argc, char **argv) {
  if (argc > 1 && argv[1][0] == 's') cudaSetDeviceFlags(cudaDeviceScheduleSpin);
  if (argc > 1 && argv[1][0] == 'y') cudaSetDeviceFlags(cudaDeviceScheduleYield);
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  unsigned *hflag, *dflag;
  cudaHostAlloc(&hflag, 64, cudaHostAllocMapped);
  cudaHostGetDevicePointer(&dflag, hflag, 0);
  *hflag = 0;
  measure("cudaStreamSynchronize, empty stream", [&](int) { cudaStreamSynchronize(s); });
  measure("launch (host call only)", [&](int) { empty_kernel<<<1, 32, 0, s>>>(); if (0) {} });
  cudaStreamSynchronize(s);
  measure("launch empty + cudaStreamSynchronize", [&](int) { empty_kernel<<<1, 32, 0, s>>>(); cudaStreamSynchronize(s); });
  measure("launch empty + poll cudaStreamQuery", [&](int) {
    empty_kernel<<<1, 32, 0, s>>>();
    while (cudaStreamQuery(s) == cudaErrorNotReady) {}
  });
  measure("launchEx PDL empty + cudaStreamSynchronize", [&](int) {
    cudaLaunchConfig_t c = {};
    cudaLaunchAttribute a[1];
    a[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    a[0].val.programmaticStreamSerializationAllowed = 1;
    c.gridDim = dim3(1); c.blockDim = dim3(32); c.stream = s; c.attrs = a; c.numAttrs = 1;
    cudaLaunchKernelEx(&c, empty_kernel);
    cudaStreamSynchronize(s);
  });
  measure("launch flag kernel + host spins on mapped flag", [&](int i) {
    flag_kernel<<<1, 1, 0, s>>>(dflag, (unsigned)i + 1);
    while (*(volatile unsigned *)hflag != (unsigned)i + 1) {}
  });
  cudaStreamSynchronize(s);
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
