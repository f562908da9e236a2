// The probes' common parts (ce_offload_probe.cu, put_path_probe.cu, put_unroll_probe.cu): the error check, the
// median, and the plain put kernel of the anchor's shape: block b stores its piece of piece16 16-byte words `iters`
// times, 4 words in flight per thread, then fences.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#define CK(x) do{cudaError_t e=(x); if(e!=cudaSuccess){printf("ERR %s:%d %s\n",__FILE__,__LINE__,cudaGetErrorString(e)); exit(1);}}while(0)
__global__ void __launch_bounds__(1024) plain_put(int4* dst, const int4* src, size_t piece16, int iters){
  size_t off = piece16 * blockIdx.x;
  for (int it = 0; it < iters; it++)
    for (size_t i = threadIdx.x; i < piece16; i += blockDim.x * 4) {
      int4 w[4];
#pragma unroll
      for (int u = 0; u < 4; u++) if (i + u * blockDim.x < piece16) w[u] = src[off + i + u * blockDim.x];
#pragma unroll
      for (int u = 0; u < 4; u++) if (i + u * blockDim.x < piece16) dst[off + i + u * blockDim.x] = w[u];
    }
  __threadfence_system();
}
static float med(std::vector<float> v){ std::sort(v.begin(), v.end()); return v[v.size()/2]; }
