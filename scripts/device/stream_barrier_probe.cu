// stream_barrier_probe.cu - a barrier between two GPUs on a stream, three ways, each PE in its own process as
// jshmem's PEs are (fork before CUDA starts; the barrier cells shared through CUDA IPC handles over a pipe):
//   batch   one cuStreamBatchMemOp per barrier: write g into the peer's cell (with the write's default memory
//           barrier, which orders the stream's earlier work before it), then wait until the own cell is >= g
//   pair    the same as cuStreamWriteValue64 then cuStreamWaitValue64: two calls
//   kernel  a one-block kernel per barrier (cuLaunchKernel): a relaxed system-scope store of g into the peer's
//           cell, then polling the own cell, as jshmem's barrier kernel at a stream boundary
// 1000 barriers back to back per repetition, timed on each PE's stream with events; microseconds per barrier
// (PE 0's median of 7 repetitions after a warm-up) and the host's enqueue time per barrier.
// Build: nvcc -O2 -arch=sm_90 -o stream_barrier stream_barrier_probe.cu -lcuda      Run: ./stream_barrier [cpu0 cpu1]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>
#include <cuda.h>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(err_)); exit(1); } } while (0)
#define CD(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char *m_; cuGetErrorString(r_, &m_); printf("%s: %s\n", #x, m_); exit(1); } } while (0)

__global__ void barrier_kernel(unsigned long long *peer_cell, const unsigned long long *own_cell, unsigned long long g) {
  if (threadIdx.x != 0) return;
  asm volatile("st.relaxed.sys.global.u64 [%0], %1;" ::"l"(peer_cell), "l"(g) : "memory");
  unsigned long long v;
  do {
    asm volatile("ld.relaxed.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(own_cell) : "memory");
  } while (v < g);
}

static double now_us() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int to_peer, from_peer;   // pipe ends
static void host_barrier() {
  char c = 0;
  if (write(to_peer, &c, 1) != 1 || read(from_peer, &c, 1) != 1) { printf("pipe broken\n"); exit(1); }
}

static void run(int me, int cpu) {
  if (cpu >= 0) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    sched_setaffinity(0, sizeof set, &set);
  }
  CK(cudaSetDevice(me));
  unsigned long long *cells;   // this PE's cells: [0] written by PE 0, [1] by PE 1
  CK(cudaMalloc(&cells, 4096));
  CK(cudaMemset(cells, 0, 4096));
  CK(cudaDeviceSynchronize());
  cudaIpcMemHandle_t mine, theirs;
  CK(cudaIpcGetMemHandle(&mine, cells));
  if (write(to_peer, &mine, sizeof mine) != sizeof mine || read(from_peer, &theirs, sizeof theirs) != sizeof theirs) exit(1);
  unsigned long long *peer_cells;
  CK(cudaIpcOpenMemHandle((void **)&peer_cells, theirs, cudaIpcMemLazyEnablePeerAccess));
  unsigned long long *peer_cell = peer_cells + me, *own_cell = cells + (1 - me);
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CUstream cs = (CUstream)s;
  cudaFunction_t rf;
  CK(cudaGetFuncBySymbol(&rf, (const void *)barrier_kernel));
  CUfunction f = (CUfunction)rf;
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  unsigned long long g = 0;
  const int n = 1000, reps = 7;
  const char *names[] = {"batch", "pair", "kernel"};
  for (int mode = 0; mode < 3; mode++) {
    std::vector<double> gpu, host;
    for (int r = 0; r <= reps; r++) {
      CK(cudaStreamSynchronize(s));
      host_barrier();
      CK(cudaEventRecord(a, s));
      double t0 = now_us();
      for (int i = 0; i < n; i++) {
        ++g;
        if (mode == 0) {
          CUstreamBatchMemOpParams p[2] = {};
          p[0].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_64;
          p[0].writeValue.address = (CUdeviceptr)peer_cell;
          p[0].writeValue.value64 = g;
          p[1].waitValue.operation = CU_STREAM_MEM_OP_WAIT_VALUE_64;
          p[1].waitValue.address = (CUdeviceptr)own_cell;
          p[1].waitValue.value64 = g;
          p[1].waitValue.flags = CU_STREAM_WAIT_VALUE_GEQ;
          CD(cuStreamBatchMemOp(cs, 2, p, 0));
        } else if (mode == 1) {
          CD(cuStreamWriteValue64(cs, (CUdeviceptr)peer_cell, g, 0));
          CD(cuStreamWaitValue64(cs, (CUdeviceptr)own_cell, g, CU_STREAM_WAIT_VALUE_GEQ));
        } else {
          void *args[] = {&peer_cell, &own_cell, &g};
          CD(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, cs, args, nullptr));
        }
      }
      double t1 = now_us();
      CK(cudaEventRecord(b, s));
      CK(cudaEventSynchronize(b));
      float ms;
      CK(cudaEventElapsedTime(&ms, a, b));
      if (r > 0) gpu.push_back(ms * 1e3 / n), host.push_back((t1 - t0) / n);
    }
    std::sort(gpu.begin(), gpu.end());
    std::sort(host.begin(), host.end());
    unsigned long long seen;
    CK(cudaMemcpy(&seen, own_cell, 8, cudaMemcpyDeviceToHost));
    host_barrier();
    if (me == 0)
      printf("%-7s %8.2f us per barrier (min %.2f max %.2f), host enqueue %.2f us; last cell %llu of %llu\n", names[mode],
             gpu[gpu.size() / 2], gpu.front(), gpu.back(), host[host.size() / 2], seen, g);
    fflush(stdout);
    host_barrier();
  }
  CK(cudaIpcCloseMemHandle(peer_cells));
}

int main(int argc, char **argv) {
  int cpu[2] = {argc > 2 ? atoi(argv[1]) : -1, argc > 2 ? atoi(argv[2]) : -1};
  int p01[2], p10[2];
  if (pipe(p01) != 0 || pipe(p10) != 0) return 1;
  pid_t child = fork();
  if (child == 0) {
    to_peer = p10[1], from_peer = p01[0];
    run(1, cpu[1]);
    return 0;
  }
  to_peer = p01[1], from_peer = p10[0];
  run(0, cpu[0]);
  int status = 0;
  waitpid(child, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
