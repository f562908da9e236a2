/*
 * jgemm_epilogue.h - what happens to a unit's accumulators once its K-iterations are done: the
 * Stream-K fix-up and the fused collective. Shared by every GEMM kernel (portable and sm_90a): a
 * kernel does the Stream-K fix-up on its fp32 accumulators (in shared memory with the helpers below, or
 * in registers with the protocol helpers jgemm_sk_*), rounds the finished tile into a shared-memory
 * tile of the output type (JGEMM_BM rows of JGEMM_OTILE_LD elements) and calls jgemm_publish_tile with
 * the group of threads that run the epilogue. jgemm_finish_unit does all of it for kernels that keep
 * an fp32 tile in shared memory (JGEMM_BM rows of JGEMM_TILE_LD floats).
 *
 * Layouts (sizes computed and checked by org.jshmem.gemm.GemmWorkspace):
 *   workspace   grid slots of BM*BN floats, row-major, this PE only
 *   staging     one-shot: [2 parities][n_pes sources][tiles] tiles of BM*BN elements
 *               reduce-scatter ([2 parities]) and two-shot all-reduce: [n_pes sources][home_slots] on each PE
 *               owning rows of the tile (its row block, jgemm_block_start): slot (tile row - the
 *               home's first tile row) * tiles_n + tile column (the home's own source slot is
 *               used only to park its partial: it sums it straight from the output tile)
 *   arrive      all-scatter: [arrive_count] stamps, PE q's tile t at arrive_base(q) + t; by the copy
 *               engines (scatter_rows > 0): [n_pes] stamps, PE q's copies arrived (set by q's stream),
 *               then a record {count, done, tiles} per chunk of scatter_rows tile rows (jgemm_count_chunk),
 *               then the copy stream's `copied` stamp (jgemm_scatter_tail.h waits for it)
 *               one-shot all-reduce: [n_pes][tiles] partial stamps
 *               reduce-scatter: [n_pes][tiles] partial stamps, tile (tm, tn) at tm * tiles_n + tn
 *               (coordinates, not t: the PEs take the tiles in different rotations)
 *               two-shot all-reduce: the same, then [n_pes][tiles] final stamps (owner q's sum
 *               of its rows of the tile has arrived)
 * Reduce-scatter is the two-shot all-reduce's first half: the all-reduce's owners then store
 * their sums into every PE's C. Nothing in a work-group's units waits for a peer.
 * Every PE's C ends bit-identical: partials are rounded to the output type once and summed in PE
 * order 0..n_pes-1 in fp32.
 */
#ifndef JGEMM_EPILOGUE_H
#define JGEMM_EPILOGUE_H

#include "jgemm.h"

/* Row pitches of the shared-memory tiles (KernelVariant.sharedBytes counts them): the padding breaks bank conflicts. */
#define JGEMM_TILE_LD (JGEMM_BN + 4)  /* floats per fp32 tile row */
#define JGEMM_OTILE_LD (JGEMM_BN + 8) /* elements per output-type tile row: +16 bytes */
#define JGEMM_TILE_ELEMS (JGEMM_BM * JGEMM_BN)

/* Before a barrier that hands the group's stores to one thread's system-scope release. */
JSHMEM_DEVICE_INLINE void jgemm_release_fence() { jshmemi_group_release_fence(); }

/* What a group's stamp() writes: */
#define JGEMM_STAMP_PEER 0  /* a stamp read by a peer (system scope; flag is its address here) */
#define JGEMM_STAMP_LOCAL 1 /* a stamp read on this GPU only (GPU scope) */
#define JGEMM_STAMP_CHUNK 2 /* a tile counted into its chunk's record (jgemm_count_chunk) */
#define JGEMM_STAMP_CHUNK_SENT 3 /* the same, the tile stored into the peers */
JSHMEM_DEVICE_INLINE void jgemm_stamp_kind(unsigned long long *flag, int kind, unsigned long long gen) {
  if (kind == JGEMM_STAMP_LOCAL) {
    jgemm_stamp_local(flag, gen);
  } else if (kind == JGEMM_STAMP_CHUNK || kind == JGEMM_STAMP_CHUNK_SENT) {
    jgemm_count_chunk(flag, gen, kind == JGEMM_STAMP_CHUNK_SENT);
  } else {
    jgemm_stamp(flag, gen);
  }
}

/* ---- Stream-K protocol (for kernels that fix up in registers) -------------------------------- */

