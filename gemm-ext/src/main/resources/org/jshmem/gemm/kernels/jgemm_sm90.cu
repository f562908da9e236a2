/*
 * jgemm_sm90.cu - the Hopper (sm_90a) Stream-K GEMM kernel: persistent CTAs walk the schedule
 * (jgemm.h); one producer warp loads A and B tiles with the tensor memory accelerator
 * (cp.async.bulk.tensor, 128-byte swizzle) into a JGEMM_STAGES-deep shared-memory ring guarded by
 * full/empty mbarriers; two consumer warpgroups (64 rows each) run wgmma.mma_async m64nBNk16 with
 * fp32 accumulators in registers. A unit's Stream-K fix-up happens in those registers (partials
 * move through the workspace slot in the threads' own fragment layout); the finished tile is
 * rounded into an output tile in shared memory (a region of its own, so the producer keeps
 * loading the next unit meanwhile). The GEMM alone, and the all-scatter into its own C, store it
 * with TMA stores of swizzled boxes (jgemm_sm90_stage_boxes; the all-scatter's sender reads the
 * peers' copies from the same boxes); the other fused collectives publish it through the shared
 * epilogue (jgemm_epilogue.h), whose stores leave through the bulk-copy engine. Either way the
 * consumers start the next unit while the copies run.
 *
 * Clusters (JGEMM_CLUSTER = 2, plain GEMM only): the two CTAs of a cluster walk one schedule unit by
 * unit on tile rows 2 tm' and 2 tm' + 1 of the same tile column (the host plans it over 2BM x BN
 * pairs), and each loads its own A and half of the B boxes, multicast into both CTAs' rings: each
 * B byte leaves L2 once per pair. A ring slot is free when the consumers of both CTAs released it
 * (empty barriers count 16 arrivals); a producer leaves only once every slot of its ring is free,
 * since the peer's consumers arrive on its barriers. Stream-K partials and stamps of rank r live in
 * plane r (jgemm_sk_collect).
 *
 * Tile JGEMM_BM x JGEMM_BN x JGEMM_BK = 128 x {64, 128, 192, 256} x 64; 384 threads: warpgroup
 * 0 = producer (one thread issues; warps 1-3, the sender, store tiles bound for peers and the all-reduce
 * owners' sums), warpgroups 1-2 = consumers. With 192 or 256 columns a consumer
 * holds 96 or 128 accumulators: the producer warpgroup gives registers back (setmaxnreg 40) and the
 * consumers take them (232). Build: -gencode=arch=compute_90a,code=sm_90a (NVRTC: --gpu-architecture=sm_90a).
 *
 * Tensor maps (host: cuTensorMapEncodeTiled, org.jshmem.gemm.TensorMaps), both rank 2, 16-bit
 * elements (CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 = 9 or FLOAT16 = 6), interleave NONE (0), swizzle
 * 128B (3), L2 promotion 256B (3), OOB fill NONE (0: zeros), element strides {1, 1}:
 *   A (m x k, row-major): globalDim {k, m}, globalStrides {lda * 2}, box {64, BM}
 *   B (k x n, row-major): globalDim {n, k}, globalStrides {ldb * 2}, box {64, BK}; BN / 64 boxes per stage
 *   B stored n x k (JGEMM_B_NK): globalDim {k, n}, globalStrides {ldb * 2}, box {BK, 64}; BN / 64 boxes per
 *     stage, K-major for wgmma as A is (no transpose)
 *   A's own rows (all-gather + GEMM, p.a_local: m_me x k): as A; other collectives pass A's map again
 *   C (m x n, row-major, this PE's C from column col_offset, where jgemm_sm90_tma_store holds): globalDim
 *     {n, m}, globalStrides {ldc * 2}, box {64, BM}; BN / 64 boxes per tile. Otherwise A's map again.
 */
#include "jgemm.h"
#include "jgemm_epilogue.h"
#include "jgemm_scatter_tail.h"

#if JGEMM_BM != 128 || (JGEMM_BN != 64 && JGEMM_BN != 128 && JGEMM_BN != 192 && JGEMM_BN != 256) || JGEMM_BK != 64
#error "jgemm_sm90: built for 128 x {64, 128, 192, 256} x 64 tiles"
#endif
#ifndef JGEMM_STAGES
#define JGEMM_STAGES 3 /* depth of the shared-memory ring (KernelVariant.stages, per tile in GpuKernels) */
#endif
#ifndef JGEMM_CLUSTER
#define JGEMM_CLUSTER 1 /* CTAs per cluster, along M: 2 = pairs of tile rows share B by TMA multicast (--cluster) */
#endif
#if JGEMM_CLUSTER == 2
#define JGEMM_CLUSTER_DIMS __cluster_dims__(2, 1, 1)
#elif JGEMM_CLUSTER == 1
#define JGEMM_CLUSTER_DIMS
#else
#error "jgemm_sm90: JGEMM_CLUSTER is 1 or 2"
#endif
#define JGEMM_SM90_THREADS 384
#define JGEMM_A_BYTES (JGEMM_BM * JGEMM_BK * 2)
#define JGEMM_B_BYTES (JGEMM_BK * JGEMM_BN * 2)
#define JGEMM_STAGE_BYTES (JGEMM_A_BYTES + JGEMM_B_BYTES)
#define JGEMM_OTILE_BYTES (JGEMM_BM * JGEMM_OTILE_LD * 2)
/* ring (1024-byte aligned: the swizzle atoms), output tile, 2 x STAGES mbarriers, + alignment slack */
#define JGEMM_SM90_SMEM_BYTES (JGEMM_STAGES * JGEMM_STAGE_BYTES + JGEMM_OTILE_BYTES + 2 * JGEMM_STAGES * 8 + 1024)
#define JGEMM_ACC (JGEMM_BN / 2) /* fp32 accumulators per consumer thread: 64 x BN over 128 threads */
#define JGEMM_CONSUMERS 256
/* one wgmma group in flight across stages (see the main loop): only where 8 stages leave the producer 6 ahead */
#define JGEMM_SM90_INFLIGHT (JGEMM_STAGES >= 8)
/* B in a stage: BN / 64 boxes, one after the other. k x n: each BK rows (k) of 128 bytes (64 columns),
 * MN-major for wgmma (transposed); n x k (JGEMM_B_NK): each 64 rows (n) of 128 bytes (BK), K-major as A.
 * B_K16: bytes from one k16 step to the next; LBO, SBO: the descriptor's leading and stride offsets. */
