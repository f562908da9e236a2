/*
 * jshmem_barrier.h - block-scope barrier and sync over a team.
 *
 * Called by all threads of ONE block on each member PE (the same team slot everywhere), and by
 * no other block of the PE for that team at the same time (kernels and the runtime's
 * barrier-on-stream share the team's cells, one after the other).
 *
 * Algorithm (generation counters, nothing is ever reset):
 *   1. __syncthreads(); thread 0 increments this PE's own generation cell for the team
 *      (JSHMEM_GEN_CELL(slot), local, touched by this PE only) to g.
 *   2. Thread i (for each member i) stores g into sync cell [slot][my_pe] of member i's heap:
 *      st.release at system scope.
 *   3. Thread i waits, with acquire loads at system scope, until sync cell [slot][member i] of
 *      the local heap is >= g (a peer can be at most one generation ahead).
 *   4. __syncthreads().
 * Cost: one NVLink one-way latency plus a block barrier or two; no atomics. A member on another
 * node gets its flag through the proxy (jshmem_proxy.h), a host round trip.
 * The collectives (jshmem_coll.h, and the runtime's on-stream collectives) use the same cells and
 * generations: each publishes gen+1 at its entry and gen+2 at its exit; a kernel of many blocks
 * enters with jshmemi_team_enter_block (every block publishes and awaits gen+1, nobody writes the
 * generation cell) and is followed by a one-block jshmemi_team_sync_block_step(.., 2).
 *
 * Memory ordering (system scope):
 *   jshmem_team_sync_block / jshmem_sync_all_block: every load/store/atomic that any thread of
 *     the block issued before the call happens-before everything any thread of any member's
 *     block does after the call returns there (block barrier, then release stores that are
 *     cumulative over it; acquire loads, then a block barrier).
 *   jshmem_barrier_block / jshmem_barrier_all_block: the same, plus jshmem_quiet first (thread 0
 *     issues a system fence after the first block barrier), so all earlier puts and AMOs of the
 *     block are complete, as OpenSHMEM's barrier requires.
 * The host must have zeroed the internal region (sync and gen cells) once when it created the heap,
 * and must zero a team slot's cells again (gen cell [slot] and sync cells [slot][*], on every
 * member, then a host barrier) whenever it gives the slot to a new team: members that did not
 * share the slot's earlier barriers would otherwise count from different generations.
 */
#ifndef JSHMEM_BARRIER_H
#define JSHMEM_BARRIER_H

#ifndef JSHMEM_H
#error "include <jshmem/jshmem.h>, not jshmem_barrier.h"
#endif

/* Internal: a barrier, sync or collective of the team in `slot` waited too long for member `pe`
 * (JSHMEM_WAIT_TIMEOUT): says which PE has not reached which generation, and traps. */
JSHMEM_DEVICE_NOINLINE void jshmemi_stuck_member(int slot, int pe, unsigned long long g,
                                                 unsigned long long seen, unsigned long long waited_ns) {
  const jshmem_device_state_t &s = jshmem_device_state;
  printf("jshmem: PE %d: a barrier, sync or collective of team slot %d (block %u, thread %u) made no progress"
         " for %llu ms (JSHMEM_WAIT_TIMEOUT %d ms): it waits for PE %d to reach generation %llu of the team's"
         " synchronisations; PE %d has reached %llu\n",
         s.my_pe, slot, blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z), jshmemi_thread_id(),
         waited_ns / 1000000ull, s.wait_timeout_ms, pe, g, pe, seen);
  jshmemi_trap();
}

/* Internal: tells every member of the team in `slot` that this PE reached generation g (release
 * store, system scope, into sync cell [slot][my_pe] of each member's heap), then waits until every
 * member told this PE that it reached g or later (acquire loads of the local sync cells). Thread i
 * of the block serves members i, i + nthreads, ... Called by all threads of the block.
 * Fenced = false: relaxed stores and loads, for a kernel that does nothing else, at a stream
 * boundary: the stream's earlier work is complete and visible when it starts, and the work after
 * it starts when it has ended, so it has nothing to order. */
template <bool Fenced = true>
JSHMEM_DEVICE void jshmemi_team_publish_wait(int slot, unsigned long long g) {
  const jshmem_device_state_t &s = jshmem_device_state;
  const jshmem_team_desc_t &team = s.teams[slot];
  const unsigned tid = jshmemi_thread_id();
  const unsigned nthreads = jshmemi_block_size();
  for (unsigned i = tid; i < (unsigned)team.size; i += nthreads) {
    int pe = team.start + (int)i * team.stride;
    if (jshmemi_proxied(pe)) {   /* a member on another node: its host stores the flag */
      (void)jshmemi_proxy_word(JSHMEM_PROXY_STORE, 0, 8, pe, JSHMEM_SYNC_CELL(slot, s.my_pe), g, 0);
      continue;
    }
    unsigned long long *cell =
        (unsigned long long *)(s.peer_base[pe] + JSHMEM_SYNC_CELL(slot, s.my_pe));
    if (Fenced)
      jshmemi_st_release_sys(cell, g);
    else
      jshmemi_st_relaxed_sys(cell, g);
  }
  for (unsigned i = tid; i < (unsigned)team.size; i += nthreads) {
    int pe = team.start + (int)i * team.stride;
    const unsigned long long *cell =
        (const unsigned long long *)(s.heap_base + JSHMEM_SYNC_CELL(slot, pe));
    jshmemi_patience patience;
    unsigned long long seen;
    while ((seen = Fenced ? jshmemi_ld_acquire_sys(cell) : jshmemi_ld_relaxed_sys(cell)) < g) {
      if (JSHMEM_UNLIKELY(patience.over())) jshmemi_stuck_member(slot, pe, g, seen, patience.waited_ns);
    }
  }
}