/* Whether unit u of work-group w must hand its partial over (it does not own the tile). */
JSHMEM_DEVICE_INLINE bool jgemm_sk_hands_over(const jgemm_unit &u) { return u.begin != 0; }
/* Whether the owner of unit u must add partials of later work-groups. */
JSHMEM_DEVICE_INLINE bool jgemm_sk_needs_partials(const jgemm_params &p, const jgemm_unit &u) {
  return u.begin == 0 && u.end != p.iters_per_tile;
}
/* Work-group w's partial slot (BM*BN floats; the layout inside is the kernel's choice). */
JSHMEM_DEVICE_INLINE float *jgemm_sk_slot(const jgemm_params &p, int w) {
  return p.workspace + (long long)w * JGEMM_TILE_ELEMS;
}
/* Whether work-group v's range reaches the end of tile `tile` (then it is the last contributor). */
JSHMEM_DEVICE_INLINE bool jgemm_sk_reaches_end(const jgemm_params &p, int v, int tile) {
  int start, end;
  jgemm_sk_range(p, v, start, end);
  return end >= (tile + 1) * p.iters_per_tile;
}
/* Protocol: a hand-over writes its slot, then (after a barrier over its writers) one thread calls
 * jgemm_sk_stamp(p, w). The owner, for v = w+1, w+2, ...: one thread jgemm_sk_wait(p, v), a barrier,
 * everyone adds slot v, and stops after the v for which jgemm_sk_reaches_end holds. A cluster of
 * work-groups that walk one schedule together (jgemm_sm90's JGEMM_CLUSTER) gives each of its members
 * a plane of its own: slots and stamps w + plane, plane = rank * p.grid; 0 otherwise. */
JSHMEM_DEVICE_INLINE void jgemm_sk_stamp(const jgemm_params &p, int w) { jgemm_stamp_local(p.sk_flags + w, p.generation); }
JSHMEM_DEVICE_INLINE void jgemm_sk_wait(const jgemm_params &p, int v) { jgemm_wait_stamp(p.sk_flags + v, p.generation); }

/* The hand-over side of the protocol: write(slot) stores work-group w's partial (each thread its share
 * of the kernel's layout), then one thread stamps it after a group barrier. */
template <class G, class Write>
JSHMEM_DEVICE_INLINE void jgemm_sk_hand_over(const jgemm_params &p, int w, int plane, const G &g, Write write) {
  write(jgemm_sk_slot(p, w + plane));
  jgemm_release_fence();
  g.sync();
  if (g.tid == 0) jgemm_sk_stamp(p, w + plane);
}

/* The owner's side: add(slot) adds the partial of work-group v = w+1, w+2, ... once it is stamped,
 * up to the last contributor to unit u's tile. */
template <class G, class Add>
JSHMEM_DEVICE_INLINE void jgemm_sk_collect(const jgemm_params &p, const jgemm_unit &u, int w, int plane, const G &g,
                                            Add add) {
  for (int v = w + 1; v < p.sk_wgs; v++) {
    if (g.tid == 0) jgemm_sk_wait(p, v + plane);
    g.sync();
    jshmemi_group_acquire_fence();
    add((const float *)jgemm_sk_slot(p, v + plane));
    if (jgemm_sk_reaches_end(p, v, u.tile)) break;
  }
}

/* ---- 8-element packing ------------------------------------------------------------------- */

JSHMEM_DEVICE_INLINE uint4 jgemm_pack8(const float *v) {
  return make_uint4(jgemm_pack2(v[0], v[1]), jgemm_pack2(v[2], v[3]), jgemm_pack2(v[4], v[5]), jgemm_pack2(v[6], v[7]));
}

