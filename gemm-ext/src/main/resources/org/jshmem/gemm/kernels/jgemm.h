/*
 * jgemm.h - the contract between gemm-ext's Java side and its kernels: the launch parameters, the
 * Stream-K schedule walk, and the workspace/flag layout. Mirrored by org.jshmem.gemm.KernelParams
 * (field order and offsets) and org.jshmem.gemm.StreamKSchedule (the arithmetic): change all three
 * together.
 *
 * GEMM conventions (cuBLAS names, row-major storage): C[m x n] = A[m x k] * B[k x n], element (i, j)
 * of A at a[i * lda + j]; B stored k x n, or with JGEMM_B_NK = 1 transposed, n x k (element (kk, j)
 * of B at b[j * ldb + kk]: org.jshmem.gemm.BLayout). Inputs fp16 or bf16 (JGEMM_DTYPE), fp32
 * accumulation, output in the input type.
 *
 * Stream-K schedule (StreamKSchedule.java): the output is cut into tiles_m x tiles_n tiles of
 * JGEMM_BM x JGEMM_BN, numbered in grouped order (group_m tile-rows per group, for L2 reuse). Each
 * tile takes iters_per_tile K-iterations of JGEMM_BK. Tiles [0, sk_tiles) form the Stream-K part:
 * their sk_tiles * iters_per_tile iterations, in order, are cut into sk_wgs contiguous ranges (the
 * first sk_extra ranges one iteration longer). Work-group w < sk_wgs walks its range first; then
 * every work-group w takes the data-parallel tiles sk_tiles + w, sk_tiles + w + grid, ...
 *
 * Fix-up: the work-group holding a tile's first iteration owns the tile. A non-owner stores its
 * fp32 partial in workspace slot w (one slot per work-group: a range enters at most one tile
 * without owning it) and stamps sk_flags[w] = generation (release, system scope). The owner waits
 * for the stamps of w+1, w+2, ... (acquire) up to the work-group whose range reaches the tile's end,
 * adds their partials in that order, and runs the epilogue. Stamps are generations compared with
 * >=, never reset: back-to-back calls need no clearing.
 */
#ifndef JGEMM_H
#define JGEMM_H

#include <jshmem/jshmem.h>

/* Build parameters, passed as -D by org.jshmem.gemm.KernelVariant (and GpuKernelExecutor for
 * JGEMM_B_NK); the defaults serve a plain compile. */
#ifndef JGEMM_BM
#define JGEMM_BM 128 /* output tile rows per work-group (TileShape.m, --tile / JSHMEM_GEMM_TILE) */
#endif
#ifndef JGEMM_BN
#define JGEMM_BN 128 /* output tile columns per work-group (TileShape.n) */
#endif
#ifndef JGEMM_BK
#define JGEMM_BK 32 /* K-step of one main-loop iteration (TileShape.k) */
#endif
/* 0: fp16, 1: bf16 (org.jshmem.DType FP16 / BF16 map to these). */
#ifndef JGEMM_DTYPE
#define JGEMM_DTYPE 1
#endif
/* 0: B stored k x n; 1: n x k (BLayout.N_BY_K). */
#ifndef JGEMM_B_NK
#define JGEMM_B_NK 0
#endif

#if JGEMM_DTYPE == 1
typedef jshmemi_elem<jshmemi_bf16_tag> jgemm_elem;
#else
typedef jshmemi_elem<jshmemi_fp16_tag> jgemm_elem;
#endif
typedef unsigned short jgemm_t; /* the 16 bits of one fp16/bf16 element */

/* The output type's conversions, rounded to nearest-even: one hardware conversion per pair on CUDA
 * from sm_80, the same bits as the shared software rounding (jshmem_coll.h, bit-exact with Java's for
 * the collectives) for every value but NaN payloads. The software one cost fp16 up to a quarter of its
 * speed on short-K shapes in the Hopper kernel's tile rounding, and made the fused all-reduce, whose
 * sums convert every element, take 1.6 times as long.
 * jgemm_pack2: two fp32 values -> one 32-bit word of two output elements, lo in the low half. */
