/*
 * jgemm_mma.h - the portable kernel's thin arch layer: shared-memory tile layout, global->shared
 * copies, and one warp's (wavefront's) share of a tile's tensor-core products.
 *   CUDA sm_80+: cp.async 16-byte copies, ldmatrix, mma.sync.m16n8k16 (fp16/bf16 in, fp32 out).
 *   HIP gfx90a/gfx942: plain 16-byte copies, MFMA 16x16x16 (v_mfma_f32_16x16x16{f16,bf16_1k}),
 *   one wavefront = 64 lanes. Compile-checked only: no AMD GPU is available to run it.
 *
 * Shared layout of one stage: A as BM rows of BK elements, B as BK rows of BN elements (or, stored
 * n x k: JGEMM_B_NK, as BN rows of BK, laid out as A), all row-major with their 16-byte chunks
 * XOR-swizzled so that ldmatrix reads hit distinct banks.
 */
#ifndef JGEMM_MMA_H
#define JGEMM_MMA_H

#include "jgemm.h"

/* Element offsets in a stage (swizzled 16-byte chunks of 8 elements). */
JSHMEM_DEVICE_INLINE int jgemm_sa_index(int r, int c) { /* A: r < BM, c < BK */
#if JGEMM_BK == 32 /* 64-byte rows: two share a 128-byte bank line */
  return r * JGEMM_BK + ((((c >> 3) ^ (r >> 1)) & 3) << 3) + (c & 7);
#else
  return r * JGEMM_BK + ((((c >> 3) ^ r) & 7) << 3) + (c & 7) + ((c >> 6) << 6);
#endif
}
#if JGEMM_B_NK
JSHMEM_DEVICE_INLINE int jgemm_sb_index(int r, int c) { return jgemm_sa_index(r, c); } /* B: r < BN (n), c < BK */
#else
JSHMEM_DEVICE_INLINE int jgemm_sb_index(int r, int c) { /* B: r < BK, c < BN */
  return r * JGEMM_BN + (((c >> 3) ^ (r & 7)) << 3) + (c & 7);
}
#endif

/* Copies up to 8 elements from global memory into a 16-byte shared chunk: `count` valid ones (0..8),
 * the rest zero. `vec`: the source is 16-byte aligned and all 8 are valid (one async 16-byte copy). */
JSHMEM_DEVICE_INLINE void jgemm_load_chunk(jgemm_t *dst, const jgemm_t *src, int count, bool vec) {
#if JSHMEM_ARCH_CUDA
  if (vec || count == 0) {
    unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    int bytes = vec ? 16 : 0; /* src-size 0: the chunk is zero-filled */
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(src), "r"(bytes) : "memory");
    return;
  }
#else
  if (vec) {
    *(uint4 *)dst = *(const uint4 *)src;
    return;
  }
#endif
  jgemm_t v[8];
#pragma unroll
  for (int i = 0; i < 8; i++) v[i] = i < count ? src[i] : (jgemm_t)0;
  *(uint4 *)dst = *(const uint4 *)v;
}

JSHMEM_DEVICE_INLINE void jgemm_load_commit() {
#if JSHMEM_ARCH_CUDA
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
template <int N>
JSHMEM_DEVICE_INLINE void jgemm_load_wait() {
#if JSHMEM_ARCH_CUDA
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}

#if JSHMEM_ARCH_CUDA
/* ---- CUDA: a warp computes WM x WN with m16n8k16 tiles ------------------------------------- */
#define JGEMM_LANES 32

template <int WM, int WN>
struct jgemm_warp_tile {
  static constexpr int FM = WM / 16, FN = WN / 8;
  float acc[FM][FN][4];

  JSHMEM_DEVICE_INLINE void zero() {
#pragma unroll
    for (int i = 0; i < FM; i++)
#pragma unroll
      for (int j = 0; j < FN; j++)
#pragma unroll
        for (int e = 0; e < 4; e++) acc[i][j][e] = 0.f;
  }

  /* acc += A[m0 .. m0+WM, 0 .. BK] x B[0 .. BK, n0 .. n0+WN] from one stage. */
  JSHMEM_DEVICE_INLINE void mma_stage(const jgemm_t *sa, const jgemm_t *sb, int m0, int n0, int lane) {
#pragma unroll
    for (int kk = 0; kk < JGEMM_BK; kk += 16) {
      unsigned a[FM][4], b[FN][2];
#pragma unroll
      for (int i = 0; i < FM; i++) {
        int r = m0 + i * 16 + (lane & 15), c = kk + ((lane >> 4) << 3);
        unsigned s = (unsigned)__cvta_generic_to_shared(sa + jgemm_sa_index(r, c));
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                     : "=r"(a[i][0]), "=r"(a[i][1]), "=r"(a[i][2]), "=r"(a[i][3]) : "r"(s));
      }
#pragma unroll
      for (int j = 0; j < FN; j += 2) {
#if JGEMM_B_NK /* rows of n hold the fragments' columns: no transpose */
        int r = n0 + j * 8 + (lane & 7) + ((lane >> 4) << 3), c = kk + (((lane >> 3) & 1) << 3);
        unsigned s = (unsigned)__cvta_generic_to_shared(sb + jgemm_sb_index(r, c));
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                     : "=r"(b[j][0]), "=r"(b[j][1]), "=r"(b[j + 1][0]), "=r"(b[j + 1][1]) : "r"(s));
#else
        int r = kk + (lane & 15), c = n0 + j * 8 + ((lane >> 4) << 3);
        unsigned s = (unsigned)__cvta_generic_to_shared(sb + jgemm_sb_index(r, c));
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                     : "=r"(b[j][0]), "=r"(b[j][1]), "=r"(b[j + 1][0]), "=r"(b[j + 1][1]) : "r"(s));
#endif
      }
#pragma unroll
      for (int i = 0; i < FM; i++)
#pragma unroll
        for (int j = 0; j < FN; j++) {
#if JGEMM_DTYPE == 1
          asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9},"
                       " {%0,%1,%2,%3};\n"
#else
          asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9},"
                       " {%0,%1,%2,%3};\n"
