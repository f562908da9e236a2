// Event gap and host cost of a launch in C++: runtime <<<>>>, driver cuLaunchKernel of the same function,
// and cuLaunchKernel of an NVRTC-compiled module (jshmem's path). nvcc -O2 -arch=sm_90 launch_probe.cu -lcuda -lnvrtc
#include <cuda.h>
#include <cuda_runtime.h>
#include <nvrtc.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>
extern "C" __global__ void empty(void *d, const void *s, long long n, int pe, long long it) {
  if (it < 0 && threadIdx.x == 0) *(long long *)d = n + pe;
}
static const char *SRC = "extern \"C\" __global__ void empty(void *d, const void *s, long long n, int pe, long long it) {"
                         " if (it < 0 && threadIdx.x == 0) *(long long *)d = n + pe; }\n";
template <class F> double gap(cudaStream_t st, cudaEvent_t a, cudaEvent_t b, F f, int n) {
  std::vector<float> t(n);
  for (int i = 0; i < n; i++) {
    cudaEventRecord(a, st); f(); cudaEventRecord(b, st); cudaEventSynchronize(b);
    cudaEventElapsedTime(&t[i], a, b);
  }
  std::sort(t.begin(), t.end());
  return t[n / 2] * 1000.0;
}
template <class F> double host(cudaStream_t st, F f, int n) {
  double best = 1e30;
  for (int r = 0; r < 5; r++) {
    cudaStreamSynchronize(st);
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; i++) f();
    auto t1 = std::chrono::steady_clock::now();
    cudaStreamSynchronize(st);
    best = std::min(best, std::chrono::duration<double, std::nano>(t1 - t0).count() / n);
  }
  return best;
}
int main() {
  cudaSetDevice(0);
  cudaStream_t st; cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking);
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  void *d, *s; cudaMalloc(&d, 1 << 20); cudaMalloc(&s, 1 << 20);
  long long n = 1 << 20, it = 10; int pe = 1;
  void *args[] = {&d, &s, &n, &pe, &it};
  CUfunction rtfn; cudaGetFuncBySymbol(&rtfn, (const void *)empty);
  nvrtcProgram p; nvrtcCreateProgram(&p, SRC, "empty.cu", 0, nullptr, nullptr);
  const char *opts[] = {"--gpu-architecture=sm_90a", "-std=c++17"};
  if (nvrtcCompileProgram(p, 2, opts) != NVRTC_SUCCESS) { printf("nvrtc failed\n"); return 1; }
  size_t sz; nvrtcGetCUBINSize(p, &sz); std::vector<char> cubin(sz); nvrtcGetCUBIN(p, cubin.data());
  CUmodule mod; CUfunction nfn;
  if (cuModuleLoadData(&mod, cubin.data()) || cuModuleGetFunction(&nfn, mod, "empty")) { printf("load failed\n"); return 1; }
  auto nothing = [] {};
  auto rt = [&] { empty<<<32, 1024, 0, st>>>(d, s, n, pe, it); };
  auto drv = [&] { cuLaunchKernel(rtfn, 32, 1, 1, 1024, 1, 1, 0, st, args, nullptr); };
  auto nv = [&] { cuLaunchKernel(nfn, 32, 1, 1, 1024, 1, 1, 0, st, args, nullptr); };
  auto rec = [&] { cudaEventRecord(a, st); };
  for (int w = 0; w < 2000; w++) { gap(st, a, b, rt, 1); gap(st, a, b, nv, 1); host(st, nv, 1); }
  for (int r = 0; r < 3; r++) {
    printf("round %d: event gap (us, median of 2000): nothing %.2f | <<<>>> 32x1024 %.2f | cuLaunchKernel (runtime fn) %.2f | cuLaunchKernel (NVRTC module) %.2f\n",
           r, gap(st, a, b, nothing, 2000), gap(st, a, b, rt, 2000), gap(st, a, b, drv, 2000), gap(st, a, b, nv, 2000));
    printf("round %d: host ns per call (best of 5 x 2000): <<<>>> %.0f | cuLaunchKernel (NVRTC) %.0f | cudaEventRecord %.0f\n",
           r, host(st, rt, 2000), host(st, nv, 2000), host(st, rec, 2000));
  }
  return 0;
}