#if JGEMM_B_NK
#define JGEMM_SM90_B_K16 32                  /* across a row */
#define JGEMM_SM90_B_LBO 16                  /* unused by K-major swizzled layouts */
#define JGEMM_SM90_B_SBO 1024                /* from 8 rows (n) to the next 8 */
#define JGEMM_SM90_TRANS_B "0"
#else
#define JGEMM_SM90_B_K16 (16 * 128)          /* 16 rows (k) down */
#define JGEMM_SM90_B_LBO (64 * JGEMM_BK * 2) /* from one 64-column box of B to the next */
#define JGEMM_SM90_B_SBO 1024                /* from 8 rows (k) of B to the next 8 */
#define JGEMM_SM90_TRANS_B "1"
#endif

/* A CUtensorMap, opaque: 128 bytes, 64-byte aligned (NVRTC has no cuda.h). */
struct alignas(64) jgemm_tensor_map {
  unsigned long long opaque[16];
};

JSHMEM_DEVICE_INLINE unsigned jgemm_smem_addr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

JSHMEM_DEVICE_INLINE void jgemm_mbar_init(unsigned long long *bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(jgemm_smem_addr(bar)), "r"(count) : "memory");
}
JSHMEM_DEVICE_INLINE void jgemm_mbar_expect_tx(unsigned long long *bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(jgemm_smem_addr(bar)), "r"(bytes)
               : "memory");
}
JSHMEM_DEVICE_INLINE void jgemm_mbar_arrive(unsigned long long *bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(jgemm_smem_addr(bar)) : "memory");
}
JSHMEM_DEVICE_INLINE void jgemm_mbar_wait(unsigned long long *bar, unsigned parity) {
  asm volatile("{\n.reg .pred done;\nwait_%=:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
               "@!done bra wait_%=;\n}\n" ::"r"(jgemm_smem_addr(bar)), "r"(parity) : "memory");
}

/* Arrives on the mbarrier at bar's offset in CTA `rank` of this cluster (this one included). CTA-scope
 * release, as CUTLASS's ClusterBarrier: a consumer only tells the producers that it has read the slot
 * (wgmma.wait_group completed the reads), and a cluster-scope release costs a MEMBAR.ALL.GPU per
 * arrival, which made clusters of 2 40% slower than single CTAs. */
JSHMEM_DEVICE_INLINE void jgemm_mbar_arrive_cluster(unsigned long long *bar, unsigned rank) {
  asm volatile("{\n.reg .b32 remote;\nmapa.shared::cluster.u32 remote, %0, %1;\n"
               "mbarrier.arrive.shared::cluster.b64 _, [remote];\n}\n" ::"r"(jgemm_smem_addr(bar)), "r"(rank)
               : "memory");
}
JSHMEM_DEVICE_INLINE unsigned jgemm_cluster_rank() {
  unsigned r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
  return r;
}
/* The tile (tm, tn) that this CTA (cluster rank `rank`) takes of schedule tile t: the schedule runs over
 * tiles of JGEMM_CLUSTER tile rows, and CTA r takes row r of each. */
JSHMEM_DEVICE_INLINE void jgemm_cta_tile_coords(const jgemm_params &p, int t, int rank, int &tm, int &tn) {
  jgemm_tile_coords(p, t, tm, tn);
  tm = tm * JGEMM_CLUSTER + rank;
}
/* Every thread of the cluster's CTAs: what each did before is visible to all after. */
JSHMEM_DEVICE_INLINE void jgemm_cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\n" ::: "memory");
}
/* A consumer warp gives ring slot `empty` back: to this CTA's producer, and with clusters to every
 * producer that writes into it. */
JSHMEM_DEVICE_INLINE void jgemm_release_slot(unsigned long long *empty) {
#if JGEMM_CLUSTER > 1
#pragma unroll
  for (unsigned r = 0; r < JGEMM_CLUSTER; r++) jgemm_mbar_arrive_cluster(empty, r);
#else
  jgemm_mbar_arrive(empty);
#endif
}

/* One 2-D TMA load of the box at (inner, outer) into shared memory, completing on `bar`. */
JSHMEM_DEVICE_INLINE void jgemm_tma_load(void *dst, const jgemm_tensor_map *map, int inner, int outer,
                                         unsigned long long *bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n"
               ::"r"(jgemm_smem_addr(dst)), "l"(map), "r"(inner), "r"(outer), "r"(jgemm_smem_addr(bar))
               : "memory");
}

