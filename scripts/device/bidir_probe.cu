// bidir_probe.cu - how much NVLink carries per direction when both GPUs send at once (issue 19's
// 64 MB rows): copy-engine copies on 1, 2 or 4 streams per direction, an SM push kernel, and a copy
// engine beside a local copy (what fcollect does with a PE's own piece) by the SMs or by a second copy
// engine, each one way and both ways. One process drives both GPUs. Build: nvcc -O2 -arch=sm_90 -o bidir bidir_probe.cu
#include <cstdio>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(err_)); return 1; } } while (0)

__global__ void push(int4 *dst, const int4 *src, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) dst[i] = src[i];
}

int main() {
  const size_t bytes = 64ull << 20;
  const int reps = 20;
  void *buf[2][2], *loc[2][2];
  cudaStream_t st[2][4];
  cudaEvent_t t0[2], t1[2];
  for (int g = 0; g < 2; g++) {
    CK(cudaSetDevice(g));
    CK(cudaDeviceEnablePeerAccess(1 - g, 0));
    for (int b = 0; b < 2; b++) { CK(cudaMalloc(&buf[g][b], bytes)); CK(cudaMemset(buf[g][b], g + 1, bytes)); }
    for (int b = 0; b < 2; b++) { CK(cudaMalloc(&loc[g][b], bytes)); CK(cudaMemset(loc[g][b], g + 1, bytes)); }
    for (int s = 0; s < 4; s++) CK(cudaStreamCreateWithFlags(&st[g][s], cudaStreamNonBlocking));
    CK(cudaEventCreate(&t0[g])); CK(cudaEventCreate(&t1[g]));
  }
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  // mode: 1,2,4 = copy engines on that many streams; -1 = SM push kernel; -2 / -3 = one copy engine
  // beside a local copy of as many bytes by an SM kernel / by a copy engine; dirs: 1 = GPU0->GPU1, 2 = both
  int modes[] = {1, 2, 4, -1, -2, -3};
  for (int dirs = 1; dirs <= 2; dirs++) {
    for (int mode : modes) {
      for (int g = 0; g < 2; g++) { CK(cudaSetDevice(g)); CK(cudaDeviceSynchronize()); }
      for (int g = 0; g < dirs; g++) { CK(cudaSetDevice(g)); CK(cudaEventRecord(t0[g], st[g][0])); }
      for (int r = 0; r < reps; r++) {
        for (int g = 0; g < dirs; g++) {
          CK(cudaSetDevice(g));
          char *dst = (char *)buf[1 - g][1], *src = (char *)buf[g][0];
          if (mode == -1) {
            push<<<sms, 1024, 0, st[g][0]>>>((int4 *)dst, (const int4 *)src, bytes / 16);
          } else if (mode < -1) {
            if (r == 0) { cudaEvent_t e; CK(cudaEventCreate(&e)); CK(cudaEventRecord(e, st[g][0])); CK(cudaStreamWaitEvent(st[g][1], e, 0)); }
            CK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, st[g][0]));
            if (mode == -2)
              push<<<sms, 1024, 0, st[g][1]>>>((int4 *)loc[g][1], (const int4 *)loc[g][0], bytes / 16);
            else
              CK(cudaMemcpyAsync(loc[g][1], loc[g][0], bytes, cudaMemcpyDefault, st[g][1]));
          } else {
            size_t part = bytes / mode;
            for (int s = 0; s < mode; s++) {
              if (s > 0 && r == 0) { cudaEvent_t e; CK(cudaEventCreate(&e)); CK(cudaEventRecord(e, st[g][0])); CK(cudaStreamWaitEvent(st[g][s], e, 0)); }
              CK(cudaMemcpyAsync(dst + s * part, src + s * part, part, cudaMemcpyDefault, st[g][s]));
            }
          }
        }
      }
      for (int g = 0; g < dirs; g++) {
        CK(cudaSetDevice(g));
        for (int s = 1; s < 4; s++) { cudaEvent_t e; CK(cudaEventCreate(&e)); CK(cudaEventRecord(e, st[g][s])); CK(cudaStreamWaitEvent(st[g][0], e, 0)); }
        CK(cudaEventRecord(t1[g], st[g][0]));
      }
      for (int g = 0; g < dirs; g++) {
        CK(cudaSetDevice(g)); CK(cudaEventSynchronize(t1[g]));
        float ms = 0; CK(cudaEventElapsedTime(&ms, t0[g], t1[g]));
        printf("%s %-13s GPU%d->GPU%d: %6.1f GB/s\n", dirs == 1 ? "one way " : "both ways",
               mode == -1 ? "SM push" : mode == -2 ? "CE+local SM" : mode == -3 ? "CE+local CE"
               : (mode == 1 ? "CE 1 stream" : mode == 2 ? "CE 2 streams" : "CE 4 streams"),
               g, 1 - g, bytes * (double)reps / (ms * 1e6));
      }
    }
  }
  return 0;
}
