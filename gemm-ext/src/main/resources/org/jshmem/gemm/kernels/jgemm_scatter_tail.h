/*
 * jgemm_scatter_tail.h - the last chunk of the all-scatter by the copy engines (scatter_rows > 0,
 * org.jshmem.gemm.GpuKernelExecutor). A copy stream takes each earlier chunk to the peers while the GEMM
 * still runs; the last chunk's tiles all end in the GEMM's last wave, so its copy is the call's tail.
 * This kernel, queued on the caller's stream right after the GEMM, copies it with every SM, then signals
 * the peers and waits for their signals: one launch, where the copy stream took a stamp wait, a copy, a
 * signal, an event and a wait, 3-12 us each after the copy on 2 x H200 (docs/benchmarks/gpu-2xh200/
 * session-2026-11-28j, call A).
 */
#ifndef JGEMM_SCATTER_TAIL_H
#define JGEMM_SCATTER_TAIL_H

#include "jgemm.h"

/* Threads per block (org.jshmem.gemm.GpuKernelExecutor launches this many, and as many blocks as fit at once):
 * a row of 4096 fp16 columns is 16 bytes a thread; 64 registers, two blocks per SM on sm_90a. */
#define JGEMM_TAIL_THREADS 512

/*
 * Block b copies rows row0 + b, row0 + b + grid, ... (below row0 + rows) of this PE's columns of C (width
 * bytes from byte col of each row of pitch bytes; c is the symmetric C) into the same place in every peer's
 * C. On 2 x H200, 1024 rows of 8 KB took 32-33 us with 264 blocks, 36 with a block a row, and calls were
 * 7-12 us shorter than with the copy stream's tail (docs/benchmarks/gpu-2xh200/session-2026-11-30f). The
 * blocks count themselves out (count; acquire-release at system scope, so every block's stores to the peers
 * are visible before the last one's stamps; reset for the next call). The last waits until the copy stream
 * has copied the earlier chunks (*copied >= gen; copied null: there were none), stamps arrived[my_pe] = gen
 * on every peer and waits for arrived[q] >= gen from every peer q: when the kernel ends, C is whole on this
 * PE and this PE's columns are in every peer's C.
 */
extern "C" __global__ void __launch_bounds__(JGEMM_TAIL_THREADS)
    jgemm_scatter_tail(char *c, long long pitch, long long col, long long width, int row0, int rows,
                       unsigned long long *arrived, const unsigned long long *copied, unsigned long long *count,
                       unsigned long long gen, int my_pe, int n_pes) {
  for (int r = blockIdx.x; r < rows; r += gridDim.x) {
    const char *row = c + (row0 + (long long)r) * pitch + col;
    for (int i = 1; i < n_pes; ++i) /* rotated: the PEs do not all copy into one peer at once */
      jshmem_putmem_nbi_block((void *)row, row, (size_t)width, (my_pe + i) % n_pes);
  }
  jshmemi_group_release_fence();
  __syncthreads();
  if (threadIdx.x != 0 || jshmemi_fetch_add_acq_rel_sys(count, 1) + 1 != gridDim.x) return;
  *count = 0; /* the next call's tail comes after this kernel on the stream */
  if (copied) jgemm_wait_stamp(copied, gen);
  for (int i = 1; i < n_pes; ++i)
    jgemm_stamp((unsigned long long *)jshmem_ptr(arrived + my_pe, (my_pe + i) % n_pes), gen);
  for (int i = 1; i < n_pes; ++i) jgemm_wait_stamp(arrived + (my_pe + i) % n_pes, gen);
}

#endif /* JGEMM_SCATTER_TAIL_H */
