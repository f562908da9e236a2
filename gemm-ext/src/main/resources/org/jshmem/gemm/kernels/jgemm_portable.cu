/*
 * jgemm_portable.cu - the portable Stream-K GEMM kernel: persistent work-groups walk the schedule
 * (jgemm.h); each unit's K-iterations stream through a JGEMM_STAGES-deep shared-memory pipeline
 * into the warps' tensor-core tiles (jgemm_mma.h: mma.sync on CUDA sm_80+, MFMA on AMD); the
 * accumulators go to an fp32 shared tile and the shared epilogue (jgemm_epilogue.h) fixes up and
 * publishes. One source for CUDA and HIP; compiled at run time with the tile as macros.
 *
 * Macros: JGEMM_BM x JGEMM_BN x JGEMM_BK tile (BM, BN multiples of 64; BK 32 or 64), JGEMM_STAGES
 * (>= 2), JGEMM_THREADS (256: 8 warps as 2 x 4 on CUDA, 4 wavefronts as 2 x 2 on AMD), JGEMM_DTYPE.
 * Shared memory (dynamic): JGEMM_PORTABLE_SMEM_BYTES, the larger of the pipeline and the epilogue
 * tiles (they reuse the same bytes).
 */
#include "jgemm_mma.h"
#include "jgemm_epilogue.h"

#ifndef JGEMM_STAGES
#define JGEMM_STAGES 4
#endif
#ifndef JGEMM_THREADS
#define JGEMM_THREADS 256
#endif
#if JGEMM_THREADS != 256 || JGEMM_BM % 64 != 0 || JGEMM_BN % 64 != 0 || (JGEMM_BK != 32 && JGEMM_BK != 64) || \
    JGEMM_STAGES < 2
#error "jgemm_portable: tile BM, BN multiples of 64, BK 32 or 64, 256 threads, at least 2 stages"
#endif

#define JGEMM_WARPS (JGEMM_THREADS / JGEMM_LANES)
#if JSHMEM_ARCH_CUDA
#define JGEMM_WARPS_M 2
#else
#define JGEMM_WARPS_M 2
#endif
#define JGEMM_WARPS_N (JGEMM_WARPS / JGEMM_WARPS_M)
#define JGEMM_WM (JGEMM_BM / JGEMM_WARPS_M)
#define JGEMM_WN (JGEMM_BN / JGEMM_WARPS_N)
#define JGEMM_STAGE_ELEMS (JGEMM_BM * JGEMM_BK + JGEMM_BK * JGEMM_BN)
#define JGEMM_PIPE_BYTES (JGEMM_STAGES * JGEMM_STAGE_ELEMS * 2)
#define JGEMM_EPI_BYTES (JGEMM_BM * JGEMM_TILE_LD * 4 + JGEMM_BM * JGEMM_OTILE_LD * 2)
#define JGEMM_PORTABLE_SMEM_BYTES (JGEMM_PIPE_BYTES > JGEMM_EPI_BYTES ? JGEMM_PIPE_BYTES : JGEMM_EPI_BYTES)

/* Whether 16-byte copies are possible: rows of A and B start 16-byte aligned. */
JSHMEM_DEVICE_INLINE bool jgemm_vec_ok(const jgemm_params &p) {
  return p.lda % 8 == 0 && p.ldb % 8 == 0 && (jshmemi_addr(p.a) & 15) == 0 && (jshmemi_addr(p.b) & 15) == 0;
}