#endif
                       : "+f"(acc[i][j][0]), "+f"(acc[i][j][1]), "+f"(acc[i][j][2]), "+f"(acc[i][j][3])
                       : "r"(a[i][0]), "r"(a[i][1]), "r"(a[i][2]), "r"(a[i][3]), "r"(b[j][0]), "r"(b[j][1]));
        }
    }
  }

  /* Writes the accumulators into an fp32 tile (ld floats per row) at the warp's place. */
  JSHMEM_DEVICE_INLINE void store(float *tile, int ld, int m0, int n0, int lane) const {
    int g = lane >> 2, t = lane & 3;
#pragma unroll
    for (int i = 0; i < FM; i++)
#pragma unroll
      for (int j = 0; j < FN; j++) {
        float *p = tile + (m0 + i * 16 + g) * ld + n0 + j * 8 + 2 * t;
        *(float2 *)p = make_float2(acc[i][j][0], acc[i][j][1]);
        *(float2 *)(p + 8 * ld) = make_float2(acc[i][j][2], acc[i][j][3]);
      }
  }
};

#else
/* ---- HIP: a wavefront computes WM x WN with 16x16x16 MFMA tiles ---------------------------- */
#define JGEMM_LANES 64
typedef float jgemm_f4 __attribute__((ext_vector_type(4)));
#if JGEMM_DTYPE == 1
typedef short jgemm_h4 __attribute__((ext_vector_type(4)));
#else
typedef _Float16 jgemm_h4 __attribute__((ext_vector_type(4)));
#endif

template <int WM, int WN>
struct jgemm_warp_tile {
  static constexpr int FM = WM / 16, FN = WN / 16;
  jgemm_f4 acc[FM][FN];

  JSHMEM_DEVICE_INLINE void zero() {
#pragma unroll
    for (int i = 0; i < FM; i++)
#pragma unroll
      for (int j = 0; j < FN; j++) acc[i][j] = jgemm_f4{0.f, 0.f, 0.f, 0.f};
  }

  /* MFMA 16x16x16 operands: lane l holds A[l % 16][4 (l / 16) .. +3] and B[4 (l / 16) .. +3][l % 16];
   * the result C[4 (l / 16) + i][l % 16], i < 4. */
  JSHMEM_DEVICE_INLINE void mma_stage(const jgemm_t *sa, const jgemm_t *sb, int m0, int n0, int lane) {
#pragma unroll
    for (int kk = 0; kk < JGEMM_BK; kk += 16) {
      int row = lane & 15, k4 = kk + 4 * (lane >> 4);
      jgemm_h4 a[FM], b[FN];
#pragma unroll
      for (int i = 0; i < FM; i++) {
        unsigned short v[4];
#pragma unroll
        for (int e = 0; e < 4; e++) v[e] = sa[jgemm_sa_index(m0 + i * 16 + row, k4 + e)];
        __builtin_memcpy(&a[i], v, sizeof v);
      }
#pragma unroll
      for (int j = 0; j < FN; j++) {
        unsigned short v[4];
#pragma unroll
        for (int e = 0; e < 4; e++)
#if JGEMM_B_NK
          v[e] = sb[jgemm_sb_index(n0 + j * 16 + row, k4 + e)];
#else
          v[e] = sb[jgemm_sb_index(k4 + e, n0 + j * 16 + row)];
#endif
        __builtin_memcpy(&b[j], v, sizeof v);
      }
#pragma unroll
      for (int i = 0; i < FM; i++)
#pragma unroll
        for (int j = 0; j < FN; j++) {
#if JGEMM_DTYPE == 1
          acc[i][j] = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a[i], b[j], acc[i][j], 0, 0, 0);
#else
          acc[i][j] = __builtin_amdgcn_mfma_f32_16x16x16f16(a[i], b[j], acc[i][j], 0, 0, 0);
#endif
        }
    }
  }

  JSHMEM_DEVICE_INLINE void store(float *tile, int ld, int m0, int n0, int lane) const {
    int col = lane & 15, r4 = 4 * (lane >> 4);
#pragma unroll
    for (int i = 0; i < FM; i++)
#pragma unroll
      for (int j = 0; j < FN; j++)
#pragma unroll
        for (int e = 0; e < 4; e++) tile[(m0 + i * 16 + r4 + e) * ld + n0 + j * 16 + col] = acc[i][j][e];
  }
};
#endif

#endif /* JGEMM_MMA_H */