/* The same load into this offset of every CTA of the cluster in `mask`, completing on each one's `bar`. */
JSHMEM_DEVICE_INLINE void jgemm_tma_load_multicast(void *dst, const jgemm_tensor_map *map, int inner, int outer,
                                                   unsigned long long *bar, unsigned short mask) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
               " [%0], [%1, {%2, %3}], [%4], %5;\n"
               ::"r"(jgemm_smem_addr(dst)), "l"(map), "r"(inner), "r"(outer), "r"(jgemm_smem_addr(bar)), "h"(mask)
               : "memory");
}

/* wgmma shared-memory descriptor: start, leading and stride byte offsets, 128-byte swizzle. */
JSHMEM_DEVICE_INLINE unsigned long long jgemm_desc(const void *smem, unsigned lbo, unsigned sbo) {
  unsigned long long a = jgemm_smem_addr(smem);
  return ((a & 0x3FFFF) >> 4) | ((unsigned long long)(lbo >> 4) << 16) | ((unsigned long long)(sbo >> 4) << 32) |
         (1ull << 62);
}

/* D = A * B + (scale_d ? D : 0) for one k16 step; A K-major, B transposed (row-major k x n in
 * shared memory) or K-major (n x k, JGEMM_B_NK): JGEMM_SM90_TRANS_B. */
#if JGEMM_DTYPE == 1
#define JGEMM_WGMMA_TYPE "bf16"
#else
#define JGEMM_WGMMA_TYPE "f16"
#endif
#if JGEMM_BN == 64
JSHMEM_DEVICE_INLINE void jgemm_wgmma(float *d, unsigned long long da, unsigned long long db, int scale_d) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n64k16.f32." JGEMM_WGMMA_TYPE "." JGEMM_WGMMA_TYPE " "
               "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, %32, %33, p, 1, 1, 0, " JGEMM_SM90_TRANS_B ";\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
               : "l"(da), "l"(db), "r"(scale_d));
}
#elif JGEMM_BN == 128
JSHMEM_DEVICE_INLINE void jgemm_wgmma(float *d, unsigned long long da, unsigned long long db, int scale_d) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n128k16.f32." JGEMM_WGMMA_TYPE "." JGEMM_WGMMA_TYPE " "
               "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63}, %64, %65, p, 1, 1, 0, " JGEMM_SM90_TRANS_B ";\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
               : "l"(da), "l"(db), "r"(scale_d));
}
#elif JGEMM_BN == 192
JSHMEM_DEVICE_INLINE void jgemm_wgmma(float *d, unsigned long long da, unsigned long long db, int scale_d) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %98, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n192k16.f32." JGEMM_WGMMA_TYPE "." JGEMM_WGMMA_TYPE " "
               "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63,%64,%65,%66,%67,%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,%78,%79,%80,%81,%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95}, %96, %97, p, 1, 1, 0, " JGEMM_SM90_TRANS_B ";\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95])
               : "l"(da), "l"(db), "r"(scale_d));
}
#else
JSHMEM_DEVICE_INLINE void jgemm_wgmma(float *d, unsigned long long da, unsigned long long db, int scale_d) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n256k16.f32." JGEMM_WGMMA_TYPE "." JGEMM_WGMMA_TYPE " "
               "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63,%64,%65,%66,%67,%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,%78,%79,%80,%81,%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95,%96,%97,%98,%99,%100,%101,%102,%103,%104,%105,%106,%107,%108,%109,%110,%111,%112,%113,%114,%115,%116,%117,%118,%119,%120,%121,%122,%123,%124,%125,%126,%127}, %128, %129, p, 1, 1, 0, " JGEMM_SM90_TRANS_B ";\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
               : "l"(da), "l"(db), "r"(scale_d));
}
#endif

/* Bulk copies from shared to global memory (the SM's copy engine, in the async proxy), per thread. */
JSHMEM_DEVICE_INLINE void jgemm_bulk_store(void *dst, const void *src, unsigned bytes) {
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;\n" ::"l"(dst), "r"(jgemm_smem_addr(src)),
               "r"(bytes) : "memory");
}

/* One 2-D TMA store of the box at (inner, outer) from shared memory, in the thread's bulk group; the
 * engine clips what lies outside the matrix. */
JSHMEM_DEVICE_INLINE void jgemm_tma_store(const jgemm_tensor_map *map, int inner, int outer, const void *src) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];\n" ::"l"(map), "r"(inner),
               "r"(outer), "r"(jgemm_smem_addr(src)) : "memory");
}

/* Four 8x8 matrices of 16-bit elements into shared memory; lane l gives the address of row l % 8 of matrix l / 8. */
JSHMEM_DEVICE_INLINE void jgemm_stmatrix4(const void *row, unsigned m0, unsigned m1, unsigned m2, unsigned m3) {
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(jgemm_smem_addr(row)),
               "r"(m0), "r"(m1), "r"(m2), "r"(m3) : "memory");
}

/* The sender: warps 1-3 of the producer warpgroup, idle otherwise. The tiles and partials bound for peers
 * (all-scatter, reduce-scatter, two-shot all-reduce) and the all-reduce owners' sums leave through its
 * threads' stores, not the consumers' bulk copies, whose bursts over NVLink queue in the copy engine that
 * also loads the operands; with the copy-engine all-scatter it stores and counts the chunks' tiles, so the
 * consumers need not wait for those stores to complete. */
