// Probe for issue 19's device put 256 MB row: can copy-engine copies of a device put's pieces beat the SM
// stores? One process, two GPUs. Times, between events on GPU 0's stream: (sm) the perf kernel's shape,
// G blocks x 1024 threads each storing its piece `iters` times into GPU 1; (ce S) the same pieces as
// cudaMemcpyPeerAsync copies spread round-robin over S streams, joined by events.
#include "probe_put.cuh"
#include <chrono>
int main(){
  int n; CK(cudaGetDeviceCount(&n)); if (n < 2) { printf("need 2 GPUs\n"); return 0; }
  CK(cudaSetDevice(1)); CK(cudaDeviceEnablePeerAccess(0, 0));
  CK(cudaSetDevice(0)); CK(cudaDeviceEnablePeerAccess(1, 0));
  size_t maxb = 256ull << 20; char *src, *dst;
  CK(cudaMalloc(&src, maxb)); CK(cudaMemset(src, 1, maxb));
  CK(cudaSetDevice(1)); CK(cudaMalloc(&dst, maxb)); CK(cudaSetDevice(0));
  const int MAXS = 4; cudaStream_t st[MAXS]; cudaEvent_t a, b, j[MAXS];
  for (int s = 0; s < MAXS; s++) { CK(cudaStreamCreateWithFlags(&st[s], cudaStreamNonBlocking)); CK(cudaEventCreateWithFlags(&j[s], cudaEventDisableTiming)); }
  CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  printf("%10s %6s %9s %9s %9s %9s %9s\n", "bytes", "blocks", "sm", "ce1", "ce2", "ce4", "ce1x1");
  for (size_t bytes : {1ull << 20, 4ull << 20, 16ull << 20, 64ull << 20, 256ull << 20}) {
    int G = 32, iters = 10; size_t piece = bytes / G; double r[5];
    for (int mode = 0; mode < 5; mode++) {
      std::vector<float> t;
      for (int rep = 0; rep < 6; rep++) {
        CK(cudaDeviceSynchronize()); float ms;
        CK(cudaEventRecord(a, st[0]));
        if (mode == 0) plain_put<<<G, 1024, 0, st[0]>>>((int4*)dst, (const int4*)src, piece / 16, iters);
        else if (mode == 4) { for (int it = 0; it < iters; it++) CK(cudaMemcpyPeerAsync(dst, 1, src, 0, bytes, st[0])); }
        else {
          int S = mode == 1 ? 1 : mode == 2 ? 2 : 4;
          for (int s = 1; s < S; s++) { CK(cudaEventRecord(j[0], st[0])); CK(cudaStreamWaitEvent(st[s], j[0], 0)); }
          int k = 0;
          for (int it = 0; it < iters; it++) for (int g = 0; g < G; g++, k++)
            CK(cudaMemcpyPeerAsync(dst + g * piece, 1, src + g * piece, 0, piece, st[k % S]));
          for (int s = 1; s < S; s++) { CK(cudaEventRecord(j[s], st[s])); CK(cudaStreamWaitEvent(st[0], j[s], 0)); }
        }
        CK(cudaEventRecord(b, st[0])); CK(cudaEventSynchronize(b)); CK(cudaGetLastError());
        CK(cudaEventElapsedTime(&ms, a, b)); if (rep) t.push_back(ms);
      }
      r[mode] = bytes * (double)iters / (med(t) * 1e6);
    }
    printf("%10zu %6d %9.1f %9.1f %9.1f %9.1f %9.1f  GB/s\n", bytes, G, r[0], r[1], r[2], r[3], r[4]);
  }
  // host enqueue cost of one cudaMemcpyPeerAsync (8 MB pieces, stream busy)
  { int N = 320; size_t piece = 8ull << 20; CK(cudaDeviceSynchronize());
    auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < N; k++) CK(cudaMemcpyPeerAsync(dst + (k % 32) * piece, 1, src + (k % 32) * piece, 0, piece, st[0]));
    auto t1 = std::chrono::steady_clock::now(); CK(cudaDeviceSynchronize());
    printf("enqueue of %d copies: %.2f us each\n", N, std::chrono::duration<double, std::micro>(t1 - t0).count() / N); }
  printf("done\n"); return 0;
}