/* Queues the copies of K-iteration `it` of tile (row0, col0) into stage `st`. */
JSHMEM_DEVICE_INLINE void jgemm_load_stage(const jgemm_params &p, jgemm_t *smem, int st, int row0, int col0, int it,
                                           bool vec) {
  jgemm_t *sa = smem + st * JGEMM_STAGE_ELEMS;
  jgemm_t *sb = sa + JGEMM_BM * JGEMM_BK;
  int k0 = it * JGEMM_BK;
  const int tid = threadIdx.x;
  /* A: BM rows x BK/8 chunks */
  for (int i = tid; i < JGEMM_BM * JGEMM_BK / 8; i += JGEMM_THREADS) {
    int r = i / (JGEMM_BK / 8), c = (i % (JGEMM_BK / 8)) * 8;
    int gr = row0 + r, gk = k0 + c;
    int count = gr < p.m ? (p.k - gk < 8 ? (p.k - gk > 0 ? p.k - gk : 0) : 8) : 0;
    const jgemm_t *src = p.a + (count > 0 ? (long long)gr * p.lda + gk : 0);
    jgemm_load_chunk(sa + jgemm_sa_index(r, c), src, count, vec && count == 8);
  }
  /* B: BK rows x BN/8 chunks */
  for (int i = tid; i < JGEMM_BK * JGEMM_BN / 8; i += JGEMM_THREADS) {
    int r = i / (JGEMM_BN / 8), c = (i % (JGEMM_BN / 8)) * 8;
    int gk = k0 + r, gc = col0 + c;
    int count = gk < p.k ? (p.n - gc < 8 ? (p.n - gc > 0 ? p.n - gc : 0) : 8) : 0;
    const jgemm_t *src = p.b + (count > 0 ? (long long)gk * p.ldb + gc : 0);
    jgemm_load_chunk(sb + jgemm_sb_index(r, c), src, count, vec && count == 8);
  }
}

extern "C" __global__ void __launch_bounds__(JGEMM_THREADS, 1) jgemm_portable(const JGEMM_GRID_CONSTANT jgemm_params p) {
  extern __shared__ __align__(16) unsigned char jgemm_smem[];
  jgemm_t *pipe = (jgemm_t *)jgemm_smem;
  float *tile = (float *)jgemm_smem;
  jgemm_t *otile = (jgemm_t *)(jgemm_smem + JGEMM_BM * JGEMM_TILE_LD * 4);
  const int w = blockIdx.x;
  const int lane = threadIdx.x % JGEMM_LANES, warp = threadIdx.x / JGEMM_LANES;
  const int wm0 = (warp / JGEMM_WARPS_N) * JGEMM_WM, wn0 = (warp % JGEMM_WARPS_N) * JGEMM_WN;
  const bool vec = jgemm_vec_ok(p);
  jgemm_block_group g;
  jgemm_warp_tile<JGEMM_WM, JGEMM_WN> acc;
  jgemm_unit u;
  for (jgemm_cursor cur(p, w); cur.next(p, u);) {
    int tm, tn;
    jgemm_tile_coords(p, u.tile, tm, tn);
    const int row0 = tm * JGEMM_BM, col0 = tn * JGEMM_BN;
    const int n_it = u.end - u.begin;
    acc.zero();
    /* prologue: the first STAGES-1 iterations in flight */
#pragma unroll
    for (int s = 0; s < JGEMM_STAGES - 1; s++) {
      if (s < n_it) jgemm_load_stage(p, pipe, s, row0, col0, u.begin + s, vec);
      jgemm_load_commit();
    }
    for (int i = 0; i < n_it; i++) {
      jgemm_load_wait<JGEMM_STAGES - 2>();
      __syncthreads(); /* stage i is here for everyone; stage i-1 is free to refill */
      int next = i + JGEMM_STAGES - 1;
      if (next < n_it) jgemm_load_stage(p, pipe, next % JGEMM_STAGES, row0, col0, u.begin + next, vec);
      jgemm_load_commit();
      const jgemm_t *sa = pipe + (i % JGEMM_STAGES) * JGEMM_STAGE_ELEMS;
      acc.mma_stage(sa, sa + JGEMM_BM * JGEMM_BK, wm0, wn0, lane);
    }
    jgemm_load_wait<0>();
    __syncthreads(); /* every warp is done reading the pipeline: its bytes become the epilogue tiles */
    acc.store(tile, JGEMM_TILE_LD, wm0, wn0, lane);
    jgemm_finish_unit(p, u, w, tile, otile, g);
  }
  jgemm_wait_arrivals(p, w, g);
}