#define JGEMM_SENDER_THREADS 96
#define JGEMM_SM90_LATER 24 /* stamps a tile may leave for settle() (more settle at once): 2 (n_pes - 1) for an all-reduce owner */

/* Completes the calling thread's bulk copies (their writes done), then orders them before its later generic
 * accesses: what a stamp or a count that follows publishes. */
JSHMEM_DEVICE_INLINE void jgemm_bulk_complete() {
  asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory");
  asm volatile("fence.proxy.async.global;\n" ::: "memory");
}

/*
 * The consumer warpgroups: 256 threads, named barrier 1, and the epilogue's way out (see
 * jgemm_block_group): a tile leaves shared memory through the bulk-copy engine, one row per
 * thread, while the consumers go on to the next unit; its stamps wait in shared memory (`later`)
 * until settle(), which completes the copies first and then writes them. The epilogue settles
 * when it starts, so a tile's stamps follow it by about one unit (they only end waits that come
 * later: the fused waits settle before waiting). Rows that are not whole 16-byte words, or a
 * destination out of alignment, go through the threads instead.
 */
struct jgemm_sender_handoff {
  unsigned long long ready, read; /* mbarriers: a tile is in the output tile / the sender has read it */
  int tile;                       /* the tile handed over (a key tm * tiles_n + tn for a sum); -1: no more */
  int kind;                       /* JGEMM_HAND_* */
};
#define JGEMM_HAND_COPIES 0 /* tile t's copies to the peers */
#define JGEMM_HAND_SUM 1    /* an owner's sum for every PE's C (two-shot all-reduce) */
#define JGEMM_HAND_STORE 2  /* tile t into this PE's C by TMA, then counted into its chunk */

struct jgemm_consumer_group {
  int tid, size;
  bool own_c;                     /* JGEMM_LOCAL: the copies only write this PE's C, which nothing here reads again */
  unsigned long long **later;     /* shared memory: the stamps' addresses, their kind (JGEMM_STAMP_*) in bits 0-1 */
  mutable int pending;            /* how many; the same on every thread */
  mutable unsigned long long gen; /* their value (the call's generation) */
  mutable jgemm_sender_handoff *handoff; /* shared memory, or null: no sender (any more: retire_sender) */
  mutable int handed;             /* tiles handed to the sender so far */
  JSHMEM_DEVICE_INLINE jgemm_consumer_group(bool own_c_, unsigned long long **later_, jgemm_sender_handoff *handoff_)
      : tid((int)threadIdx.x - 128), size(JGEMM_CONSUMERS), own_c(own_c_), later(later_), pending(0), gen(0),
        handoff(handoff_), handed(0) {}
  /* Gives the sender `tile` for a job of `kind` (JGEMM_HAND_*), complete in the output tile (the group synchronised). */
  JSHMEM_DEVICE_INLINE bool give(int tile, int kind) const {
    if (handoff == nullptr) return false;
    if (tid == 0) {
      handoff->tile = tile;
      handoff->kind = kind;
      jgemm_mbar_arrive(&handoff->ready);
    }
    handed++;
    return true;
  }
  /* Hands tile t's copies to the peers to the sender. */
  JSHMEM_DEVICE_INLINE bool hand_off(int t) const { return give(t, JGEMM_HAND_COPIES); }
  /* Hands the owner's sum of the tile at key to the sender, which stores it into every PE's C. */
  JSHMEM_DEVICE_INLINE bool hand_off_sum(int key) const { return give(key, JGEMM_HAND_SUM); }
  /* Hands tile t, in the output tile as jgemm_sm90_stage_boxes leaves it, to the sender to store into this PE's C
   * and count into its chunk. */
  JSHMEM_DEVICE_INLINE bool hand_off_store(int t) const { return give(t, JGEMM_HAND_STORE); }
  /* Waits until the sender has read the last tile handed to it: the output tile may be written. */
  JSHMEM_DEVICE_INLINE void reclaim() const {
    if (handed > 0) jgemm_mbar_wait(&handoff->read, (unsigned)(handed - 1) & 1);
  }
  /* After the last tile: lets the sender go. */
  JSHMEM_DEVICE_INLINE void retire_sender() const {
    if (handoff == nullptr) return;
    reclaim();
    if (tid == 0) {
      handoff->tile = -1;
      jgemm_mbar_arrive(&handoff->ready);
    }
    handoff = nullptr;
  }
  JSHMEM_DEVICE_INLINE void sync() const { asm volatile("bar.sync 1, 256;\n" ::: "memory"); }
  JSHMEM_DEVICE_INLINE bool all(bool v) const {
    int r;
    asm volatile("{\n.reg .pred a, r;\nsetp.ne.b32 a, %1, 0;\nbar.red.and.pred r, 1, 256, a;\nselp.b32 %0, 1, 0, r;\n}\n"
                 : "=r"(r) : "r"((int)v) : "memory");
    return r != 0;
  }
  JSHMEM_DEVICE_INLINE void store(const jgemm_t *otile, jgemm_t *dst, long long ld, int rows, int cols) const {
    const unsigned bytes = (unsigned)cols * 2;
    if (((bytes | jshmemi_addr(dst) | (unsigned long long)ld * 2) & 15) != 0) {
      jgemm_tile_store(otile, dst, ld, rows, cols, *this);
      return;
    }
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); /* the tile's writes, to the copy engine */
    sync();
    if (tid < rows) {
      jgemm_bulk_store(dst + tid * ld, otile + tid * JGEMM_OTILE_LD, bytes);
      asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
    }
  }
  JSHMEM_DEVICE_INLINE void store_dense(const jgemm_t *otile, jgemm_t *slot) const {
    store(otile, slot, JGEMM_BN, JGEMM_BM, JGEMM_BN);
  }
  JSHMEM_DEVICE_INLINE void stamp(unsigned long long *flag, int kind, unsigned long long generation) const {
    if (pending == JGEMM_SM90_LATER) settle();
    gen = generation;
    if (tid == 0) later[pending] = (unsigned long long *)(jshmemi_addr(flag) | (unsigned)kind);
    pending++;
  }
  /* Waits until this thread's copies have read the output tile (they may still be writing). */
  JSHMEM_DEVICE_INLINE void reread() const {
    asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");
    sync();
  }
  /* Completes this thread's copies (their writes visible), then stamps what waited, in order. With
   * only this PE's C written (no stamps), the copies need only have read the output tile: the
   * grid's end makes their writes visible. */
  JSHMEM_DEVICE_INLINE void settle() const {
    if (own_c) {
      reread();
      return;
    }
    jgemm_bulk_complete();
    sync();
    if (pending == 0) return;
    if (tid == 0)
      for (int i = 0; i < pending; i++) {
        unsigned long long a = jshmemi_addr(later[i]);
        jgemm_stamp_kind((unsigned long long *)(a & ~3ull), (int)(a & 3), gen);
      }
    pending = 0;
  }
};

