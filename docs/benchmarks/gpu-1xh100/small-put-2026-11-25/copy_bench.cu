// Scratch micro-benchmark (not committed): the device block copy of jshmem against a plain loop.
#include <jshmem/jshmem.h>
#include <cstdio>
#include <vector>
#include <algorithm>

__global__ void __launch_bounds__(1024) k_lib(char *dst, const char *src, size_t bytes, int iters) {
  size_t chunk = (bytes + gridDim.x - 1) / gridDim.x, off = chunk * blockIdx.x;
  if (off >= bytes) return;
  size_t len = bytes - off < chunk ? bytes - off : chunk;
  for (int i = 0; i < iters; i++) jshmemi_copy<JSHMEMI_UNROLL_BLOCK>(dst + off, src + off, len, threadIdx.x, blockDim.x);
  __threadfence_system();
}
__global__ void __launch_bounds__(1024) k_raw(char *dst, const char *src, size_t bytes, int iters) {
  size_t chunk = (bytes + gridDim.x - 1) / gridDim.x, off = chunk * blockIdx.x;
  if (off >= bytes) return;
  size_t len = bytes - off < chunk ? bytes - off : chunk;
  uint4 *d = (uint4 *)(dst + off); const uint4 *s = (const uint4 *)(src + off);
  for (int i = 0; i < iters; i++)
    for (size_t j = threadIdx.x; j < len / 16; j += blockDim.x) d[j] = s[j];
  __threadfence_system();
}
__global__ void k_empty(char *, const char *, size_t, int) {}

typedef void (*K)(char *, const char *, size_t, int);
int main() {
  char *a, *b;
  cudaMalloc(&a, 1 << 24); cudaMalloc(&b, 1 << 24);
  cudaStream_t st; cudaStreamCreate(&st);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  const char *names[] = {"empty", "lib", "raw"};
  K ks[] = {k_empty, k_lib, k_raw};
  for (size_t bytes : {4096ul, 16384ul, 65536ul}) {
    for (int v = 0; v < 3; v++) {
      std::vector<float> t;
      for (int r = 0; r < 7; r++) {
        cudaEventRecord(e0, st);
        ks[v]<<<4, 1024, 0, st>>>(b, a, bytes, 100);
        cudaEventRecord(e1, st);
        cudaEventSynchronize(e1);
        float ms; cudaEventElapsedTime(&ms, e0, e1); t.push_back(ms);
      }
      std::sort(t.begin(), t.end());
      printf("%-6s %7zu B: %8.2f us/launch  %6.2f GB/s\n", names[v], bytes, t[3] * 1e3, bytes * 100 / (t[3] * 1e6));
    }
  }
  printf("err %s\n", cudaGetErrorString(cudaGetLastError()));
}
