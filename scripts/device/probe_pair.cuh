// The two-GPU reduce-scatter probes' common parts (rs_push_probe.cu, rs_mixed_probe.cu), where one process drives
// both GPUs through peer access: the error checks, the entry handshake kernel, the source fill, and the timing of
// back-to-back calls.
#include <cstdio>
#include <cstdlib>
#include <cuda.h>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(err_)); exit(1); } } while (0)
#define CU(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char *s_; cuGetErrorString(r_, &s_); printf("%s: %s\n", #x, s_); exit(1); } } while (0)

// one thread: tell the peer this GPU reached call `seq`, wait until the peer did too (the library's entry sync)
__global__ void entry(volatile unsigned long long *peer_cell, volatile unsigned long long *my_cell, unsigned long long seq) {
  *peer_cell = seq;
  __threadfence_system();
  while (*my_cell < seq) {}
}

// GPU g's contributions: element i of each block is base + i % 1000 (exact sums in float)
__global__ void fill(float *p, size_t n, float base) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    p[i] = base + (float)(i % 1000);
}

// Microseconds per call over `reps` back-to-back calls after 3 more, timed by events on GPU 0's stream `timed`. Each
// call takes the next number (++seq) and enqueues each GPU's part: enqueue(g, seq) with GPU g current.
template <class Enqueue>
double us_per_call(cudaStream_t timed, int reps, unsigned long long &seq, Enqueue enqueue) {
  cudaEvent_t t0, t1;
  CK(cudaSetDevice(0));
  CK(cudaEventCreate(&t0));
  CK(cudaEventCreate(&t1));
  for (int g = 0; g < 2; g++) { CK(cudaSetDevice(g)); CK(cudaDeviceSynchronize()); }
  for (int r = -3; r < reps; r++) {
    seq++;
    if (r == 0) { CK(cudaSetDevice(0)); CK(cudaEventRecord(t0, timed)); }
    for (int g = 0; g < 2; g++) { CK(cudaSetDevice(g)); enqueue(g, seq); }
  }
  CK(cudaSetDevice(0));
  CK(cudaEventRecord(t1, timed));
  for (int g = 0; g < 2; g++) { CK(cudaSetDevice(g)); CK(cudaDeviceSynchronize()); }
  float ms = 0;
  CK(cudaEventElapsedTime(&ms, t0, t1));
  CK(cudaEventDestroy(t0));
  CK(cudaEventDestroy(t1));
  return ms * 1e3 / reps;
}