/* The output tile as jgemm_sm90_stage_boxes leaves it: BN / 64 boxes of BM rows x 128 bytes, the 16-byte
 * chunk k of row r at chunk k ^ (r % 8) (the TMA's 128-byte swizzle). */
struct jgemm_swizzled_tile {
  JSHMEM_DEVICE_INLINE static const jgemm_t *at(const jgemm_t *otile, int r, int c) {
    const int chunk = c / 8;
    return (const jgemm_t *)((const unsigned char *)otile + (chunk / 8) * (JGEMM_BM * 128) + r * 128 +
                             (((chunk % 8) ^ (r % 8)) * 16));
  }
};

/* The sender: warps 1-3 of the producer warpgroup, named barrier 2; they store with their threads. */
struct jgemm_sender_warps {
  static constexpr int first = 32;
  JSHMEM_DEVICE_INLINE static int count() { return JGEMM_SENDER_THREADS; }
  JSHMEM_DEVICE_INLINE static void sync() { asm volatile("bar.sync 2, %0;\n" ::"n"(JGEMM_SENDER_THREADS) : "memory"); }
  JSHMEM_DEVICE_INLINE static bool all(bool v) {
    int r;
    asm volatile("{\n.reg .pred a, r;\nsetp.ne.b32 a, %1, 0;\nbar.red.and.pred r, 2, %2, a;\nselp.b32 %0, 1, 0, r;\n}\n"
                 : "=r"(r) : "r"((int)v), "n"(JGEMM_SENDER_THREADS) : "memory");
    return r != 0;
  }
};
using jgemm_sender_group = jgemm_storing_group<jgemm_sender_warps>;
using jgemm_sender_group_swizzled = jgemm_storing_group<jgemm_sender_warps, jgemm_swizzled_tile>;

JSHMEM_DEVICE_INLINE bool jgemm_sm90_tma_store(const jgemm_params &p);

/* The output tile's BN / 64 boxes (jgemm_sm90_stage_boxes) into tile (tm, tn) of C by TMA stores, issued
 * and committed as one bulk group by the calling thread. */
JSHMEM_DEVICE_INLINE void jgemm_sm90_issue_boxes(int tm, int tn, const jgemm_t *otile, const jgemm_tensor_map *tma_c) {
#pragma unroll
  for (int b = 0; b < JGEMM_BN / 64; b++)
    jgemm_tma_store(tma_c, tn * JGEMM_BN + 64 * b, tm * JGEMM_BM, (const unsigned char *)otile + b * (JGEMM_BM * 128));
  asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
}

/*
 * The sender's job JGEMM_HAND_STORE (all-scatter by the copy engines, a tile of the engines' chunks): its first
 * thread stores tile t into this PE's C by TMA, hands the output tile back once the stores have read it, and
 * counts the tile into its chunk once they are complete (as jgemm_consumer_group::settle does). The consumers
 * meanwhile go on to their next unit: waiting for the stores' completion themselves cost every tile's epilogue.
 */
JSHMEM_DEVICE_INLINE void jgemm_sm90_store_and_count(const jgemm_params &p, int t, const jgemm_t *otile,
                                                     const jgemm_tensor_map *tma_c, jgemm_sender_handoff *h) {
  int tm, tn;
  jgemm_tile_coords(p, t, tm, tn);
  jgemm_sm90_issue_boxes(tm, tn, otile, tma_c);
  asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");
  jgemm_mbar_arrive(&h->read);
  jgemm_bulk_complete();
  jgemm_count_chunk(jgemm_chunk_record(p, tm), p.generation, false);
}

/* The sender's loop: each tile handed over, into the peers' C (all-scatter: jgemm_send_tile), staging
 * (jgemm_send_partial), an owner's sum into every PE's C (jgemm_store_sum), or into this PE's C and counted
 * (jgemm_sm90_store_and_count), until tile -1. */
