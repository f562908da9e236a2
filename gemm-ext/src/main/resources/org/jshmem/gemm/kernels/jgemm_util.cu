/*
 * jgemm_util.cu - small kernels around the GEMM: deterministic test data, validation sums, and the
 * reference path's column unpacking. One source for CUDA and HIP.
 */
#include "jgemm.h"

/* A value in [-1, 1) from a 64-bit index (splitmix64); org.jshmem.gemm.TestMatrices does the same. */
JSHMEM_DEVICE_INLINE float jgemm_hash_value(unsigned long long seed, unsigned long long i) {
  unsigned long long z = seed ^ (i * 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return (float)(z >> 40) * (1.0f / 8388608.0f) - 1.0f;
}

/* x[r][c] (rows x cols, ld elements per row) = the value of global element (r + row0, c + col0) of a
 * matrix with global_cols columns. */
extern "C" __global__ void jgemm_fill(jgemm_t *x, int rows, int cols, long long ld, int row0, int col0,
                                      long long global_cols, unsigned long long seed) {
  long long n = (long long)rows * cols;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    long long r = i / cols, c = i % cols;
    unsigned long long g = (unsigned long long)((r + row0) * global_cols + c + col0);
    x[r * ld + c] = jgemm_elem::store(jgemm_hash_value(seed, g));
  }
}

/* Sets n elements to a NaN pattern, so an element no kernel writes fails validation. */
extern "C" __global__ void jgemm_poison(jgemm_t *x, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    x[i] = (jgemm_t)0x7fff;
  }
}

/* x (rows x cols, dense) against the block of ref (ref_ld elements a row) at (row0, col0):
 * sums[0] += sum (x - ref)^2, sums[1] += sum ref^2, sums[2] += count of non-finite x (as doubles). */
extern "C" __global__ void jgemm_compare(const jgemm_t *x, const jgemm_t *ref, int rows, int cols, long long ref_ld,
                                         int row0, int col0, double *sums) {
  double d2 = 0, r2 = 0, bad = 0;
  long long n = (long long)rows * cols;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    long long r = i / cols, c = i % cols;
    float xv = jgemm_elem::load(x[i]), rv = jgemm_elem::load(ref[(r + row0) * ref_ld + c + col0]);
    if (!(xv - xv == 0.0f)) {
      bad += 1;
    } else {
      double d = (double)xv - (double)rv;
      d2 += d * d;
      r2 += (double)rv * rv;
    }
  }
  atomicAdd(&sums[0], d2);
  atomicAdd(&sums[1], r2);
  atomicAdd(&sums[2], bad);
}

/* The reference all-scatter's last step: `gathered` holds every PE's m x n_p block one after the
 * other (ShardLayout's split of n over n_pes); writes them side by side into C (m x n). */
extern "C" __global__ void jgemm_unpack_columns(const jgemm_t *gathered, jgemm_t *c, int m, int n, int n_pes) {
  int base = n / n_pes, extra = n % n_pes;
  long long total = (long long)m * n;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < total; i += (long long)gridDim.x * blockDim.x) {
    int r = (int)(i / n), col = (int)(i % n);
    int pe = col < extra * (base + 1) ? col / (base + 1) : extra + (col - extra * (base + 1)) / base;
    int off = pe * base + (pe < extra ? pe : extra);
    int width = base + (pe < extra ? 1 : 0);
    c[i] = gathered[(long long)m * off + (long long)r * width + (col - off)];
  }
}
