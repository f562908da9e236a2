// A user kernel on jshmem's device library (UserKernel.java compiles it at run time).
// One block per PE: it fills this PE's src, sends it to the right neighbour with a put-with-signal,
// then waits for the data its left neighbour sends. The same source builds for CUDA and HIP.
#include <jshmem/jshmem.h>

extern "C" __global__ void ring_put(int *dst, int *src, size_t n, uint64_t *arrived, uint64_t signal) {
  int me = jshmem_my_pe();
  int right = (me + 1) % jshmem_n_pes();

  // this PE's data: element i is me * 1000000 + i
  for (size_t i = threadIdx.x; i < n; i += blockDim.x)
    src[i] = me * 1000000 + (int)i;
  __syncthreads();

  // the whole block copies src into the right neighbour's dst; then one thread sets the neighbour's
  // `arrived` to `signal`, after the data (the _block form synchronises the block in between)
  jshmem_int_put_signal_block(dst, src, n, arrived, signal, JSHMEM_SIGNAL_SET, right);

  // wait until the left neighbour's data is here: the wait makes it visible to the waiting
  // thread, and __syncthreads() to the rest of the block
  if (threadIdx.x == 0)
    jshmem_signal_wait_until(arrived, JSHMEM_CMP_EQ, signal);
  __syncthreads();
}
