// tma_put_probe.cu - a block's put to the peer GPU by its threads' stores (as jshmem_putmem_nbi_block does) or by
// the bulk-copy engine (cp.async.bulk through a ring of shared-memory buffers, one thread issuing), for issue 19's
// device put rows (1 MB >= 300 GB/s, 256 MB >= 375). Timed as the NVSHMEM anchor times its put_bw: G blocks, each
// puts its chunk `iters` times, events around one launch. One process drives both GPUs (peer access).
// Build: nvcc -O3 -std=c++17 -arch=sm_90a -o tma_put tma_put_probe.cu && ./tma_put [threads]
// (`threads`: only the threads' stores on 32 blocks, the anchor's grid.)
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(err_)); return 1; } } while (0)

// The threads' stores: 16-byte words, 4 loads in flight per thread, then the stores (jshmem_copy.h's loop).
__global__ void __launch_bounds__(1024) put_threads(char *dst, const char *src, size_t bytes, int iters) {
  size_t chunk = ((bytes + gridDim.x - 1) / gridDim.x + 15) & ~(size_t)15, off = chunk * blockIdx.x;
  if (off >= bytes) return;
  size_t n = (bytes - off < chunk ? bytes - off : chunk) / 16;
  int4 *d = (int4 *)(dst + off);
  const int4 *s = (const int4 *)(src + off);
  for (int it = 0; it < iters; it++) {
    size_t i = threadIdx.x, nt = blockDim.x;
    for (; i + 3 * nt < n; i += 4 * nt) {
      int4 w0 = s[i], w1 = s[i + nt], w2 = s[i + 2 * nt], w3 = s[i + 3 * nt];
      d[i] = w0; d[i + nt] = w1; d[i + 2 * nt] = w2; d[i + 3 * nt] = w3;
    }
    for (; i < n; i += nt) d[i] = s[i];
  }
  __threadfence_system();
}

__device__ __forceinline__ uint32_t smem(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

// The bulk-copy engine: NBUF buffers of CH bytes; chunk c is loaded into buffer c % NBUF (mbarrier), then stored
// to the peer (bulk group); a buffer is loaded again once at most LAG later stores are still reading.
template <int NBUF, int CH, int LAG>
__global__ void __launch_bounds__(32) put_bulk(char *dst, const char *src, size_t bytes, int iters) {
  extern __shared__ __align__(128) char buf[];
  __shared__ __align__(8) uint64_t bar[NBUF];
  size_t chunk = ((bytes + gridDim.x - 1) / gridDim.x + 15) & ~(size_t)15, off = chunk * blockIdx.x;
  if (off >= bytes || threadIdx.x != 0) return;
  size_t len = bytes - off < chunk ? bytes - off : chunk;
  long per = (long)((len + CH - 1) / CH), total = per * iters;
  for (int b = 0; b < NBUF; b++) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem(&bar[b])) : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  auto piece = [&](long c, size_t &o, uint32_t &n) {
    o = (size_t)(c % per) * CH;
    n = (uint32_t)(len - o < (size_t)CH ? len - o : (size_t)CH);
  };
  auto load = [&](long c) {
    size_t o; uint32_t n; piece(c, o, n);
    int b = (int)(c % NBUF);
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem(&bar[b])), "r"(n) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 ::"r"(smem(buf + (size_t)b * CH)), "l"(src + off + o), "r"(n), "r"(smem(&bar[b])) : "memory");
  };
  for (long c = 0; c < NBUF && c < total; c++) load(c);
  for (long c = 0; c < total; c++) {
    int b = (int)(c % NBUF);
    uint32_t parity = (uint32_t)((c / NBUF) & 1), done = 0;
    while (!done)
      asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                   : "=r"(done) : "r"(smem(&bar[b])), "r"(parity) : "memory");
    size_t o; uint32_t n; piece(c, o, n);
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
                 ::"l"(dst + off + o), "r"(smem(buf + (size_t)b * CH)), "r"(n) : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    long next = c - LAG + NBUF;   // reload the buffer of chunk c - LAG once its store has read it
    if (c >= LAG && next < total) {
      asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(LAG) : "memory");
      load(next);
    }
  }
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  __threadfence_system();
}

