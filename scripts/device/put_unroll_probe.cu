// Probe for issue 19's device put rows: does a 32 x 1024-thread put move more with more 16-byte words in flight
// per thread (U loads, then U stores), or with other store hints? One process, two GPUs, peer access.
#include "probe_put.cuh"
template <int U, int HINT>
__global__ void __launch_bounds__(1024) put(int4* dst, const int4* src, size_t piece16, int iters){
  size_t off = piece16 * blockIdx.x; const size_t n = blockDim.x;
  for (int it = 0; it < iters; it++) {
    size_t i = threadIdx.x;
    for (; i + (U - 1) * n < piece16; i += U * n) {
      int4 w[U];
#pragma unroll
      for (int u = 0; u < U; u++) w[u] = src[off + i + u * n];
#pragma unroll
      for (int u = 0; u < U; u++) {
        int4* p = dst + off + i + u * n;
        if (HINT == 0) *p = w[u]; else if (HINT == 1) __stcs(p, w[u]); else __stwt(p, w[u]);
      }
    }
    for (; i < piece16; i += n) dst[off + i] = src[off + i];
  }
  __threadfence_system();
}
typedef void (*K)(int4*, const int4*, size_t, int);
int main(){
  CK(cudaSetDevice(1)); CK(cudaDeviceEnablePeerAccess(0, 0)); char* dst; size_t maxb = 256ull << 20; CK(cudaMalloc(&dst, maxb));
  CK(cudaSetDevice(0)); CK(cudaDeviceEnablePeerAccess(1, 0)); char* src; CK(cudaMalloc(&src, maxb)); CK(cudaMemset(src, 1, maxb));
  cudaStream_t st; CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking)); cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  struct { const char* name; K k; } ks[] = {{"u2", put<2,0>}, {"u4", put<4,0>}, {"u6", put<6,0>}, {"u8", put<8,0>},
      {"u4cs", put<4,1>}, {"u4wt", put<4,2>}, {"u8cs", put<8,1>}};
  const int NK = sizeof ks / sizeof ks[0];
  printf("%10s", "bytes"); for (int k = 0; k < NK; k++) printf(" %8s", ks[k].name); printf("\n");
  for (int round = 0; round < 2; round++)
  for (size_t bytes : {1ull << 20, 4ull << 20, 64ull << 20, 256ull << 20}) {
    printf("%10zu", bytes);
    for (int k = 0; k < NK; k++) {
      std::vector<float> t;
      for (int rep = 0; rep < 7; rep++) {
        CK(cudaDeviceSynchronize()); float ms; CK(cudaEventRecord(a, st));
        ks[k].k<<<32, 1024, 0, st>>>((int4*)dst, (const int4*)src, bytes / 32 / 16, 10);
        CK(cudaEventRecord(b, st)); CK(cudaEventSynchronize(b)); CK(cudaGetLastError()); CK(cudaEventElapsedTime(&ms, a, b));
        if (rep) t.push_back(ms);
      }
      printf(" %8.1f", bytes * 10.0 / (med(t) * 1e6));
    }
    printf("  GB/s\n");
  }
  return 0;
}