JSHMEM_DEVICE_INLINE unsigned jgemm_pack2(float lo, float hi) {
#if !JSHMEM_ARCH_HIP && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  unsigned r;
#if JGEMM_DTYPE == 1
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;\n" : "=r"(r) : "f"(hi), "f"(lo));
#else
  asm("cvt.rn.f16x2.f32 %0, %1, %2;\n" : "=r"(r) : "f"(hi), "f"(lo));
#endif
  return r;
#else
  return jgemm_elem::store(lo) | ((unsigned)jgemm_elem::store(hi) << 16);
#endif
}
/* One output element -> fp32 (exact). */
JSHMEM_DEVICE_INLINE float jgemm_unpack(unsigned short e) {
#if !JSHMEM_ARCH_HIP && defined(__CUDA_ARCH__) && JGEMM_DTYPE == 0
  float f;
  asm("cvt.f32.f16 %0, %1;\n" : "=f"(f) : "h"(e));
  return f;
#else
  return jgemm_elem::load(e);
#endif
}

/* The collective fused into the epilogue (org.jshmem.gemm.Epilogue ordinals). */
#define JGEMM_LOCAL 0           /* C tile stored on this PE only */
#define JGEMM_ALL_SCATTER 1     /* C tile stored into every PE's C at col_offset; arrival stamps */
#define JGEMM_ALL_REDUCE_ONE 2  /* partial tile pushed to every PE; each PE sums all P itself */
#define JGEMM_ALL_REDUCE_TWO 3  /* as reduce-scatter, then each owner pushes its sum to every PE */
#define JGEMM_REDUCE_SCATTER 4  /* partial tile pushed to the PE(s) owning its rows; each sums its own rows */

#if JSHMEM_ARCH_HIP
#define JGEMM_GRID_CONSTANT
#else
#define JGEMM_GRID_CONSTANT __grid_constant__
#endif

/* Launch parameters, passed by value. 8-byte fields first, then an even number of 4-byte ones: no padding anywhere (192 bytes). */
typedef struct {
  const jgemm_t *a;               /* m x k, row-major, lda */
  const jgemm_t *b;               /* k x n, row-major, ldb (JGEMM_B_NK: n x k) */
  jgemm_t *c;                     /* this PE's symmetric C, row-major, ldc */
  float *workspace;               /* grid slots of BM*BN floats (local) */
  unsigned long long *sk_flags;   /* grid stamps (local) */
  jgemm_t *staging;               /* all-reduce staging (symmetric), see jgemm_staging_slot */
  unsigned long long *arrive;     /* arrival stamps (symmetric), see the epilogue */
  unsigned long long *a_ready;    /* all-gather + GEMM: n_pes stamps, row block q of A is in when a_ready[q] >= generation; else null */
  const jgemm_t *a_local;         /* all-gather + GEMM: this PE's own rows of A (its block), read in place; else null */
  const int *row_order;           /* tiles_m tile rows in the order the schedule takes them (org.jshmem.gemm.TileRowOrder) */
  long long lda, ldb, ldc;        /* elements */
  unsigned long long generation;  /* this call's stamp, >= 1, +1 per call */
  int m, n, k;                    /* this PE's GEMM */
  int tiles_m, tiles_n, iters_per_tile, group_m;
  int sk_tiles, sk_wgs, sk_iters_per_wg, sk_extra;
  int grid;                       /* work-groups launched (gridDim.x) */
  int epilogue;                   /* JGEMM_LOCAL ... JGEMM_ALL_REDUCE_TWO */
  int col_offset;                 /* all-scatter: column of C where this PE's n columns go */
  int arrive_base;                /* all-scatter: this PE's first stamp index (its tiles follow) */
  int arrive_count;               /* all-scatter: stamps over all PEs; all-reduce: tiles */
  int n_pes;                      /* PEs taking part (the world) */
  int my_pe;
  int home_slots;                 /* reduce-scatter: staging slots per source on a home PE */
  int scatter_rows;               /* all-scatter by the copy engines: tile rows per chunk (jgemm_count_chunk); 0: none */
} jgemm_params;
static_assert(sizeof(jgemm_params) == 192, "jgemm_params must match org.jshmem.gemm.KernelParams");

/* ---- schedule walk ---------------------------------------------------------------------- */

/* One piece of work: iterations [begin, end) of tile `tile`. */
typedef struct {
  int tile, begin, end;
} jgemm_unit;

JSHMEM_DEVICE_INLINE int jgemm_tiles(const jgemm_params &p) { return p.tiles_m * p.tiles_n; }

/* Grouped order over the rows of row_order: tile t -> (tile row, tile column). */
JSHMEM_DEVICE_INLINE void jgemm_tile_coords(const jgemm_params &p, int t, int &tm, int &tn) {
  int per_group = p.group_m * p.tiles_n;
  int group = t / per_group;
  int first = group * p.group_m;
  int rows = p.tiles_m - first < p.group_m ? p.tiles_m - first : p.group_m;
  int in = t - group * per_group;
  tm = p.row_order[first + in % rows];
  tn = in / rows;
}

