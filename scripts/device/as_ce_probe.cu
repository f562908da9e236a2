// as_ce_probe.cu - does a GEMM slow down less when its output goes to the peer GPU through the copy
// engines than through the SMs' stores? (issue 19's Stream-K + all-scatter, fp16 8192^3 on 2 GPUs:
// the fused kernel stores each finished tile into the peer's C from the SM and runs 12-20% over the
// GEMM alone.) One process drives both GPUs, both at once. Each GPU computes its column half of the
// row-major C = A B (8192x4096x8192, cuBLAS) in `chunks` row blocks; per configuration:
//   alone       the row blocks, nothing sent
//   ce          after each row block, a second stream waits for it and copies it into the peer's C
//               (cudaMemcpy2DAsync peer to peer: the copy engines)
//   ce-after    the row blocks, then the whole half copied at the end (nothing overlapped)
// Microseconds per call, the mean over `reps` back-to-back calls after 20 warm-up calls (long runs
// reach the power cap, as the fused kernel's sustained runs do); the copies' bytes checked once.
// Build: nvcc -O2 -arch=sm_90 -o as_ce as_ce_probe.cu -lcublas
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(err_)); exit(1); } } while (0)
#define CB(x) do { cublasStatus_t s_ = (x); if (s_ != CUBLAS_STATUS_SUCCESS) { printf("%s: %d\n", #x, (int)s_); exit(1); } } while (0)

static const int N = 8192, HALF = 4096, K = 8192;
static __half *A[2], *B[2], *C[2];
static cudaStream_t gemm_st[2], copy_st[2];
static cudaEvent_t done_rows[2][64], copied[2];
static cublasHandle_t blas[2];

__global__ void fill(__half *p, size_t n, int seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    p[i] = __float2half((float)((i * 2654435761u + seed) % 17) / 16.f - 0.5f);
}

// GPU g's rows [r0, r0 + rows) of its column half: row-major C = A B, as column-major C^T = B^T A^T
static void gemm_rows(int g, int r0, int rows) {
  const float one = 1.f, zero = 0.f;
  CB(cublasGemmEx(blas[g], CUBLAS_OP_N, CUBLAS_OP_N, HALF, rows, K, &one, B[g], CUDA_R_16F, HALF,
                  A[g] + (size_t)r0 * K, CUDA_R_16F, K, &zero, C[g] + (size_t)r0 * N + g * HALF, CUDA_R_16F, N,
                  CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

static void copy_rows(int g, int r0, int rows, cudaStream_t s) {
  size_t off = (size_t)r0 * N + g * HALF;
  CK(cudaMemcpy2DAsync(C[1 - g] + off, N * 2, C[g] + off, N * 2, HALF * 2, rows, cudaMemcpyDeviceToDevice, s));
}

// one call on both GPUs; mode 0 alone, 1 ce, 2 ce-after
static void call(int mode, int chunks) {
  int per = N / chunks;
  for (int c = 0; c < chunks; c++) {
    for (int g = 0; g < 2; g++) {
      CK(cudaSetDevice(g));
      gemm_rows(g, c * per, per);
      if (mode == 1) {
        CK(cudaEventRecord(done_rows[g][c], gemm_st[g]));
        CK(cudaStreamWaitEvent(copy_st[g], done_rows[g][c], 0));
        copy_rows(g, c * per, per, copy_st[g]);
      }
    }
  }
  for (int g = 0; g < 2; g++) {
    CK(cudaSetDevice(g));
    if (mode == 2) copy_rows(g, 0, N, gemm_st[g]);
    if (mode == 1) { // the call ends when both halves are in both C
      CK(cudaEventRecord(copied[g], copy_st[g]));
    }
  }
  if (mode == 1)
    for (int g = 0; g < 2; g++) {
      CK(cudaSetDevice(g));
      CK(cudaStreamWaitEvent(gemm_st[g], copied[0], 0));
      CK(cudaStreamWaitEvent(gemm_st[g], copied[1], 0));
    }
}

static double run(int mode, int chunks, int reps) {
  for (int i = 0; i < 20; i++) call(mode, chunks);
  for (int g = 0; g < 2; g++) { CK(cudaSetDevice(g)); CK(cudaDeviceSynchronize()); }
  cudaEvent_t t0, t1;
  CK(cudaSetDevice(0));
  CK(cudaEventCreate(&t0));
  CK(cudaEventCreate(&t1));
  CK(cudaEventRecord(t0, gemm_st[0]));
  for (int i = 0; i < reps; i++) call(mode, chunks);
  CK(cudaSetDevice(1));
  cudaEvent_t e1;
  CK(cudaEventCreate(&e1));
  CK(cudaEventRecord(e1, gemm_st[1]));
  CK(cudaSetDevice(0));
  CK(cudaStreamWaitEvent(gemm_st[0], e1, 0));
  CK(cudaEventRecord(t1, gemm_st[0]));
  CK(cudaEventSynchronize(t1));
  float ms = 0;
  CK(cudaEventElapsedTime(&ms, t0, t1));
  return ms * 1000.0 / reps;
}

// both halves equal in both C (the peer's half arrived whole)
static bool check() {
  size_t bytes = (size_t)N * N * 2;
  __half *h0 = (__half *)malloc(bytes), *h1 = (__half *)malloc(bytes);
  CK(cudaSetDevice(0));
  CK(cudaMemcpy(h0, C[0], bytes, cudaMemcpyDeviceToHost));
  CK(cudaSetDevice(1));
  CK(cudaMemcpy(h1, C[1], bytes, cudaMemcpyDeviceToHost));
  bool same = memcmp(h0, h1, bytes) == 0;
  free(h0);
  free(h1);
  return same;
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 200;
  for (int g = 0; g < 2; g++) {
    CK(cudaSetDevice(g));
    CK(cudaDeviceEnablePeerAccess(1 - g, 0));
    CK(cudaMalloc(&A[g], (size_t)N * K * 2));
    CK(cudaMalloc(&B[g], (size_t)K * HALF * 2));
    CK(cudaMalloc(&C[g], (size_t)N * N * 2));
    fill<<<264, 512>>>(A[g], (size_t)N * K, 1);
    fill<<<264, 512>>>(B[g], (size_t)K * HALF, 7 + g);
    CK(cudaStreamCreateWithFlags(&gemm_st[g], cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&copy_st[g], cudaStreamNonBlocking));
    for (int c = 0; c < 64; c++) CK(cudaEventCreateWithFlags(&done_rows[g][c], cudaEventDisableTiming));
    CK(cudaEventCreateWithFlags(&copied[g], cudaEventDisableTiming));
    CB(cublasCreate(&blas[g]));
    CB(cublasSetStream(blas[g], gemm_st[g]));
    CK(cudaDeviceSynchronize());
  }
  const char *names[] = {"alone", "ce", "ce-after"};
  printf("config,chunks,us_per_call,tflops_per_gpu\n");
  for (int round = 0; round < 2; round++)
    for (int chunks : {1, 4, 8, 16})
      for (int mode = 0; mode < 3; mode++) {
        if (chunks == 1 && mode == 1) continue;
        if (chunks > 1 && mode == 2) continue;
        double us = run(mode, chunks, reps);
        printf("%s,%d,%.1f,%.1f\n", names[mode], chunks, us, 2.0 * N * HALF * K / us / 1e6);
        fflush(stdout);
      }
  call(1, 8);
  for (int g = 0; g < 2; g++) { CK(cudaSetDevice(g)); CK(cudaDeviceSynchronize()); }
  printf("check (ce, 8 chunks): both GPUs' C identical: %s\n", check() ? "PASS" : "FAIL");
  return 0;
}