JSHMEM_DEVICE_INLINE void jgemm_sm90_send(const jgemm_params &p, const jgemm_t *otile, const jgemm_tensor_map *tma_c,
                                          jgemm_sender_handoff *h) {
  jgemm_sender_group s;
  const bool swizzled = jgemm_sm90_tma_store(p); /* the all-scatter's tiles, as the TMA stores read them */
  for (unsigned k = 0;; k++) {
    jgemm_mbar_wait(&h->ready, k & 1);
    const int t = *(volatile int *)&h->tile, kind = *(volatile int *)&h->kind;
    if (t < 0) return;
    const unsigned long long traced = jshmem_trace_begin(); /* JSHMEM_TRACE: the job's span, else nothing */
    auto read = [&] {
      if (s.tid == 0) jgemm_mbar_arrive(&h->read);
    };
    if (kind == JGEMM_HAND_STORE) {
      if (s.tid == 0) jgemm_sm90_store_and_count(p, t, otile, tma_c, h);
    } else if (kind == JGEMM_HAND_SUM)
      jgemm_store_sum(p, t / p.tiles_n, t % p.tiles_n, otile, s, read);
    else if (p.epilogue != JGEMM_ALL_SCATTER)
      jgemm_send_partial(p, t, otile, s, read);
    else if (swizzled)
      jgemm_send_tile(p, t, otile, jgemm_sender_group_swizzled(), 1, read);
    else
      jgemm_send_tile(p, t, otile, s, 1, read);
    if (s.tid == 0) /* the sender's first thread records the job: its own C ("store") or the peers' ("send") */
      jshmemi_trace_span(kind == JGEMM_HAND_STORE ? "compute" : "comm", kind == JGEMM_HAND_STORE ? "store" : "send", traced, t);
  }
}

/* Whether the finished tiles leave this PE by TMA stores (tensor map C, based at column col_offset of
 * C): the GEMM alone, or the all-scatter's copy into its own C (the peers' go through the sender or
 * the copy engines), with 16-byte aligned rows. org.jshmem.gemm.TensorMaps encodes the map where
 * this may hold. */
JSHMEM_DEVICE_INLINE bool jgemm_sm90_tma_store(const jgemm_params &p) {
  const bool scatter = p.epilogue == JGEMM_ALL_SCATTER;
  const unsigned long long c = jshmemi_addr(p.c + p.col_offset);
  return (p.epilogue == JGEMM_LOCAL || scatter) && ((c | (unsigned long long)p.ldc * 2) & 15) == 0;
}

/*
 * Tile (tm, tn), finished in d, rounded into `otile` as BN / 64 boxes of BM rows x 128 bytes in the
 * TMA's 128-byte swizzle (the 16-byte chunk c of row r at chunk c ^ (r % 8), so that the eight rows
 * of each stmatrix hit every bank once), ready for TMA stores (jgemm_sm90_issue_boxes) from one thread:
 * the per-row bulk copies needed 128 copies a tile, which the SM issues one lane at a time, while the
 * other consumer warps waited.
 */
JSHMEM_DEVICE_INLINE void jgemm_sm90_stage_boxes(const float *d, jgemm_t *otile, const jgemm_consumer_group &g) {
  constexpr int box_bytes = JGEMM_BM * 128;
  const int lane = g.tid % 32, warp = g.tid / 32;
  /* this lane's row of stmatrix's four 8x8 matrices: rows +0 and +8 of the fragment, column groups j and j + 1 */
  const int row = 64 * (warp / 4) + 16 * (warp % 4) + lane % 8 + 8 * ((lane / 8) % 2);
  unsigned char *boxes = (unsigned char *)otile;
#pragma unroll
  for (int j = 0; j < JGEMM_BN / 8; j += 2) {
    const int chunk = j + lane / 16;
    jgemm_stmatrix4(boxes + (chunk / 8) * box_bytes + row * 128 + (((chunk % 8) ^ (row % 8)) * 16),
                    jgemm_pack2(d[4 * j], d[4 * j + 1]), jgemm_pack2(d[4 * j + 2], d[4 * j + 3]),
                    jgemm_pack2(d[4 * j + 4], d[4 * j + 5]), jgemm_pack2(d[4 * j + 6], d[4 * j + 7]));
  }
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); /* the tile's writes, to the TMA */
  g.sync();
}

/*
 * A unit's accumulators, in registers, to the end: the Stream-K fix-up (jgemm_epilogue.h's
 * protocol; slot element (i * 256 + thread) * 4 + e holds d[4i + e], so every access is one
 * coalesced float4 per thread), then, for the tile's owner, the rounded tile into `otile` and
 * the publication. Consumer thread t of warpgroup c holds the fragment of wgmma's D layout:
 * rows 64c + 16(t / 32) + (t % 32) / 4 (+ 8), columns 8j + 2(t % 4) (+ 1).
 */
