// rs_mixed_probe.cu - a 2-GPU reduce-scatter whose peer bytes cross NVLink two ways at once: the SMs pull a part
// (read the peer's block and add it to the own one, as the library's kernel does for all of it) while the copy
// engine pushes the rest of this GPU's contribution into the peer's destination and then writes a flag there. The
// kernel, once its pulled part is done, waits for the flag and adds its own block to the pushed rest. Does one
// direction of the link carry more when reads' replies and copy-engine writes share it? (issue 19's 64 MB row:
// 32 MB each way; the library's read kernel moves about 300 GB/s each way, 340 needs 98.7 us a call.)
// One process drives both GPUs. Per configuration: an entry handshake kernel (the library's entry sync), the push
// and the kernel, joined; microseconds per call over 20 back-to-back calls after 3, then GPU 0's result checked.
// Build: nvcc -O3 -arch=sm_90 -o rs_mixed rs_mixed_probe.cu -lcuda      Run: ./rs_mixed [MB each way, 32]
#include "probe_pair.cuh"

__device__ __forceinline__ float4 add4(float4 a, float4 b) { return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w); }

// dest[i] = own[i] + peer[i] for i < pulled (U float4 in flight per thread); then, once *flag >= seq (the peer's
// copy engine put its part of dest[pulled, n) there), dest[i] += own[i] for the rest
template <int U>
__global__ void __launch_bounds__(512) mixed(float4 *dest, const float4 *own, const float4 *peer, size_t pulled,
                                             size_t n, volatile unsigned long long *flag, unsigned long long seq) {
  size_t step = (size_t)gridDim.x * blockDim.x, i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  for (; i + (U - 1) * step < pulled; i += U * step) {
    float4 p[U], o[U];
#pragma unroll
    for (int u = 0; u < U; u++) p[u] = peer[i + u * step];
#pragma unroll
    for (int u = 0; u < U; u++) o[u] = own[i + u * step];
#pragma unroll
    for (int u = 0; u < U; u++) dest[i + u * step] = add4(o[u], p[u]);
  }
  for (; i < pulled; i += step) dest[i] = add4(own[i], peer[i]);
  if (pulled == n) return;
  if (threadIdx.x == 0) while (*flag < seq) {}
  __syncthreads();
  __threadfence();
  for (size_t j = pulled + blockIdx.x * (size_t)blockDim.x + threadIdx.x; j < n; j += step) dest[j] = add4(dest[j], own[j]);
}

typedef void (*Kernel)(float4 *, const float4 *, const float4 *, size_t, size_t, volatile unsigned long long *,
                       unsigned long long);

int main(int argc, char **argv) {
  const size_t block = (argc > 1 ? (size_t)atol(argv[1]) : 32) << 20;   // bytes each GPU owns of the result
  const size_t n4 = block / 16;
  const int reps = 20;
  float *src[2], *dst[2];
  unsigned long long *cells[2];   // [0]: entry cell, [16]: the pushed part's flag
  cudaStream_t st[2][2];
  cudaEvent_t fork[2], join[2];
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  for (int g = 0; g < 2; g++) {
    CK(cudaSetDevice(g));
    CK(cudaDeviceEnablePeerAccess(1 - g, 0));
    CK(cudaMalloc(&src[g], 2 * block));   // [0, block): the contribution to GPU 0's result, [block, 2 block): GPU 1's
    CK(cudaMalloc(&dst[g], block));
    CK(cudaMalloc(&cells[g], 32 * 8));
    CK(cudaMemset(cells[g], 0, 32 * 8));
    fill<<<sms, 512>>>(src[g], 2 * block / 4, g * 10000.f);
    for (int s = 0; s < 2; s++) CK(cudaStreamCreateWithFlags(&st[g][s], cudaStreamNonBlocking));
    CK(cudaEventCreateWithFlags(&fork[g], cudaEventDisableTiming));
    CK(cudaEventCreateWithFlags(&join[g], cudaEventDisableTiming));
    CK(cudaDeviceSynchronize());
  }
  float *h = (float *)malloc(block), *a = (float *)malloc(block), *b = (float *)malloc(block);
  CK(cudaMemcpy(a, src[0], block, cudaMemcpyDefault));
  CK(cudaMemcpy(b, src[1], block, cudaMemcpyDefault));
  unsigned long long seq = 0;
  printf("%zu MB each way, %d SMs\n", block >> 20, sms);
  const double fractions[] = {1.0, 0.875, 0.75, 0.625, 0.5};
  const int grids[] = {1, 2, 4};   // blocks per SM
  const int unrolls[] = {1, 4};
  for (int round = 0; round < 2; round++)
    for (double f : fractions)
      for (int gm : grids)
        for (int U : unrolls) {
          Kernel k = U == 1 ? mixed<1> : mixed<4>;
          size_t pulled = (size_t)(n4 * f) / 64 * 64;
          if (f == 1.0) pulled = n4;
          size_t pushed = (n4 - pulled) * 16, at = pulled * 16;
          double us = us_per_call(st[0][0], reps, seq, [&](int g, unsigned long long call) {
            int q = 1 - g;
            entry<<<1, 1, 0, st[g][0]>>>(cells[q], cells[g], call);
            if (pushed > 0) {
              CK(cudaEventRecord(fork[g], st[g][0]));
              CK(cudaStreamWaitEvent(st[g][1], fork[g], 0));
              // this GPU's contribution to the peer's result, its pushed part, into the peer's dest
              CK(cudaMemcpyAsync((char *)dst[q] + at, (char *)src[g] + q * block + at, pushed, cudaMemcpyDefault,
                                 st[g][1]));
              CU(cuStreamWriteValue64(st[g][1], (CUdeviceptr)(cells[q] + 16), call, CU_STREAM_WRITE_VALUE_DEFAULT));
            }
            k<<<sms * gm, 512, 0, st[g][0]>>>((float4 *)dst[g], (const float4 *)(src[g] + g * block / 4),
                                              (const float4 *)(src[q] + g * block / 4), pulled, n4, cells[g] + 16, call);
            if (pushed > 0) {
              CK(cudaEventRecord(join[g], st[g][1]));
              CK(cudaStreamWaitEvent(st[g][0], join[g], 0));
            }
          });
          CK(cudaMemcpy(h, dst[0], block, cudaMemcpyDefault));
          long bad = 0;
          for (size_t i = 0; i < block / 4; i++) if (h[i] != a[i] + b[i]) bad++;
          printf("round %d pulled %5.3f grid %4d unroll %d: %8.2f us/call  %6.1f GB/s bus%s\n", round, f, sms * gm, U,
                 us, block / (us * 1e3), bad ? "  WRONG" : "  (checked)");
        }
  // the entry alone, for the figures above
  double us = us_per_call(st[0][0], reps, seq, [&](int g, unsigned long long call) {
    entry<<<1, 1, 0, st[g][0]>>>(cells[1 - g], cells[g], call);
  });
  printf("entry alone: %.2f us/call\n", us);
  return 0;
}
