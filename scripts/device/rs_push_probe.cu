// rs_push_probe.cu - what a 2-GPU reduce-scatter costs when the copy engines push each GPU's block for
// its peer straight into the peer's destination, chunk by chunk, each chunk followed by a stream write
// of a flag in the peer's memory, while a reduce kernel on the peer waits for each flag and adds its
// own block in place (issue 14/19's 64 MB row: 32 MB each way). One process drives both GPUs. Per
// configuration (chunks, side streams): an entry handshake kernel, the pushes, the reduce, joined;
// microseconds per call over 20 back-to-back calls, then the result checked once.
// Build: nvcc -O2 -arch=sm_90 -o rs_push rs_push_probe.cu -lcuda
#include "probe_pair.cuh"

// dest[i] += own[i], chunk by chunk once the chunk's flag says the peer's bytes are in
__global__ void reduce(float4 *dest, const float4 *own, size_t n4, int chunks, volatile unsigned long long *flags,
                       unsigned long long seq) {
  size_t per = (n4 + chunks - 1) / chunks;
  for (int c = 0; c < chunks; c++) {
    if (threadIdx.x == 0) while (flags[c * 16] < seq) {}
    __syncthreads();
    size_t lo = c * per, hi = lo + per < n4 ? lo + per : n4;
    for (size_t i = lo + blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < hi; i += (size_t)gridDim.x * blockDim.x) {
      float4 a = dest[i], b = own[i];
      dest[i] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
    }
  }
}

int main(int argc, char **argv) {
  const size_t block = (argc > 1 ? (size_t)atol(argv[1]) : 32) << 20; // bytes each GPU sends (and owns)
  const size_t n4 = block / 16;
  const int reps = 20;
  float *src[2], *dst[2];
  unsigned long long *cells[2]; // [0]: entry cell, [16 * (1 + c)]: chunk c's flag
  cudaStream_t st[2][3];
  cudaEvent_t fork[2], join[2][2];
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  for (int g = 0; g < 2; g++) {
    CK(cudaSetDevice(g));
    CK(cudaDeviceEnablePeerAccess(1 - g, 0));
    CK(cudaMalloc(&src[g], 2 * block));
    CK(cudaMalloc(&dst[g], block));
    CK(cudaMalloc(&cells[g], 16 * 8 * 70));
    CK(cudaMemset(cells[g], 0, 16 * 8 * 70));
    fill<<<sms, 512>>>(src[g], 2 * block / 4, g * 10000.f);
    for (int s = 0; s < 3; s++) CK(cudaStreamCreateWithFlags(&st[g][s], cudaStreamNonBlocking));
    CK(cudaEventCreateWithFlags(&fork[g], cudaEventDisableTiming));
    for (int s = 0; s < 2; s++) CK(cudaEventCreateWithFlags(&join[g][s], cudaEventDisableTiming));
    CK(cudaDeviceSynchronize());
  }
  unsigned long long seq = 0;
  int chunk_counts[] = {1, 2, 4, 8, 16, 32, 64};
  printf("block %zu MB each way, %d SMs\n", block >> 20, sms);
  for (int mode = 0; mode < 3; mode++) { // 0: push + reduce; 1: pushes alone (no reduce); 2: entry alone
    for (int lanes = 1; lanes <= 2; lanes++) {
      for (int chunks : chunk_counts) {
        if (mode == 2 && (chunks > 1 || lanes > 1)) continue;
        double us = us_per_call(st[0][0], reps, seq, [&](int g, unsigned long long call) {
          int q = 1 - g;
          entry<<<1, 1, 0, st[g][0]>>>(cells[q], cells[g], call);
          if (mode == 2) return;
          CK(cudaEventRecord(fork[g], st[g][0]));
          for (int s = 1; s <= lanes; s++) CK(cudaStreamWaitEvent(st[g][s], fork[g], 0));
          size_t per = (n4 + chunks - 1) / chunks * 16;
          for (int c = 0; c < chunks; c++) {
            size_t lo = c * per, len = lo + per < block ? per : block - lo;
            cudaStream_t s = st[g][1 + c % lanes];
            // this GPU's contribution to the peer's block (src[g] + q * block) into the peer's dest
            CK(cudaMemcpyAsync((char *)dst[q] + lo, (char *)src[g] + q * block + lo, len, cudaMemcpyDefault, s));
            CU(cuStreamWriteValue64(s, (CUdeviceptr)(cells[q] + 16 * (1 + c)), seq, CU_STREAM_WRITE_VALUE_DEFAULT));
          }
          if (mode == 0)
            reduce<<<sms, 512, 0, st[g][0]>>>((float4 *)dst[g], (const float4 *)((char *)src[g] + g * block), n4,
                                              chunks, cells[g] + 16, call);
          for (int s = 1; s <= lanes; s++) {
            CK(cudaEventRecord(join[g][s - 1], st[g][s]));
            CK(cudaStreamWaitEvent(st[g][0], join[g][s - 1], 0));
          }
        });
        long bad = -1;
        if (mode == 0) { // dest[g][i] = src[0][g-block][i] + src[1][g-block][i], checked on GPU 0's block
          float *h = (float *)malloc(block), *a = (float *)malloc(block), *b = (float *)malloc(block);
          CK(cudaMemcpy(h, dst[0], block, cudaMemcpyDefault));
          CK(cudaMemcpy(a, src[0], block, cudaMemcpyDefault));
          CK(cudaMemcpy(b, src[1], block, cudaMemcpyDefault));
          bad = 0;
          for (size_t i = 0; i < block / 4; i++) if (h[i] != a[i] + b[i]) bad++;
          free(h); free(a); free(b);
        }
        const char *what = mode == 0 ? "push+reduce" : mode == 1 ? "push only" : "entry only";
        printf("%-12s lanes %d chunks %3d: %8.2f us/call  %6.1f GB/s bus (one way %zu MB)%s%s\n", what, lanes, chunks,
               us, block / (us * 1e3), block >> 20, bad > 0 ? "  WRONG " : "", bad == 0 ? "  (checked)" : "");
      }
    }
  }
  return 0;
}
