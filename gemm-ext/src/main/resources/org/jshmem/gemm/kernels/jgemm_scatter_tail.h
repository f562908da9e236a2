/*
 * jgemm_scatter_tail.h - the end of the all-scatter by the copy engines (scatter_rows > 0,
 * org.jshmem.gemm.GpuKernelExecutor). A copy stream takes each chunk but the last to the peers while the
 * GEMM still runs; the last chunk's tiles all end in the GEMM's last wave, so the kernel's sender stores
 * them into the peers as they end (jgemm_chunk_by_engines), and counts them into the chunk's record. This
 * kernel, one thread queued on the caller's stream right after the GEMM, then signals the peers and waits
 * for their signals: one launch, where a stream memory operation per wait and signal cost several
 * microseconds each.
 */
#ifndef JGEMM_SCATTER_TAIL_H
#define JGEMM_SCATTER_TAIL_H

#include "jgemm.h"

/*
 * Waits until the last chunk's tiles are in every peer's C (*last >= gen: its record's `done`) and the
 * copy stream has copied the earlier chunks (*copied >= gen; copied null: there were none), stamps
 * arrived[my_pe] = gen on every peer and waits for arrived[q] >= gen from every peer q: when the kernel
 * ends, C is whole on this PE and this PE's columns are in every peer's C.
 */
extern "C" __global__ void jgemm_scatter_tail(unsigned long long *arrived, const unsigned long long *last,
                                              const unsigned long long *copied, unsigned long long gen, int my_pe,
                                              int n_pes) {
  if (threadIdx.x != 0) return;
  jgemm_wait_stamp(last, gen);
  if (copied) jgemm_wait_stamp(copied, gen);
  for (int i = 1; i < n_pes; ++i) /* rotated: the PEs do not all stamp one peer at once */
    jgemm_stamp((unsigned long long *)jshmem_ptr(arrived + my_pe, (my_pe + i) % n_pes), gen);
  for (int i = 1; i < n_pes; ++i) jgemm_wait_stamp(arrived + (my_pe + i) % n_pes, gen);
}

#endif /* JGEMM_SCATTER_TAIL_H */
