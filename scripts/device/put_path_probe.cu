// Probe for issue 19's device put 256 MB row: jshmem's put (356 GB/s) against a plain kernel of the same
// shape (370 GB/s in ce_offload_probe.cu, one process). Two processes (fork before CUDA): the child
// allocates a buffer on GPU 1 and exports it (cudaIpc); the parent, on GPU 0, puts into it and, for
// comparison, into a buffer of its own on GPU 1 through peer access. Kernels: "plain" (the probe's
// loop, pointers from parameters) and "jshmem" (jshmem's block copy, jshmemi_group_copy<BLOCK>).
#include "probe_put.cuh"
#include <unistd.h>
#include <sys/wait.h>
#include <jshmem/jshmem.h>
__global__ void __launch_bounds__(1024) jshmem_put(char* dst, const char* src, size_t piece, int iters){
  size_t off = piece * blockIdx.x;
  for (int it = 0; it < iters; it++) jshmemi_group_copy<JSHMEMI_BLOCK>(dst + off, src + off, piece);
  __threadfence_system();
}
/* The perf kernel's body (perf_kernels.cu perf_put_bw), through the device API and a state whose
 * heap is `src` and whose PE 1 maps at the IPC buffer. */
__global__ void __launch_bounds__(1024) api_put(char* dst, const char* src, size_t piece, int iters){
  size_t off = piece * blockIdx.x;
  for (int it = 0; it < iters; it++) jshmem_putmem_nbi_block(dst + off, src + off, piece, 1);
  jshmem_quiet();
}
int main(){
  const size_t maxb = 256ull << 20; int down[2], up[2]; if (pipe(down) || pipe(up)) return 1;
  pid_t child = fork();
  if (child == 0) {
    CK(cudaSetDevice(1)); void* buf; CK(cudaMalloc(&buf, maxb)); cudaIpcMemHandle_t h; CK(cudaIpcGetMemHandle(&h, buf));
    if (write(up[1], &h, sizeof h) != sizeof h) return 1; char c; if (read(down[0], &c, 1) != 1) return 1; return 0;
  }
  cudaIpcMemHandle_t h; if (read(up[0], &h, sizeof h) != sizeof h) return 1;
  CK(cudaSetDevice(0)); void* ipc; CK(cudaIpcOpenMemHandle(&ipc, h, cudaIpcMemLazyEnablePeerAccess));
  char* src; CK(cudaMalloc(&src, maxb)); CK(cudaMemset(src, 1, maxb));
  CK(cudaSetDevice(1)); char* own; CK(cudaMalloc(&own, maxb)); CK(cudaSetDevice(0)); CK(cudaDeviceEnablePeerAccess(1, 0));
  { jshmem_device_state_t s{}; s.my_pe = 0; s.n_pes = 2; s.heap_size = maxb; s.heap_base = src;
    s.peer_base[0] = src; s.peer_base[1] = (char*)ipc; CK(cudaMemcpyToSymbol(jshmem_device_state, &s, sizeof s)); }
  cudaStream_t st; CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking)); cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  printf("%10s %12s %12s %12s %12s %12s\n", "bytes", "plain/ipc", "jshmem/ipc", "plain/peer", "jshmem/peer", "api/ipc");
  for (size_t bytes : {1ull << 20, 16ull << 20, 64ull << 20, 256ull << 20}) {
    int G = 32, iters = 10; size_t piece = bytes / G; double r[5];
    for (int mode = 0; mode < 5; mode++) {
      char* dst = mode < 2 ? (char*)ipc : own; std::vector<float> t;
      for (int rep = 0; rep < 7; rep++) {
        CK(cudaDeviceSynchronize()); float ms; CK(cudaEventRecord(a, st));
        if (mode == 4) api_put<<<G, 1024, 0, st>>>(src, src, piece, iters);
        else if (mode % 2 == 0) plain_put<<<G, 1024, 0, st>>>((int4*)dst, (const int4*)src, piece / 16, iters);
        else jshmem_put<<<G, 1024, 0, st>>>(dst, src, piece, iters);
        CK(cudaEventRecord(b, st)); CK(cudaEventSynchronize(b)); CK(cudaGetLastError());
        CK(cudaEventElapsedTime(&ms, a, b)); if (rep) t.push_back(ms);
      }
      r[mode] = bytes * (double)iters / (med(t) * 1e6);
    }
    printf("%10zu %12.1f %12.1f %12.1f %12.1f %12.1f  GB/s\n", bytes, r[0], r[1], r[2], r[3], r[4]);
  }
  CK(cudaIpcCloseMemHandle(ipc)); if (write(down[1], "x", 1) != 1) return 1; waitpid(child, nullptr, 0);
  printf("done\n"); return 0;
}