/* Row blocks (ShardLayout.rowOffset / rows): PE q holds rows [jgemm_block_start(q), jgemm_block_start(q + 1))
 * of m, the first m % n_pes PEs one more. */
JSHMEM_DEVICE_INLINE int jgemm_block_start(const jgemm_params &p, int q) {
  int base = p.m / p.n_pes, extra = p.m % p.n_pes;
  return q * base + (q < extra ? q : extra);
}
JSHMEM_DEVICE_INLINE int jgemm_block_of(const jgemm_params &p, int row) {
  int base = p.m / p.n_pes, extra = p.m % p.n_pes, big = extra * (base + 1);
  return row < big ? row / (base + 1) : extra + (row - big) / base;
}

/* Global Stream-K iteration range of work-group w (empty when w >= sk_wgs). */
JSHMEM_DEVICE_INLINE void jgemm_sk_range(const jgemm_params &p, int w, int &start, int &end) {
  if (w >= p.sk_wgs) {
    start = end = 0;
    return;
  }
  start = w * p.sk_iters_per_wg + (w < p.sk_extra ? w : p.sk_extra);
  end = start + p.sk_iters_per_wg + (w < p.sk_extra ? 1 : 0);
}

/* Iterates the units of work-group w in order: a cursor, so a kernel (or each of its warp roles)
 * walks the same sequence. Usage: for (jgemm_cursor c(p, w); c.next(p, u);) { ... } */
struct jgemm_cursor {
  int pos, end;   /* Stream-K part: global iteration position / end */
  int dp_tile;    /* next data-parallel tile */
  JSHMEM_DEVICE_INLINE jgemm_cursor(const jgemm_params &p, int w) {
    jgemm_sk_range(p, w, pos, end);
    dp_tile = p.sk_tiles + w;
  }
  JSHMEM_DEVICE_INLINE bool next(const jgemm_params &p, jgemm_unit &u) {
    if (pos < end) {
      u.tile = pos / p.iters_per_tile;
      int tile_start = u.tile * p.iters_per_tile;
      u.begin = pos - tile_start;
      int stop = tile_start + p.iters_per_tile;
      if (stop > end) stop = end;
      u.end = stop - tile_start;
      pos = stop;
      return true;
    }
    if (dp_tile < jgemm_tiles(p)) {
      u.tile = dp_tile;
      u.begin = 0;
      u.end = p.iters_per_tile;
      dp_tile += p.grid;
      return true;
    }
    return false;
  }
};

/* ---- stamps ------------------------------------------------------------------------------ */

JSHMEM_DEVICE_INLINE void jgemm_stamp(unsigned long long *flag, unsigned long long gen) {
  jshmemi_st_release_sys(flag, gen);
}
/* A stamp read only by this kernel on this GPU: release at GPU scope, without the system-scope
 * fence (which waits for every earlier store to reach the peers). */
