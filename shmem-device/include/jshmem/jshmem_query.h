/*
 * jshmem_query.h - who am I, how many PEs, where a peer's copy of a symmetric object lives, and
 * the teams. All read jshmem_device_state only (no memory ordering involved).
 */
#ifndef JSHMEM_QUERY_H
#define JSHMEM_QUERY_H

#ifndef JSHMEM_H
#error "include <jshmem/jshmem.h>, not jshmem_query.h"
#endif

/* This PE's number in the world team, 0 .. n_pes-1. */
JSHMEM_DEVICE_INLINE int jshmem_my_pe() { return jshmem_device_state.my_pe; }

/* Number of PEs in the world team. */
JSHMEM_DEVICE_INLINE int jshmem_n_pes() { return jshmem_device_state.n_pes; }

/* Internal, unchecked: the address of symmetric `sym` (this PE's address) in PE `pe`'s heap. */
template <typename T>
JSHMEM_DEVICE_INLINE T *jshmemi_ptr(T *sym, int pe) {
  return (T *)(jshmem_device_state.peer_base[pe] +
               (jshmemi_addr(sym) - jshmemi_addr(jshmem_device_state.heap_base)));
}

/* Address through which this thread can load/store PE `pe`'s copy of the symmetric object at
 * `dest`: peer_base[pe] + (dest - heap_base). NULL when pe is out of range, that PE's heap is not
 * mapped here, or dest is not inside the symmetric heap. Accesses through the pointer are plain
 * loads/stores: order them with jshmem_fence/jshmem_quiet or the signal and barrier calls. */
JSHMEM_DEVICE_INLINE void *jshmem_ptr(const void *dest, int pe) {
  const jshmem_device_state_t &s = jshmem_device_state;
  unsigned long long off = jshmemi_addr(dest) - jshmemi_addr(s.heap_base);
  if (pe < 0 || pe >= s.n_pes || pe >= JSHMEM_MAX_PES || off >= s.heap_size) return 0;
  char *base = s.peer_base[pe];
  return base == 0 ? 0 : (void *)(base + off);
}

/* ---- teams ---------------------------------------------------------------------------------
 * A team lives in a slot of jshmem_device_state.teams (slot 0 = world, 1 = node; the Java side
 * fills the others when it splits teams). Its members are world PEs start + i * stride,
 * i = 0 .. size-1; i is the PE's number in the team. */

/* Internal: index of world PE `pe` in team `t`, or -1 if it is not a member. */
JSHMEM_DEVICE_INLINE int jshmemi_team_index(const jshmem_team_desc_t &t, int pe) {
  int d = pe - t.start;
  if (t.size <= 0) return -1;
  if (t.stride == 0) return d == 0 ? 0 : -1;
  if (d % t.stride != 0) return -1;
  int i = d / t.stride;
  return (i >= 0 && i < t.size) ? i : -1;
}

JSHMEM_DEVICE_INLINE bool jshmemi_team_slot_ok(int slot) {
  return slot >= 0 && slot < JSHMEM_MAX_TEAMS && jshmem_device_state.teams[slot].size > 0;
}

/* This PE's number in the team in `slot`; -1 if not a member or the slot is unused. */
JSHMEM_DEVICE_INLINE int jshmem_team_my_pe(int slot) {
  if (!jshmemi_team_slot_ok(slot)) return -1;
  return jshmemi_team_index(jshmem_device_state.teams[slot], jshmem_device_state.my_pe);
}

/* Number of PEs in the team in `slot`; -1 if the slot is unused. */
JSHMEM_DEVICE_INLINE int jshmem_team_n_pes(int slot) {
  if (!jshmemi_team_slot_ok(slot)) return -1;
  return jshmem_device_state.teams[slot].size;
}

/* Number in team `dest_slot` of the PE numbered `src_pe` in team `src_slot`; -1 if src_pe is not
 * in the source team, that PE is not in the destination team, or a slot is unused. */
JSHMEM_DEVICE_INLINE int jshmem_team_translate_pe(int src_slot, int src_pe, int dest_slot) {
  if (!jshmemi_team_slot_ok(src_slot) || !jshmemi_team_slot_ok(dest_slot)) return -1;
  const jshmem_team_desc_t &src = jshmem_device_state.teams[src_slot];
  if (src_pe < 0 || src_pe >= src.size) return -1;
  int world = src.start + src_pe * src.stride;
  return jshmemi_team_index(jshmem_device_state.teams[dest_slot], world);
}

#endif /* JSHMEM_QUERY_H */
