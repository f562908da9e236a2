/*
 * jgemm_portable.cu - the portable Stream-K GEMM kernel: persistent work-groups walk the schedule
 * (jgemm.h); each unit's K-iterations stream through a JGEMM_STAGES-deep shared-memory pipeline
 * into the warps' tensor-core tiles (jgemm_mma.h: mma.sync on CUDA sm_80+, MFMA on AMD); the
 * accumulators go to an fp32 shared tile and the shared epilogue (jgemm_epilogue.h) fixes up and
 * publishes. One source for CUDA and HIP; compiled at run time with the tile as macros.
 *
 * Macros: JGEMM_BM x JGEMM_BN x JGEMM_BK tile (BM, BN multiples of 64; BK 32 or 64), JGEMM_STAGES
 * (>= 2), JGEMM_THREADS (256: 8 warps as 2 x 4 on CUDA, 4 wavefronts as 2 x 2 on AMD), JGEMM_DTYPE,
 * JGEMM_B_NK (1: B stored n x k, loaded as A is, rows of k; jgemm_mma.h).
 * Shared memory (dynamic): JGEMM_PORTABLE_SMEM_BYTES, the larger of the pipeline and the epilogue
 * tiles (they reuse the same bytes).
 */
#include "jgemm_mma.h"
#include "jgemm_epilogue.h"
#include "jgemm_scatter_tail.h"

#ifndef JGEMM_STAGES
#define JGEMM_STAGES 4 /* depth of the shared-memory pipeline (KernelVariant.stages, per tile in GpuKernels) */
#endif
#ifndef JGEMM_THREADS
#define JGEMM_THREADS 256 /* threads per work-group (KernelVariant.threads); the warp layout below needs 256 */
#endif
#if JGEMM_THREADS != 256 || JGEMM_BM % 64 != 0 || JGEMM_BN % 64 != 0 || (JGEMM_BK != 32 && JGEMM_BK != 64) || \
    JGEMM_STAGES < 2
#error "jgemm_portable: tile BM, BN multiples of 64, BK 32 or 64, 256 threads, at least 2 stages"
#endif

#define JGEMM_WARPS (JGEMM_THREADS / JGEMM_LANES)
#define JGEMM_WARPS_M 2 /* warps along M: 2 x 4 warps on CUDA, 2 x 2 wavefronts on AMD */
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

/* Chunks (8 elements, 16 bytes) of one stage each thread copies. */
#define JGEMM_A_CHUNKS (JGEMM_BM * JGEMM_BK / 8 / JGEMM_THREADS)
#define JGEMM_B_CHUNKS (JGEMM_BK * JGEMM_BN / 8 / JGEMM_THREADS)

/* Rows one pass of all threads covers; chunk i of a thread is i passes below its first. The swizzles
 * repeat every 8 rows and a pass is a multiple of 8 rows, so chunk i sits i passes below in shared
 * memory too. B's rows: k (k x n), or n (n x k, as A's). */
#define JGEMM_A_PASS (JGEMM_THREADS / (JGEMM_BK / 8))
#if JGEMM_B_NK
#define JGEMM_B_ROW_ELEMS JGEMM_BK
#else
#define JGEMM_B_ROW_ELEMS JGEMM_BN
#endif
#define JGEMM_B_PASS (JGEMM_THREADS / (JGEMM_B_ROW_ELEMS / 8))

/* Copies a unit's K-iterations into pipeline stages. Interior tiles of aligned matrices take the
 * fast path: one 16-byte async copy per chunk from a base pointer, no checks. Edge tiles, a K tail
 * or unaligned rows take the checked path. */
struct jgemm_loader {
  int a_smem, b_smem;         /* this thread's first chunk in a stage (elements) */
  int a_row, a_col, b_row, b_col;
  const jgemm_t *a_src, *b_src; /* this thread's first chunk at k = 0 */
  bool interior;

  JSHMEM_DEVICE_INLINE jgemm_loader() {
    a_row = threadIdx.x / (JGEMM_BK / 8);
    a_col = (threadIdx.x % (JGEMM_BK / 8)) * 8;
    b_row = threadIdx.x / (JGEMM_B_ROW_ELEMS / 8);
    b_col = (threadIdx.x % (JGEMM_B_ROW_ELEMS / 8)) * 8;
    a_smem = jgemm_sa_index(a_row, a_col);
    b_smem = JGEMM_BM * JGEMM_BK + jgemm_sb_index(b_row, b_col);
  }

  /* a, a_row0: where the unit's rows of A start (all-gather + GEMM's own rows: in a_local) */
  JSHMEM_DEVICE_INLINE void start_unit(const jgemm_params &p, const jgemm_t *a, int a_row0, int row0, int col0, bool vec) {
    interior = vec && row0 + JGEMM_BM <= p.m && col0 + JGEMM_BN <= p.n && (jshmemi_addr(a) & 15) == 0;
    a_src = a + (long long)(a_row0 + a_row) * p.lda + a_col;
#if JGEMM_B_NK
    b_src = p.b + (long long)(col0 + b_row) * p.ldb + b_col;
#else
    b_src = p.b + (long long)b_row * p.ldb + col0 + b_col;
#endif
    a_row += row0; /* global rows and columns from here on, for the checked path */
#if JGEMM_B_NK
    b_row += col0;
#else
    b_col += col0;
#endif
  }