JSHMEM_DEVICE_INLINE void jgemm_sm90_finish(const jgemm_params &p, const jgemm_unit &u, int w, int rank, float *d,
                                            jgemm_t *otile, const jgemm_tensor_map *tma_c,
                                            const jgemm_consumer_group &g) {
  g.settle(); /* the previous tile's copies and stamps: the output tile is free again */
  const int plane = rank * p.grid;
  if (jgemm_sk_hands_over(u)) {
    jgemm_sk_hand_over(p, w, plane, g, [&](float *ws) {
      float4 *slot = (float4 *)ws;
#pragma unroll
      for (int i = 0; i < JGEMM_ACC / 4; i++)
        slot[i * JGEMM_CONSUMERS + g.tid] = make_float4(d[4 * i], d[4 * i + 1], d[4 * i + 2], d[4 * i + 3]);
    });
    return;
  }
  if (jgemm_sk_needs_partials(p, u)) {
    jgemm_sk_collect(p, u, w, plane, g, [&](const float *ws) {
      const float4 *slot = (const float4 *)ws;
#pragma unroll
      for (int i = 0; i < JGEMM_ACC / 4; i++) {
        float4 a = slot[i * JGEMM_CONSUMERS + g.tid];
        d[4 * i] += a.x;
        d[4 * i + 1] += a.y;
        d[4 * i + 2] += a.z;
        d[4 * i + 3] += a.w;
      }
    });
  }
  if (jgemm_sm90_tma_store(p)) {
    int tm, tn;
    jgemm_cta_tile_coords(p, u.tile, rank, tm, tn);
    g.reclaim(); /* all-scatter: the sender has read the previous tile */
    jgemm_sm90_stage_boxes(d, otile, g);
    const bool engines = p.epilogue == JGEMM_ALL_SCATTER && jgemm_chunk_by_engines(p, tm);
    if (engines && g.hand_off_store(u.tile)) return; /* the sender stores it and counts it */
    if (g.tid == 0) jgemm_sm90_issue_boxes(tm, tn, otile, tma_c);
    if (p.epilogue == JGEMM_ALL_SCATTER) {
      if (!engines) g.hand_off(u.tile); /* the peers' copies: to the sender (none with one PE) */
      jgemm_scatter_stored(p, u.tile, tm, g);
    }
    return;
  }
  g.reclaim(); /* the sender has read the previous tile */
  const int c = g.tid / 128, t = g.tid % 128, lane = t % 32;
  const int row = 64 * c + 16 * (t / 32) + lane / 4, col = 2 * (lane % 4);
#pragma unroll
  for (int j = 0; j < JGEMM_BN / 8; j++) {
    *(unsigned *)(otile + row * JGEMM_OTILE_LD + 8 * j + col) = jgemm_pack2(d[4 * j], d[4 * j + 1]);
    *(unsigned *)(otile + (row + 8) * JGEMM_OTILE_LD + 8 * j + col) = jgemm_pack2(d[4 * j + 2], d[4 * j + 3]);
  }
  g.sync();
  if (JGEMM_CLUSTER > 1) { /* plain GEMM: this CTA's row of the pair */
    int tm, tn;
    jgemm_cta_tile_coords(p, u.tile, rank, tm, tn);
    jgemm_store_local(p, tm, tn, otile, g);
    g.sync();
  } else {
    jgemm_publish_tile(p, u.tile, otile, g);
  }
}