template <int NBUF, int CH, int LAG>
int setup_bulk() {
  CK(cudaFuncSetAttribute(put_bulk<NBUF, CH, LAG>, cudaFuncAttributeMaxDynamicSharedMemorySize, NBUF * CH));
  return 0;
}

int main(int argc, char **argv) {
  bool threads_only = argc > 1 && strcmp(argv[1], "threads") == 0;
  const size_t maxb = 256ull << 20;
  char *src, *dst, *peer;
  CK(cudaSetDevice(1));
  CK(cudaMalloc(&peer, maxb));
  CK(cudaSetDevice(0));
  CK(cudaDeviceEnablePeerAccess(1, 0));
  CK(cudaMalloc(&src, maxb));
  CK(cudaMalloc(&dst, maxb));
  CK(cudaMemset(src, 7, maxb));
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  if (setup_bulk<4, 32768, 2>() || setup_bulk<6, 32768, 3>() || setup_bulk<8, 16384, 4>() || setup_bulk<3, 65536, 1>())
    return 1;
  struct V { const char *name; int kind; };
  V vs[] = {{"threads", 0}, {"bulk 4x32K lag2", 1}, {"bulk 6x32K lag3", 2}, {"bulk 8x16K lag4", 3},
            {"bulk 3x64K lag1", 4}};
  size_t sizes[] = {64ull << 10, 256ull << 10, 1ull << 20, 4ull << 20, 16ull << 20, 64ull << 20, 256ull << 20};
  printf("kernel,blocks,bytes,iters,us,GBs\n");
  for (int grid : {32, 132}) {
    if (threads_only && grid != 32) continue;
    for (size_t bytes : sizes) {
      int iters = bytes < (1u << 20) ? 100 : 10;
      int g = bytes >= (1u << 20) ? grid : 4;
      if (bytes < (1u << 20) && grid != 32) continue;
      for (int round = 0; round < 2; round++) {
        for (const V &v : vs) {
          if (threads_only && v.kind != 0) continue;
          char *to = peer;
          float best = 1e30f, ts[5];
          for (int r = -1; r < 5; r++) {
            CK(cudaEventRecord(a, st));
            switch (v.kind) {
              case 0: put_threads<<<g, 1024, 0, st>>>(to, src, bytes, iters); break;
              case 1: put_bulk<4, 32768, 2><<<g, 32, 4 * 32768, st>>>(to, src, bytes, iters); break;
              case 2: put_bulk<6, 32768, 3><<<g, 32, 6 * 32768, st>>>(to, src, bytes, iters); break;
              case 3: put_bulk<8, 16384, 4><<<g, 32, 8 * 16384, st>>>(to, src, bytes, iters); break;
              case 4: put_bulk<3, 65536, 1><<<g, 32, 3 * 65536, st>>>(to, src, bytes, iters); break;
            }
            CK(cudaGetLastError());
            CK(cudaEventRecord(b, st));
            CK(cudaEventSynchronize(b));
            float ms;
            CK(cudaEventElapsedTime(&ms, a, b));
            if (r >= 0) ts[r] = ms;
          }
          for (int i = 0; i < 5; i++)
            for (int j = i + 1; j < 5; j++)
              if (ts[j] < ts[i]) { float t = ts[i]; ts[i] = ts[j]; ts[j] = t; }
          best = ts[2];
          printf("%s,%d,%zu,%d,%.2f,%.1f\n", v.name, g, bytes, iters, best * 1e3, bytes * (double)iters / (best * 1e6));
        }
      }
      // check: the peer's copy equals the source (the last variant's)
      CK(cudaMemsetAsync(peer, 0, bytes, st));
      put_bulk<4, 32768, 2><<<g, 32, 4 * 32768, st>>>(peer, src, bytes, 1);
      CK(cudaStreamSynchronize(st));
      CK(cudaMemcpy(dst, peer, bytes, cudaMemcpyDefault));
      char *h = (char *)malloc(bytes);
      CK(cudaMemcpy(h, dst, bytes, cudaMemcpyDeviceToHost));
      size_t bad = 0;
      for (size_t i = 0; i < bytes; i++) bad += h[i] != 7;
      free(h);
      if (bad) printf("CHECK FAILED: %zu of %zu bytes wrong after the bulk put\n", bad, bytes);
    }
  }
  return 0;
}