/* Internal: the team-wide sync of one block, with a quiet first if `quiet`; the generation cell
 * advances by `step` (1 for every barrier, sync and block collective; 2 for the closing sync of a
 * multi-block collective kernel whose blocks entered with jshmemi_team_enter_block). */
JSHMEM_DEVICE void jshmemi_team_sync_block_step(const char *fn, int slot, bool quiet,
                                                unsigned step) {
  JSHMEMI_DEBUG(jshmemi_check_team(fn, slot));
  __shared__ unsigned long long jshmemi_generation;
  const jshmem_device_state_t &s = jshmem_device_state;

  jshmemi_group_release_fence();
  jshmemi_block_sync();
  if (jshmemi_thread_id() == 0) {
    if (quiet) jshmem_quiet();
    unsigned long long *gen = (unsigned long long *)(s.heap_base + JSHMEM_GEN_CELL(slot));
    unsigned long long g = jshmemi_ld_relaxed_sys(gen) + step;
    jshmemi_st_relaxed_sys(gen, g);
    jshmemi_generation = g;
  }
  jshmemi_block_sync();
  jshmemi_team_publish_wait(slot, jshmemi_generation);
  jshmemi_block_sync();
  jshmemi_group_acquire_fence();
}

/* Internal: the team-wide sync of a one-block kernel that does nothing else, at a stream boundary
 * (see jshmemi_team_publish_wait<false>): no quiet, no fences; the generation cell advances by
 * `step` (as jshmemi_team_sync_block_step's). */
JSHMEM_DEVICE void jshmemi_team_sync_at_boundary(const char *fn, int slot, unsigned step) {
  JSHMEMI_DEBUG(jshmemi_check_team(fn, slot));
  __shared__ unsigned long long jshmemi_boundary_generation;
  if (jshmemi_thread_id() == 0) {
    unsigned long long *gen = (unsigned long long *)(jshmem_device_state.heap_base + JSHMEM_GEN_CELL(slot));
    unsigned long long g = jshmemi_ld_relaxed_sys(gen) + step;
    jshmemi_st_relaxed_sys(gen, g);
    jshmemi_boundary_generation = g;
  }
  jshmemi_block_sync();
  jshmemi_team_publish_wait<false>(slot, jshmemi_boundary_generation);
}

/* Internal: the team-wide sync of one block, with a quiet first if `quiet`. */
JSHMEM_DEVICE void jshmemi_team_sync_block(const char *fn, int slot, bool quiet) {
  jshmemi_team_sync_block_step(fn, slot, quiet, 1);
}

/* Internal: the entry of a collective kernel of several blocks (the runtime's). Every block calls
 * it first: it publishes and awaits generation gen[slot] + 1 WITHOUT writing the generation cell
 * (so every block of the kernel reads the same value: nothing writes the cell while the kernel
 * runs). The next kernel on the stream must be a jshmemi_team_sync_block_step(.., 2) of one
 * block, which moves the cell on by 2 and syncs at gen + 2, as two block syncs would have. */
JSHMEM_DEVICE void jshmemi_team_enter_block(const char *fn, int slot) {
  JSHMEMI_DEBUG(jshmemi_check_team(fn, slot));
  const jshmem_device_state_t &s = jshmem_device_state;
  const unsigned long long *gen =
      (const unsigned long long *)(s.heap_base + JSHMEM_GEN_CELL(slot));
  jshmemi_team_publish_wait(slot, jshmemi_ld_relaxed_sys(gen) + 1);
  jshmemi_block_sync();
  jshmemi_group_acquire_fence();
}

/* Barrier over the team in `slot`: quiet, then sync. One block per member PE calls it. */
JSHMEM_DEVICE_INLINE void jshmem_barrier_block(int team_slot) {
  jshmemi_team_sync_block(__func__, team_slot, true);
}

/* Sync over the team in `slot` (no quiet; see the ordering above). One block per member PE. */
JSHMEM_DEVICE_INLINE void jshmem_team_sync_block(int team_slot) {
  jshmemi_team_sync_block(__func__, team_slot, false);
}

/* Barrier over all PEs (team slot 0). One block per PE calls it. */
JSHMEM_DEVICE_INLINE void jshmem_barrier_all_block() { jshmemi_team_sync_block(__func__, 0, true); }

/* Sync over all PEs (team slot 0). One block per PE calls it. */
JSHMEM_DEVICE_INLINE void jshmem_sync_all_block() { jshmemi_team_sync_block(__func__, 0, false); }

#endif /* JSHMEM_BARRIER_H */