extern "C" __global__ void __launch_bounds__(JGEMM_SM90_THREADS, 1) JGEMM_CLUSTER_DIMS
    jgemm_sm90(const __grid_constant__ jgemm_params p, const __grid_constant__ jgemm_tensor_map tma_a,
               const __grid_constant__ jgemm_tensor_map tma_b, const __grid_constant__ jgemm_tensor_map tma_a_local,
               const __grid_constant__ jgemm_tensor_map tma_c) {
  extern __shared__ unsigned char jgemm_smem_raw[];
  unsigned char *smem = (unsigned char *)((jshmemi_addr(jgemm_smem_raw) + 1023) & ~1023ull);
  unsigned char *ring = smem;
  jgemm_t *otile = (jgemm_t *)(smem + JGEMM_STAGES * JGEMM_STAGE_BYTES);
  unsigned long long *full = (unsigned long long *)((unsigned char *)otile + JGEMM_OTILE_BYTES);
  unsigned long long *empty = full + JGEMM_STAGES;
  /* with clusters, the schedule's work-group w is the cluster, and this CTA takes tile row rank of each pair */
  const int rank = JGEMM_CLUSTER > 1 ? (int)jgemm_cluster_rank() : 0;
  const int w = blockIdx.x / JGEMM_CLUSTER;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  __shared__ jgemm_sender_handoff handoff;
  const bool sender = p.n_pes > 1 && (p.epilogue == JGEMM_ALL_SCATTER || p.epilogue == JGEMM_REDUCE_SCATTER ||
                                      p.epilogue == JGEMM_ALL_REDUCE_TWO);

  if (threadIdx.x == 0) {
    for (int s = 0; s < JGEMM_STAGES; s++) {
      jgemm_mbar_init(&full[s], 1);
      jgemm_mbar_init(&empty[s], 8 * JGEMM_CLUSTER); /* one arrival per consumer warp of the cluster */
    }
    jgemm_mbar_init(&handoff.ready, 1);
    jgemm_mbar_init(&handoff.read, 1);
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  if (JGEMM_CLUSTER > 1)
    jgemm_cluster_sync(); /* the peer's barriers are initialised before anything arrives on them */
  else
    __syncthreads();

  jgemm_unit u;
  if (warp < 4) { /* warpgroup 0: one producer thread */
#if JGEMM_BN >= 192
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n" ::: "memory");
#endif
    if (warp == 0 && lane == 0) {
      asm volatile("prefetch.tensormap [%0];\n" ::"l"(&tma_a) : "memory");
      asm volatile("prefetch.tensormap [%0];\n" ::"l"(&tma_b) : "memory");
      asm volatile("prefetch.tensormap [%0];\n" ::"l"(&tma_a_local) : "memory");
      int s = 0;
      unsigned phase = 0;
      for (jgemm_cursor cur(p, w); cur.next(p, u);) {
        int tm, tn;
        jgemm_cta_tile_coords(p, u.tile, rank, tm, tn);
        /* all-gather + GEMM: own rows in place (tma_a_local); others once the gather wrote them */
        const bool local = jgemm_rows_local(p, tm);
        const jgemm_tensor_map *map_a = local ? &tma_a_local : &tma_a;
        const int a_row = local ? tm * JGEMM_BM - jgemm_block_start(p, p.my_pe) : tm * JGEMM_BM;
        if (p.a_ready != 0 && !local) {
          jgemm_wait_rows(p, tm);
          asm volatile("fence.proxy.async.global;\n" ::: "memory");
        }
        for (int it = u.begin; it < u.end; it++) {
          jgemm_mbar_wait(&empty[s], phase ^ 1);
          unsigned char *a = ring + s * JGEMM_STAGE_BYTES, *b = a + JGEMM_A_BYTES;
          jgemm_mbar_expect_tx(&full[s], JGEMM_STAGE_BYTES);
          jgemm_tma_load(a, map_a, it * JGEMM_BK, a_row, &full[s]);
#pragma unroll
          for (int j = 0; j < JGEMM_BN / 64; j++) {
            void *box = b + j * (64 * JGEMM_BK * 2);
            const int n0 = tn * JGEMM_BN + j * 64, k0 = it * JGEMM_BK;
            const int inner = JGEMM_B_NK ? k0 : n0, outer = JGEMM_B_NK ? n0 : k0;
            if (JGEMM_CLUSTER == 1)
              jgemm_tma_load(box, &tma_b, inner, outer, &full[s]);
            else if (j % JGEMM_CLUSTER == rank)
              jgemm_tma_load_multicast(box, &tma_b, inner, outer, &full[s], (unsigned short)((1u << JGEMM_CLUSTER) - 1));
          }
          if (++s == JGEMM_STAGES) {
            s = 0;
            phase ^= 1;
          }
        }
      }
      /* the peer's consumers arrive on this CTA's barriers: stay until they released every slot */
      for (int i = 0; JGEMM_CLUSTER > 1 && i < JGEMM_STAGES; i++) {
        jgemm_mbar_wait(&empty[s], phase ^ 1);
        if (++s == JGEMM_STAGES) {
          s = 0;
          phase ^= 1;
        }
      }
    } else if (warp > 0 && sender) {
      jgemm_sm90_send(p, otile, &tma_c, &handoff);
    }
    return;
  }
#if JGEMM_BN >= 192
  asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n" ::: "memory");
#endif

  /* consumers: warpgroup c = 0, 1 computes rows 64c .. 64c + 63 of the tile */
  const int c = (threadIdx.x - 128) / 128;
  __shared__ unsigned long long *later[JGEMM_SM90_LATER];
  jgemm_consumer_group g(p.epilogue == JGEMM_LOCAL, later, sender ? &handoff : nullptr);
  float d[JGEMM_ACC];
  int s = 0;
  unsigned phase = 0;
  for (jgemm_cursor cur(p, w); cur.next(p, u);) {
    const unsigned long long traced = jshmem_trace_begin(); /* JSHMEM_TRACE: the unit's spans, else nothing */
#pragma unroll
    for (int i = 0; i < JGEMM_ACC; i++) d[i] = 0.f;
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#if JGEMM_SM90_INFLIGHT
    int prev = -1; /* the stage whose products may still be in flight */
#endif
    for (int it = u.begin; it < u.end; it++) {
      jgemm_mbar_wait(&full[s], phase);
      const unsigned char *a = ring + s * JGEMM_STAGE_BYTES + c * 64 * (JGEMM_BK * 2);
      const unsigned char *b = ring + s * JGEMM_STAGE_BYTES + JGEMM_A_BYTES;
      /* a fence of our own before each stage's products: without it ptxas put one in where the
       * hand-over's branch joins, and serialized every wgmma of the kernel (C7520, 128x256 tiles) */
      asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
      for (int kk = 0; kk < JGEMM_BK / 16; kk++) {
        unsigned long long da = jgemm_desc(a + kk * 32, 16, 1024);
        unsigned long long db = jgemm_desc(b + kk * JGEMM_SM90_B_K16, JGEMM_SM90_B_LBO, JGEMM_SM90_B_SBO);
        jgemm_wgmma(d, da, db, 1);
      }
      asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#if JGEMM_SM90_INFLIGHT
      /* keep this stage's products in flight: wait only for the previous stage's, then release it */
      asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
      if (prev >= 0 && lane == 0) jgemm_release_slot(&empty[prev]);
      prev = s;
#else
      /* wait for this stage's products before handing its slot back: keeping one group in flight delays
       * each release by an iteration, which measured slower with 3 or 4 stages and level with 5 */
      asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
      if (lane == 0) jgemm_release_slot(&empty[s]);
#endif
      if (++s == JGEMM_STAGES) {
        s = 0;
        phase ^= 1;
      }
    }
#if JGEMM_SM90_INFLIGHT
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    if (prev >= 0 && lane == 0) jgemm_release_slot(&empty[prev]);
#endif
    const unsigned long long finishing = threadIdx.x == 128 ? jgemm_trace_mma(u, traced) : 0;
    jgemm_sm90_finish(p, u, w, rank, d, otile, &tma_c, g);
    if (threadIdx.x == 128) jgemm_trace_epilogue(p, u, finishing);
  }
  g.settle();
  g.retire_sender();
  jgemm_finish_parked(p, w, otile, g);
  g.settle();
  jgemm_wait_arrivals(p, w, g);
}