JSHMEM_DEVICE_INLINE void jgemm_stamp_local(unsigned long long *flag, unsigned long long gen) {
#if JSHMEM_ARCH_HIP
  __hip_atomic_store(flag, gen, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
#else
  asm volatile("st.release.gpu.global.b64 [%0], %1;" : : "l"(flag), "l"(gen) : "memory");
#endif
}
/* Longs per chunk record {count, done, tiles} (org.jshmem.gemm.GemmWorkspace.CHUNK_RECORD). */
#define JGEMM_CHUNK_RECORD 3
/*
 * All-scatter by the copy engines: one more finished tile in its chunk's record {count, done, tiles}
 * (tiles: how many the chunk has, written by the host), stored into this PE's C, or (sent) into the
 * peers' C. The chunk's last tile resets the count for the next call and stamps `done`, for which a
 * stream waits before its copy engines read the chunk (the last chunk's: the tail kernel,
 * jgemm_scatter_tail.h; org.jshmem.gemm.GpuKernelExecutor). A sent tile's count is acquire-release at
 * system scope, so that every sender's stores to the peers come before the last one's stamp.
 */
JSHMEM_DEVICE_INLINE void jgemm_count_chunk(unsigned long long *rec, unsigned long long gen, bool sent) {
  unsigned long long old;
  if (sent) {
    old = jshmemi_fetch_add_acq_rel_sys(rec, 1);
  } else {
#if JSHMEM_ARCH_HIP
    old = __hip_atomic_fetch_add(rec, 1ull, __ATOMIC_ACQ_REL, __HIP_MEMORY_SCOPE_AGENT);
#else
    asm volatile("atom.acq_rel.gpu.global.add.u64 %0, [%1], 1;" : "=l"(old) : "l"(rec) : "memory");
#endif
  }
  if (old + 1 == rec[2]) {
    rec[0] = 0;
    jgemm_stamp(rec + 1, gen); /* system scope: read by the stream (then the copy engines) or the tail kernel */
  }
}
/*
 * All-scatter by the copy engines: whether tile row tm lies in a chunk that the copy stream takes to the peers.
 * Every chunk but the last: its tiles all end in the GEMM's last wave, so the kernel sends them itself
 * (jgemm_send_tile) as they end. With one PE there is nothing to send: every chunk is the stream's.
 */
JSHMEM_DEVICE_INLINE bool jgemm_chunk_by_engines(const jgemm_params &p, int tm) {
  return p.scatter_rows > 0 && (p.n_pes == 1 || tm / p.scatter_rows < (p.tiles_m - 1) / p.scatter_rows);
}
/* All-scatter by the copy engines: the record {count, done, tiles} of tile row tm's chunk (in arrive, after the
 * n_pes arrival stamps; org.jshmem.gemm.GemmWorkspace lays it out). */
JSHMEM_DEVICE_INLINE unsigned long long *jgemm_chunk_record(const jgemm_params &p, int tm) {
  return p.arrive + p.n_pes + JGEMM_CHUNK_RECORD * (tm / p.scatter_rows);
}
JSHMEM_DEVICE_INLINE void jgemm_wait_stamp(const unsigned long long *flag, unsigned long long gen) {
  /* >= in the cyclic sense: a peer may already have stamped a later call. */
  unsigned long long seen = jshmemi_ld_acquire_sys(flag);
  if ((long long)(seen - gen) >= 0) return;
  const unsigned long long traced = jshmem_trace_begin(); /* JSHMEM_TRACE: a wait that waited is a span */
  jshmemi_patience patience;
  while ((long long)((seen = jshmemi_ld_acquire_sys(flag)) - gen) < 0) {
    if (JSHMEM_UNLIKELY(patience.over()))
      jshmemi_stuck("the fused GEMM", flag, "a stamp", JSHMEM_CMP_GE, gen, seen, patience.waited_ns);
  }
  if (jshmemi_thread_id() % 128 == 0) jshmemi_trace_span("wait", "wait stamp", traced, -1); /* a warpgroup's first thread */
}

/* JSHMEM_TRACE spans of a unit, recorded by one thread of the work-group: its products ("mma", compute)
 * from `since`, returning when they end; then its epilogue ("epilogue": communication where the
 * epilogue sends to other PEs). Empty unless compiled with JSHMEM_DEVICE_TRACE=1. */
JSHMEM_DEVICE_INLINE unsigned long long jgemm_trace_mma(const jgemm_unit &u, unsigned long long since) {
  jshmemi_trace_span("compute", "mma", since, u.tile);
  return jshmem_trace_begin();
}
JSHMEM_DEVICE_INLINE void jgemm_trace_epilogue(const jgemm_params &p, const jgemm_unit &u, unsigned long long since) {
  jshmemi_trace_span(p.epilogue == JGEMM_LOCAL ? "compute" : "comm", "epilogue", since, u.tile);
}

/* All-gather + GEMM: whether tile row tm lies in this PE's own rows, which it reads from a_local. */
JSHMEM_DEVICE_INLINE bool jgemm_rows_local(const jgemm_params &p, int tm) {
  if (p.a_local == 0) return false;
  int row0 = tm * JGEMM_BM, end = row0 + JGEMM_BM < p.m ? row0 + JGEMM_BM : p.m;
  return row0 >= jgemm_block_start(p, p.my_pe) && end <= jgemm_block_start(p, p.my_pe + 1);
}

/* All-gather + GEMM: waits (one thread) until the row blocks of A under tile row tm have arrived. */
JSHMEM_DEVICE_INLINE void jgemm_wait_rows(const jgemm_params &p, int tm) {
  if (p.a_ready == 0 || jgemm_rows_local(p, tm)) return;
  int row0 = tm * JGEMM_BM, last = row0 + JGEMM_BM < p.m ? row0 + JGEMM_BM - 1 : p.m - 1;
  for (int q = jgemm_block_of(p, row0); q <= jgemm_block_of(p, last); q++) jgemm_wait_stamp(p.a_ready + q, p.generation);
}

#endif /* JGEMM_H */