  JSHMEM_DEVICE_INLINE void end_unit(int row0, int col0) {
    a_row -= row0;
#if JGEMM_B_NK
    b_row -= col0;
#else
    b_col -= col0;
#endif
  }

  JSHMEM_DEVICE_INLINE void load(const jgemm_params &p, jgemm_t *stage, int it, bool vec) {
    const int k0 = it * JGEMM_BK;
#if JGEMM_B_NK
    const jgemm_t *a = a_src + k0, *b = b_src + k0;
#else
    const jgemm_t *a = a_src + k0, *b = b_src + (long long)k0 * p.ldb;
#endif
    const long long a_step = (long long)JGEMM_A_PASS * p.lda, b_step = (long long)JGEMM_B_PASS * p.ldb;
    if (interior && k0 + JGEMM_BK <= p.k) {
#pragma unroll
      for (int i = 0; i < JGEMM_A_CHUNKS; i++)
        jgemm_load_chunk(stage + a_smem + i * JGEMM_A_PASS * JGEMM_BK, a + i * a_step, 8, true);
#pragma unroll
      for (int i = 0; i < JGEMM_B_CHUNKS; i++)
        jgemm_load_chunk(stage + b_smem + i * JGEMM_B_PASS * JGEMM_B_ROW_ELEMS, b + i * b_step, 8, true);
      return;
    }
    const int ak = k0 + a_col, a_count = p.k - ak < 8 ? (p.k - ak > 0 ? p.k - ak : 0) : 8;
#pragma unroll
    for (int i = 0; i < JGEMM_A_CHUNKS; i++) {
      int count = a_row + i * JGEMM_A_PASS < p.m ? a_count : 0;
      jgemm_load_chunk(stage + a_smem + i * JGEMM_A_PASS * JGEMM_BK, count > 0 ? a + i * a_step : p.a, count,
                       vec && count == 8);
    }
#if JGEMM_B_NK /* rows of n, chunks along k: as A */
    const int bk = k0 + b_col, b_count = p.k - bk < 8 ? (p.k - bk > 0 ? p.k - bk : 0) : 8;
#pragma unroll
    for (int i = 0; i < JGEMM_B_CHUNKS; i++) {
      int count = b_row + i * JGEMM_B_PASS < p.n ? b_count : 0;
#else
    const int b_count = p.n - b_col < 8 ? (p.n - b_col > 0 ? p.n - b_col : 0) : 8;
#pragma unroll
    for (int i = 0; i < JGEMM_B_CHUNKS; i++) {
      int count = k0 + b_row + i * JGEMM_B_PASS < p.k ? b_count : 0;
#endif
      jgemm_load_chunk(stage + b_smem + i * JGEMM_B_PASS * JGEMM_B_ROW_ELEMS, count > 0 ? b + i * b_step : p.b, count,
                       vec && count == 8);
    }
  }
};

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
  jgemm_loader loader;
  jgemm_warp_tile<JGEMM_WM, JGEMM_WN> acc;
  jgemm_unit u;
  for (jgemm_cursor cur(p, w); cur.next(p, u);) {
    const unsigned long long traced = jshmem_trace_begin(); /* JSHMEM_TRACE: the unit's spans, else nothing */
    int tm, tn;
    jgemm_tile_coords(p, u.tile, tm, tn);
    const int row0 = tm * JGEMM_BM, col0 = tn * JGEMM_BN;
    const int n_it = u.end - u.begin;
    if (p.a_ready != 0) { /* all-gather + GEMM: this tile's rows of A have arrived */
      if (threadIdx.x == 0) jgemm_wait_rows(p, tm);
      __syncthreads();
    }
    const bool local = jgemm_rows_local(p, tm);
    loader.start_unit(p, local ? p.a_local : p.a, local ? row0 - jgemm_block_start(p, p.my_pe) : row0, row0, col0,
                      vec);
    acc.zero();
    /* prologue: the first STAGES-1 iterations in flight */
#pragma unroll
    for (int s = 0; s < JGEMM_STAGES - 1; s++) {
      if (s < n_it) loader.load(p, pipe + s * JGEMM_STAGE_ELEMS, u.begin + s, vec);
      jgemm_load_commit();
    }
    for (int i = 0; i < n_it; i++) {
      jgemm_load_wait<JGEMM_STAGES - 2>();
      __syncthreads(); /* stage i is here for everyone; stage i-1 is free to refill */
      int next = i + JGEMM_STAGES - 1;
      if (next < n_it) loader.load(p, pipe + (next % JGEMM_STAGES) * JGEMM_STAGE_ELEMS, u.begin + next, vec);
      jgemm_load_commit();
      const jgemm_t *sa = pipe + (i % JGEMM_STAGES) * JGEMM_STAGE_ELEMS;
      acc.mma_stage(sa, sa + JGEMM_BM * JGEMM_BK, wm0, wn0, lane);
    }
    jgemm_load_wait<0>();
    __syncthreads(); /* every warp is done reading the pipeline: its bytes become the epilogue tiles */
    loader.end_unit(row0, col0);
    acc.store(tile, JGEMM_TILE_LD, wm0, wn0, lane);
    const unsigned long long finishing = threadIdx.x == 0 ? jgemm_trace_mma(u, traced) : 0;
    jgemm_finish_unit(p, u, w, tile, otile, g);
    if (threadIdx.x == 0) jgemm_trace_epilogue(p, u, finishing);
  }
  jgemm_finish_parked(p, w, otile, g);
  jgemm_wait_arrivals(p, w, g);
}