JSHMEM_DEVICE_INLINE void jgemm_unpack8_add(uint4 w, float *acc) {
  unsigned u[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
  for (int i = 0; i < 4; i++) {
    acc[2 * i] += jgemm_unpack((unsigned short)(u[i] & 0xffffu));
    acc[2 * i + 1] += jgemm_unpack((unsigned short)(u[i] >> 16));
  }
}

/* Rounds an fp32 shared-memory tile into an output-type one. */
template <class G>
JSHMEM_DEVICE void jgemm_tile_round(const float *tile, jgemm_t *otile, const G &g) {
  for (int i = g.tid; i < JGEMM_TILE_ELEMS / 8; i += g.size) {
    int r = i / (JGEMM_BN / 8), c = (i % (JGEMM_BN / 8)) * 8;
    *(uint4 *)(otile + r * JGEMM_OTILE_LD + c) = jgemm_pack8(tile + r * JGEMM_TILE_LD + c);
  }
}

/* The layout of an output tile: where the 8 elements from column c (a multiple of 8) of row r lie.
 * Rows JGEMM_OTILE_LD elements apart (kernels may have others: jgemm_sm90's swizzled boxes). */
struct jgemm_padded_tile {
  JSHMEM_DEVICE_INLINE static const jgemm_t *at(const jgemm_t *otile, int r, int c) {
    return otile + r * JGEMM_OTILE_LD + c;
  }
};

/* Stores the otile's valid rows x cols at dst (row-major, ld elements). */
template <class Layout = jgemm_padded_tile, class G>
JSHMEM_DEVICE void jgemm_tile_store(const jgemm_t *otile, jgemm_t *dst, long long ld, int rows, int cols, const G &g) {
  for (int i = g.tid; i < JGEMM_TILE_ELEMS / 8; i += g.size) {
    int r = i / (JGEMM_BN / 8), c = (i % (JGEMM_BN / 8)) * 8;
    if (r >= rows || c >= cols) continue;
    const jgemm_t *src = Layout::at(otile, r, c);
    jgemm_t *out = dst + r * ld + c;
    if (c + 8 <= cols && (jshmemi_addr(out) & 15) == 0) {
      *(uint4 *)out = *(const uint4 *)src;
    } else {
      for (int j = 0; j < 8 && c + j < cols; j++) out[j] = src[j];
    }
  }
}

/* Stores the whole otile as a dense BM x BN block (staging slots; always 16-byte aligned). */
template <class Layout = jgemm_padded_tile, class G>
JSHMEM_DEVICE void jgemm_tile_store_dense(const jgemm_t *otile, jgemm_t *slot, const G &g) {
  for (int i = g.tid; i < JGEMM_TILE_ELEMS / 8; i += g.size) {
    int r = i / (JGEMM_BN / 8), c = (i % (JGEMM_BN / 8)) * 8;
    *(uint4 *)(slot + r * JGEMM_BN + c) = *(const uint4 *)Layout::at(otile, r, c);
  }
}

#define JGEMM_SUM_BATCH 8 /* 8-element chunks a thread loads before it adds them */

/*
 * The fp32 sum, in PE order, of n partial tiles, chunk by chunk (8 elements, chunk i at row
 * i / (BN / 8)): load(s, i) gives chunk i of partial s (or is not called where want(i) is false),
 * store(i, v) takes the rounded sum. Each thread loads JGEMM_SUM_BATCH chunks of a partial before
 * adding any, so that many loads are in flight at once: one at a time, each waited for, made an
 * owner's sum take as long as its tile's main loop.
 */
template <class G, class Want, class Load, class Store>
JSHMEM_DEVICE void jgemm_sum_chunks(int n, const G &g, Want want, Load load, Store store) {
  constexpr int chunks = JGEMM_TILE_ELEMS / 8;
  for (int base = g.tid; base < chunks; base += JGEMM_SUM_BATCH * g.size) {
    float acc[JGEMM_SUM_BATCH][8];
#pragma unroll
    for (int b = 0; b < JGEMM_SUM_BATCH; b++)
#pragma unroll
      for (int e = 0; e < 8; e++) acc[b][e] = 0.f;
    for (int s = 0; s < n; s++) {
      uint4 v[JGEMM_SUM_BATCH];
#pragma unroll
      for (int b = 0; b < JGEMM_SUM_BATCH; b++) {
        int i = base + b * g.size;
        v[b] = i < chunks && want(i) ? load(s, i) : make_uint4(0, 0, 0, 0);
      }
#pragma unroll
      for (int b = 0; b < JGEMM_SUM_BATCH; b++) jgemm_unpack8_add(v[b], acc[b]);
    }
#pragma unroll
    for (int b = 0; b < JGEMM_SUM_BATCH; b++) {
      int i = base + b * g.size;
      if (i < chunks && want(i)) store(i, jgemm_pack8(acc[b]));
    }
  }
}

/* otile = rounded sum over s in [0, n) of slot s (dense, `stride` elements apart), in order, in fp32. */
template <class G>
JSHMEM_DEVICE void jgemm_tile_sum_slots(jgemm_t *otile, const jgemm_t *slots, long long stride, int n, const G &g) {
  jgemm_sum_chunks(
      n, g, [](int) { return true; },
      [&](int s, int i) { return *(const uint4 *)(slots + s * stride + i * 8); },
      [&](int i, uint4 v) { *(uint4 *)(otile + (i / (JGEMM_BN / 8)) * JGEMM_OTILE_LD + (i % (JGEMM_BN / 8)) * 8) = v; });
}

/* ---- the groups that run the epilogue ------------------------------------------------------- */

/*
 * The threads running the epilogue, and how their tile stores leave: each knows its index; sync() is
 * a barrier over exactly them, all(v) one that returns whether v holds on every thread. store() and
 * store_dense() move the output tile (or its valid rows x cols) out; stamp() publishes everything the
 * group stored so far with a stamp; settle() completes what is still under way, and comes before the
 * group waits for anyone; reread() only waits until the stores have read the output tile, which
 * may then be written again (settle() does that too); hand_off(t) gives tile t's copies to the peers
 * to a sender of the group's own, if it has one, and hand_off_sum(key) an owner's sum of the tile at
 * key (tm * tiles_n + tn) for every PE's C (jgemm_store_sum). This group stores with its threads and stamps at
 * once; Threads names them (first thread, count) and gives their barriers, Layout the output tile's
 * (jgemm_padded_tile). The Hopper kernel's consumers store through the bulk-copy engine and stamp at
 * settle() (jgemm_sm90.cu).
 */
template <class Threads, class Layout = jgemm_padded_tile>
struct jgemm_storing_group {
  int tid = (int)threadIdx.x - Threads::first, size = Threads::count();
  JSHMEM_DEVICE_INLINE void sync() const { Threads::sync(); }
  JSHMEM_DEVICE_INLINE bool all(bool v) const { return Threads::all(v); }
  JSHMEM_DEVICE_INLINE void store(const jgemm_t *otile, jgemm_t *dst, long long ld, int rows, int cols) const {
    jgemm_tile_store<Layout>(otile, dst, ld, rows, cols, *this);
  }
  JSHMEM_DEVICE_INLINE void store_dense(const jgemm_t *otile, jgemm_t *slot) const {
    jgemm_tile_store_dense<Layout>(otile, slot, *this);
  }
  JSHMEM_DEVICE_INLINE void stamp(unsigned long long *flag, int kind, unsigned long long gen) const {
    jgemm_release_fence();
    sync();
    if (tid == 0) jgemm_stamp_kind(flag, kind, gen);
  }
  JSHMEM_DEVICE_INLINE void settle() const { sync(); }
  JSHMEM_DEVICE_INLINE void reread() const { sync(); }
  JSHMEM_DEVICE_INLINE bool hand_off(int) const { return false; }
  JSHMEM_DEVICE_INLINE bool hand_off_sum(int) const { return false; }
};

/* The whole block as a storing group (the portable kernel). */
struct jgemm_whole_block {
  static constexpr int first = 0;
  JSHMEM_DEVICE_INLINE static int count() { return (int)blockDim.x; }
  JSHMEM_DEVICE_INLINE static void sync() { __syncthreads(); }
  JSHMEM_DEVICE_INLINE static bool all(bool v) { return __syncthreads_and(v) != 0; }
};
using jgemm_block_group = jgemm_storing_group<jgemm_whole_block>;

/* The slot (per source) of tile (tm, tn) on its home PE q: its tile rows from q's first. */
JSHMEM_DEVICE_INLINE long long jgemm_home_slot(const jgemm_params &p, int q, int tm, int tn) {
  return (long long)(tm - jgemm_block_start(p, q) / JGEMM_BM) * p.tiles_n + tn;
}

/*
 * Where source PE src's partial of tile (tm, tn) lies in home PE q's staging (q's address). The
 * reduce-scatter alternates two halves by the call's parity: a PE may start its next call, and
 * push into the same slot, while its peer still sums this call's (it waits only for its own
 * rows); two calls ahead it cannot, since finishing the next call needs the peer's pushes of it.
 * The two-shot all-reduce needs one: a PE's call ends only once every owner has summed its tiles.
 */
JSHMEM_DEVICE_INLINE jgemm_t *jgemm_staged(const jgemm_params &p, int src, int q, int tm, int tn) {
  const long long half = p.epilogue == JGEMM_REDUCE_SCATTER ? (long long)(p.generation & 1) * p.n_pes : 0;
  return p.staging + ((half + src) * p.home_slots + jgemm_home_slot(p, q, tm, tn)) * JGEMM_TILE_ELEMS;
}

/* The rows [top, bottom) of tile (tm, tn) in this PE's row block (jgemm_block_start), and the
 * tile's valid columns: what an owner sums (reduce-scatter, two-shot all-reduce). */
JSHMEM_DEVICE_INLINE void jgemm_own_rows(const jgemm_params &p, int tm, int tn, int &top, int &bottom, int &cols) {
  const int r0 = jgemm_block_start(p, p.my_pe), r1 = jgemm_block_start(p, p.my_pe + 1);
  const int row0 = tm * JGEMM_BM, col0 = tn * JGEMM_BN;
  top = (row0 > r0 ? row0 : r0) - row0;
  bottom = (row0 + JGEMM_BM < r1 ? row0 + JGEMM_BM : r1) - row0;
  cols = p.n - col0 < JGEMM_BN ? p.n - col0 : JGEMM_BN;
}

/*
 * On an owner of tile (tm, tn) with every peer's partial in its staging: the fp32 sum in PE order
 * of the partials, its own read at `own` (ld own_ld elements: the output tile, or the slot it
 * parked it in), over the tile's rows it owns, [top, bottom) and its first `cols` columns
 * (jgemm_own_rows), rounded into `out` (the tile's row r at out + r * out_ld; only those rows and
 * columns are written). `own` may be `out` (each chunk is read before it is written, by the same
 * thread).
 */
template <class G>
JSHMEM_DEVICE void jgemm_reduce_own_rows(const jgemm_params &p, int tm, int tn, int top, int bottom, int cols,
                                         const jgemm_t *own, int own_ld, jgemm_t *out, long long out_ld, const G &g) {
  const long long stride = p.home_slots * (long long)JGEMM_TILE_ELEMS;
  const jgemm_t *slots = jgemm_staged(p, 0, p.my_pe, tm, tn);
  jgemm_sum_chunks(
      p.n_pes, g,
      [&](int i) {
        int r = i / (JGEMM_BN / 8), c = (i % (JGEMM_BN / 8)) * 8;
        return r >= top && r < bottom && c < cols;
      },
      [&](int s, int i) {
        int r = i / (JGEMM_BN / 8), c = (i % (JGEMM_BN / 8)) * 8;
        return s == p.my_pe ? *(const uint4 *)(own + r * own_ld + c) : *(const uint4 *)(slots + s * stride + i * 8);
      },
      [&](int i, uint4 sum) {
        int r = i / (JGEMM_BN / 8), c = (i % (JGEMM_BN / 8)) * 8;
        jgemm_t *at = out + r * out_ld + c;
        if (c + 8 <= cols && (jshmemi_addr(at) & 15) == 0) {
          *(uint4 *)at = sum;
        } else {
          for (int j = 0; j < 8 && c + j < cols; j++) {
            unsigned word = j < 2 ? sum.x : j < 4 ? sum.y : j < 6 ? sum.z : sum.w;
            at[j] = (jgemm_t)(word >> (16 * (j & 1)));
          }
        }
      });
}

/* ---- the epilogue ------------------------------------------------------------------------ */

/* Thread 0 waits for a stamp, then the group may read what it released. The group settles first:
 * the waited-for peer may itself wait for a stamp this group still holds. */
template <class G>
JSHMEM_DEVICE void jgemm_group_wait(const unsigned long long *flag, unsigned long long gen, const G &g) {
  g.settle();
  if (g.tid == 0) jgemm_wait_stamp(flag, gen);
  g.sync();
  jshmemi_group_acquire_fence();
}

/* Publishes the group's stores (to any PE) with a stamp on PE pe (GPU scope when pe is this one). */
template <class G>
JSHMEM_DEVICE void jgemm_group_stamp(const jgemm_params &p, unsigned long long *flag, int pe, const G &g) {
  const bool local = pe == p.my_pe;
  g.stamp(local ? flag : (unsigned long long *)jshmem_ptr(flag, pe), local ? JGEMM_STAMP_LOCAL : JGEMM_STAMP_PEER,
          p.generation);
}

/*
 * An owner's sum of tile (tm, tn), every peer's partial being in (reduce-scatter, two-shot
 * all-reduce; its own partial at `own`, ld own_ld). Reduce-scatter rounds it into its C, whose
 * first row is its block's. The all-reduce rounds it into the output tile (once its copies to
 * the peers have read it) and stores it into every PE's C, stamping each peer's
 * copy with this PE's final stamp of the tile (arrive + (n_pes + my_pe) * tiles + key, on the peer).
 */
template <class G>
JSHMEM_DEVICE void jgemm_sum_own_rows(const jgemm_params &p, int tm, int tn, const jgemm_t *own, int own_ld,
                                      jgemm_t *otile, const G &g) {
  const int row0 = tm * JGEMM_BM, col0 = tn * JGEMM_BN;
  int top, bottom, cols;
  jgemm_own_rows(p, tm, tn, top, bottom, cols);
  if (p.epilogue == JGEMM_REDUCE_SCATTER) {
    jgemm_t *rows = p.c + (long long)(row0 - jgemm_block_start(p, p.my_pe)) * p.ldc + col0;
    jgemm_reduce_own_rows(p, tm, tn, top, bottom, cols, own, own_ld, rows, p.ldc, g);
    return;
  }
  g.reread();
  jgemm_reduce_own_rows(p, tm, tn, top, bottom, cols, own, own_ld, otile, JGEMM_OTILE_LD, g);
  g.sync();
  if (!g.hand_off_sum(tm * p.tiles_n + tn)) jgemm_store_sum(p, tm, tn, otile, g, [] {});
}

/*
 * Two-shot all-reduce: an owner's sum of tile (tm, tn), rounded in `otile` (jgemm_sum_own_rows), into
 * every PE's C (rotated: PEs do not all write one peer at once), each peer's copy stamped with this PE's
 * final stamp of the tile; read() as for jgemm_send_tile.
 */
template <class G, class Read>
JSHMEM_DEVICE void jgemm_store_sum(const jgemm_params &p, int tm, int tn, const jgemm_t *otile, const G &g, Read read) {
  const int row0 = tm * JGEMM_BM, col0 = tn * JGEMM_BN;
  int top, bottom, cols;
  jgemm_own_rows(p, tm, tn, top, bottom, cols);
  const long long key = (long long)tm * p.tiles_n + tn;
  for (int i = 0; i < p.n_pes; i++) {
    int pe = (p.my_pe + i) % p.n_pes;
    jgemm_t *c = (jgemm_t *)jshmem_ptr(p.c, pe) + (long long)(row0 + top) * p.ldc + col0;
    g.store(otile + top * JGEMM_OTILE_LD, c, p.ldc, bottom - top, cols);
    if (i + 1 == p.n_pes) {
      g.sync();
      read();
    }
    if (pe != p.my_pe) jgemm_group_stamp(p, p.arrive + (long long)(p.n_pes + p.my_pe) * jgemm_tiles(p) + key, pe, g);
  }
}

/* All-scatter by the copy engines: tile row tm's tile counted into its chunk's record (jgemm_count_chunk;
 * sent: stored into the peers), settled now, not a unit later: the chunk's copies wait for it. */
template <class G>
JSHMEM_DEVICE void jgemm_count_into_chunk(const jgemm_params &p, int tm, bool sent, const G &g) {
  g.stamp(jgemm_chunk_record(p, tm), sent ? JGEMM_STAMP_CHUNK_SENT : JGEMM_STAMP_CHUNK, p.generation);
  g.settle();
}

/*
 * All-scatter: tile t, rounded in `otile`, into the C of every PE from the `from`-th after this one
 * (rotated: the PEs do not all write one peer at once), each copy stamped; read() is called once
 * the group has read the output tile (it may then be written again), before the stamps. With the copy
 * engines (scatter_rows > 0: only the last chunk's tiles come here, jgemm_chunk_by_engines) there are
 * no stamps: the tile is counted into its chunk once every copy is stored.
 */
template <class G, class Read>
JSHMEM_DEVICE void jgemm_send_tile(const jgemm_params &p, int t, const jgemm_t *otile, const G &g, int from, Read read) {
  int tm, tn;
  jgemm_tile_coords(p, t, tm, tn);
  int row0 = tm * JGEMM_BM, col0 = tn * JGEMM_BN;
  int rows = p.m - row0 < JGEMM_BM ? p.m - row0 : JGEMM_BM;
  int cols = p.n - col0 < JGEMM_BN ? p.n - col0 : JGEMM_BN;
  for (int i = from; i < p.n_pes; i++) {
    int pe = (p.my_pe + i) % p.n_pes;
    g.store(otile, (jgemm_t *)jshmem_ptr(p.c, pe) + row0 * p.ldc + p.col_offset + col0, p.ldc, rows, cols);
    if (i + 1 == p.n_pes) {
      g.sync();
      read();
    }
    if (p.scatter_rows == 0) jgemm_group_stamp(p, p.arrive + p.arrive_base + t, pe, g);
  }
  if (p.scatter_rows > 0) jgemm_count_into_chunk(p, tm, true, g);
}

/*
 * Reduce-scatter and two-shot all-reduce: tile t's partial, rounded in `otile`, into its staging slot
 * on every other PE owning rows of the tile, each stamped; read() as for jgemm_send_tile.
 */
template <class G, class Read>
JSHMEM_DEVICE void jgemm_send_partial(const jgemm_params &p, int t, const jgemm_t *otile, const G &g, Read read) {
  int tm, tn;
  jgemm_tile_coords(p, t, tm, tn);
  const int row0 = tm * JGEMM_BM, last = (p.m - row0 < JGEMM_BM ? p.m : row0 + JGEMM_BM) - 1;
  const int first_q = jgemm_block_of(p, row0), last_q = jgemm_block_of(p, last);
  for (int q = first_q; q <= last_q; q++)
    if (q != p.my_pe) g.store_dense(otile, (jgemm_t *)jshmem_ptr(jgemm_staged(p, p.my_pe, q, tm, tn), q));
  g.sync();
  read();
  for (int q = first_q; q <= last_q; q++)
    if (q != p.my_pe) jgemm_group_stamp(p, p.arrive + p.my_pe * jgemm_tiles(p) + (long long)tm * p.tiles_n + tn, q, g);
}

/* The output tile at tile row tm, column tn of this PE's C, clipped to C (no collective). A tile
 * row past C (the second half of a cluster's pair in the last row) stores nothing. */
template <class G>
JSHMEM_DEVICE void jgemm_store_local(const jgemm_params &p, int tm, int tn, const jgemm_t *otile, const G &g) {
  int row0 = tm * JGEMM_BM, col0 = tn * JGEMM_BN;
  int rows = p.m - row0 < JGEMM_BM ? p.m - row0 : JGEMM_BM;
  int cols = p.n - col0 < JGEMM_BN ? p.n - col0 : JGEMM_BN;
  if (rows > 0) g.store(otile, p.c + row0 * p.ldc + col0, p.ldc, rows, cols);
}

/*
 * All-scatter, tile t (tile row tm), once its store into this PE's C is issued, with the peers'
 * copies left to the copy engines or the group's sender: counts it into its chunk (the copy engines
 * copy a chunk once it is whole), or stamps this PE's copy; nothing in the copy engines' last chunk,
 * which the sender counts once it has stored the peers' copies.
 */
template <class G>
JSHMEM_DEVICE void jgemm_scatter_stored(const jgemm_params &p, int t, int tm, const G &g) {
  if (jgemm_chunk_by_engines(p, tm))
    jgemm_count_into_chunk(p, tm, false, g);
  else if (p.scatter_rows == 0)
    jgemm_group_stamp(p, p.arrive + p.arrive_base + t, p.my_pe, g);
}

/*
 * The fused collective on a finished tile t, rounded in `otile` (complete in shared memory: the
 * caller synchronised the group after writing it). The otile may be overwritten (all-reduce).
 * Ends with a group barrier: the caller may reuse the otile afterwards (a group with a sender, once
 * the sender has read what was handed to it).
 */
template <class G>
JSHMEM_DEVICE void jgemm_publish_tile(const jgemm_params &p, int t, jgemm_t *otile, const G &g) {
  int tm, tn;
  jgemm_tile_coords(p, t, tm, tn);
  int row0 = tm * JGEMM_BM, col0 = tn * JGEMM_BN;
  int rows = p.m - row0 < JGEMM_BM ? p.m - row0 : JGEMM_BM;
  int cols = p.n - col0 < JGEMM_BN ? p.n - col0 : JGEMM_BN;
  int tiles = jgemm_tiles(p);
  const unsigned long long gen = p.generation;
  const long long slot = JGEMM_TILE_ELEMS;

  if (p.epilogue == JGEMM_LOCAL) {
    jgemm_store_local(p, tm, tn, otile, g);
  } else if (p.epilogue == JGEMM_ALL_SCATTER) {
    if (jgemm_chunk_by_engines(p, tm) || g.hand_off(t)) { /* the PE's own C now; the peers' copies later */
      g.store(otile, p.c + row0 * p.ldc + p.col_offset + col0, p.ldc, rows, cols);
      jgemm_scatter_stored(p, t, tm, g);
    } else {
      jgemm_send_tile(p, t, otile, g, 0, [] {});
    }
  } else if (p.epilogue == JGEMM_ALL_REDUCE_ONE) {
    long long parity = (long long)(gen & 1);
    jgemm_t *mine = p.staging + ((parity * p.n_pes + p.my_pe) * tiles + t) * slot;
    for (int i = 0; i < p.n_pes; i++) {
      int pe = (p.my_pe + i) % p.n_pes;
      g.store_dense(otile, (jgemm_t *)jshmem_ptr(mine, pe));
      jgemm_group_stamp(p, p.arrive + p.my_pe * tiles + t, pe, g);
    }
    for (int s = 0; s < p.n_pes; s++) jgemm_group_wait(p.arrive + s * tiles + t, gen, g);
    jgemm_tile_sum_slots(otile, p.staging + (parity * p.n_pes * tiles + t) * slot, tiles * slot, p.n_pes, g);
    g.sync();
    g.store(otile, p.c + row0 * p.ldc + col0, p.ldc, rows, cols);
  } else { /* JGEMM_REDUCE_SCATTER, JGEMM_ALL_REDUCE_TWO */
    /* to the other PEs owning rows of the tile (one, or two where a row block ends inside it).
     * An owner sums its rows at once if every peer's partial is in (each PE takes its own tile
     * rows after the peers took them: TileRowOrder, so they mostly are); else it parks its partial in
     * its own staging slot, stamped, and sums after its last unit (jgemm_finish_parked). Nothing
     * in the main loop waits for a peer, whatever the order. */
    int last = row0 + rows - 1, first_q = jgemm_block_of(p, row0), last_q = jgemm_block_of(p, last);
    const long long key = (long long)tm * p.tiles_n + tn;
    const bool mine = first_q <= p.my_pe && p.my_pe <= last_q;
    if (mine || !g.hand_off(t)) jgemm_send_partial(p, t, otile, g, [] {});
    if (mine) {
      bool in = true;
      if (g.tid == 0)
        for (int s = 0; s < p.n_pes; s++)
          in = in && (s == p.my_pe || (long long)(jshmemi_ld_acquire_sys(p.arrive + s * tiles + key) - gen) >= 0);
      if (g.all(g.tid != 0 || in)) {
        jshmemi_group_acquire_fence();
        jgemm_sum_own_rows(p, tm, tn, otile, JGEMM_OTILE_LD, otile, g);
      } else {
        g.store_dense(otile, jgemm_staged(p, p.my_pe, p.my_pe, tm, tn));
        jgemm_group_stamp(p, p.arrive + p.my_pe * tiles + key, p.my_pe, g);
      }
    }
  }
  g.sync();
}

/*
 * For kernels that keep their fp32 accumulators in a shared-memory tile: the unit's partial sum is
 * in `tile`; fixes up (Stream-K) and, if this work-group owns the tile, rounds it into `otile` and
 * publishes it. Every thread of the group calls it; w is this work-group's index. Both tiles may be
 * overwritten. Ends with a group barrier.
 */
template <class G>
JSHMEM_DEVICE void jgemm_finish_unit(const jgemm_params &p, const jgemm_unit &u, int w, float *tile, jgemm_t *otile,
                                     const G &g) {
  g.sync(); /* the tile is complete in shared memory */
  if (jgemm_sk_hands_over(u)) {
    jgemm_sk_hand_over(p, w, 0, g, [&](float *ws) {
      for (int i = g.tid; i < JGEMM_TILE_ELEMS / 4; i += g.size) {
        int r = i / (JGEMM_BN / 4), c = (i % (JGEMM_BN / 4)) * 4;
        *(float4 *)(ws + r * JGEMM_BN + c) = *(const float4 *)(tile + r * JGEMM_TILE_LD + c);
      }
    });
    return;
  }
  if (jgemm_sk_needs_partials(p, u)) {
    jgemm_sk_collect(p, u, w, 0, g, [&](const float *ws) {
      for (int i = g.tid; i < JGEMM_TILE_ELEMS / 4; i += g.size) {
        int r = i / (JGEMM_BN / 4), c = (i % (JGEMM_BN / 4)) * 4;
        float4 a = *(const float4 *)(ws + r * JGEMM_BN + c);
        float4 *t = (float4 *)(tile + r * JGEMM_TILE_LD + c);
        t->x += a.x;
        t->y += a.y;
        t->z += a.z;
        t->w += a.w;
      }
    });
    g.sync();
  }
  jgemm_tile_round(tile, otile, g);
  g.sync();
  jgemm_publish_tile(p, u.tile, otile, g);
}

/* After its last unit, a work-group waits for its share of the arrivals, so the kernel (and the
 * stream) completes only when this PE's C is whole. Two-shot all-reduce: for its share of the
 * tiles, the final stamp of every other PE owning rows of the tile. */
template <class G>
JSHMEM_DEVICE void jgemm_wait_arrivals(const jgemm_params &p, int w, const G &g) {
  const int tiles = jgemm_tiles(p);
  if (p.epilogue == JGEMM_ALL_REDUCE_TWO) {
    for (int key = w * g.size + g.tid; key < tiles; key += p.grid * g.size) {
      int row0 = key / p.tiles_n * JGEMM_BM, last = row0 + JGEMM_BM < p.m ? row0 + JGEMM_BM - 1 : p.m - 1;
      for (int q = jgemm_block_of(p, row0); q <= jgemm_block_of(p, last); q++)
        if (q != p.my_pe) jgemm_wait_stamp(p.arrive + (long long)(p.n_pes + q) * tiles + key, p.generation);
    }
    return;
  }
  const int count = p.epilogue == JGEMM_ALL_SCATTER && p.scatter_rows == 0 ? p.arrive_count : 0;
  for (int i = w * g.size + g.tid; i < count; i += p.grid * g.size) jgemm_wait_stamp(p.arrive + i, p.generation);
}

/* Reduce-scatter and two-shot all-reduce: after its last unit (and settle()), work-group w walks
 * its units again and finishes the tiles it parked (its own stamp of this generation is set):
 * waits for the peers' partials and sums them with its own from the staging slot
 * (jgemm_sum_own_rows; otile: the output tile, free). Other epilogues: nothing. */
template <class G>
JSHMEM_DEVICE void jgemm_finish_parked(const jgemm_params &p, int w, jgemm_t *otile, const G &g) {
  if (p.epilogue != JGEMM_REDUCE_SCATTER && p.epilogue != JGEMM_ALL_REDUCE_TWO) return;
  jgemm_unit u;
  for (jgemm_cursor cur(p, w); cur.next(p, u);) {
    if (jgemm_sk_hands_over(u)) continue;
    int tm, tn;
    jgemm_tile_coords(p, u.tile, tm, tn);
    const long long key = (long long)tm * p.tiles_n + tn;
    /* parked: its own stamp is of this call. Thread 0 reads it and the group follows: thread 0 may
     * have written it just now (settle() writes the deferred stamps after its last barrier), so
     * another thread could still read the old one and skip the barriers of the sum */
    const unsigned long long *own = p.arrive + p.my_pe * jgemm_tiles(p) + key;
    if (!g.all(g.tid != 0 || (long long)(jshmemi_ld_acquire_sys(own) - p.generation) >= 0)) continue;
    for (int s = 0; s < p.n_pes; s++)
      if (s != p.my_pe) jgemm_group_wait(p.arrive + s * jgemm_tiles(p) + key, p.generation, g);
    const jgemm_t *parked = jgemm_staged(p, p.my_pe, p.my_pe, tm, tn);
    jgemm_sum_own_rows(p, tm, tn, parked, JGEMM_BN, otile, g);
    g.sync();
  }
}

#endif /* JGEMM_EPILOGUE_H */
