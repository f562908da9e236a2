// launch_probe.cu - the CUDA runtime's side of LaunchProbe.java: host ns per launch of an empty kernel with
// perf_put_bw's parameters (32 x 1024), per cudaEventRecord, and the event-timed gap of one launch on an idle stream.
// Build: nvcc -O2 -arch=sm_90 -o launch_probe launch_probe.cu
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(err_)); return 1; } } while (0)

__global__ void probe_empty(char *, const char *, size_t, int, int) {}

static double now_ns() {
  return (double)std::chrono::duration_cast<std::chrono::nanoseconds>(
      std::chrono::steady_clock::now().time_since_epoch()).count();
}

int main() {
  char *a, *b;
  CK(cudaMalloc(&a, 1 << 20));
  CK(cudaMalloc(&b, 1 << 20));
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  const char *names[] = {"launch", "cudaEventRecord", "record, launch, record"};
  for (int what = 0; what < 3; what++) {
    double per[25];
    for (int r = -5; r < 25; r++) {
      double t = 0;
      for (int batch = 0; batch < 20; batch++) {
        double t0 = now_ns();
        for (int i = 0; i < 200; i++) {
          if (what >= 1) cudaEventRecord(e0, s);
          if (what != 1) probe_empty<<<32, 1024, 0, s>>>(a, b, 1 << 20, 0, 10);
          if (what == 2) cudaEventRecord(e1, s);
        }
        t += now_ns() - t0;
        CK(cudaStreamSynchronize(s));
      }
      if (r >= 0) per[r] = t / 4000;
    }
    std::sort(per, per + 25);
    printf("%-44s host %8.0f ns/call (median of 25 x 4000; min %.0f, max %.0f)\n", names[what], per[12], per[0], per[24]);
  }
  static float us[2000];
  for (int rep = -1000; rep < 2000; rep++) {
    CK(cudaEventRecord(e0, s));
    probe_empty<<<32, 1024, 0, s>>>(a, b, 1 << 20, 0, 10);
    CK(cudaEventRecord(e1, s));
    CK(cudaEventSynchronize(e1));
    float ms;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    if (rep >= 0) us[rep] = ms * 1e3f;
  }
  std::sort(us, us + 2000);
  printf("%-44s events %.2f us (median of 2000; p10 %.2f, p90 %.2f)\n", "one empty launch, idle stream", us[1000], us[200],
         us[1800]);
  return 0;
}
