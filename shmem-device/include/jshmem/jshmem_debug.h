/*
 * jshmem_debug.h - argument checks of debug mode.
 *
 * When jshmem_device_state.debug is 1, every jshmem_* call checks its arguments: the PE is in
 * range and mapped, the symmetric address range lies in the user part of the heap (not before
 * it, not past heap_size, not in jshmem's internal region), atomics, flags and signals are
 * naturally aligned, comparison and signal codes and team slots are valid. A failed check prints
 * one line
 *     jshmem: <function>: <argument>: <what> (PE <pe>, n_pes <n> / offset <off>, bytes <len>,
 *     heap_size <size>)
 * and traps (the launch fails; on CUDA the context is lost, so the Java side reports the printed
 * line). <pe> is the target PE; offset is the address minus this PE's heap base.
 *
 * When debug is 0 a call pays one uniform, predictable branch on a __constant__ word. The checks
 * of one call end in a single out-of-line report, so a kernel carries one printf per call site
 * at most. -DJSHMEM_NO_DEBUG_CHECKS removes the checks (and the branch) at compile time.
 */
#ifndef JSHMEM_DEBUG_H
#define JSHMEM_DEBUG_H

#ifndef JSHMEM_H
#error "include <jshmem/jshmem.h>, not jshmem_debug.h"
#endif

/* Runs `stmt` only in debug mode. */
#if defined(JSHMEM_NO_DEBUG_CHECKS)
#define JSHMEMI_DEBUG(stmt) \
  do {                      \
  } while (0)
#else
#define JSHMEMI_DEBUG(stmt)                                \
  do {                                                     \
    if (JSHMEM_UNLIKELY(jshmem_device_state.debug != 0)) { \
      stmt;                                                \
    }                                                      \
  } while (0)
#endif

/* What a failed check found. */
struct jshmemi_error {
  const char *arg;          /* the argument at fault */
  const char *what;         /* what is wrong with it */
  int pe;                   /* target PE */
  long long offset;         /* address - heap_base, or the bad code / slot */
  unsigned long long bytes; /* length of the range, or the alignment */
};

/* Prints the failure line and traps. */
JSHMEM_DEVICE_NOINLINE void jshmemi_fail(const char *fn, const jshmemi_error &e) {
  printf("jshmem: %s: %s: %s (PE %d, n_pes %d / offset %lld, bytes %llu, heap_size %llu)\n", fn,
         e.arg, e.what, e.pe, (int)jshmem_device_state.n_pes, e.offset, e.bytes,
         (unsigned long long)jshmem_device_state.heap_size);
  jshmemi_trap();
}

/* The checks: each returns true if fine, else fills *e and returns false. Chain them with &&
 * and report once: if (!(jshmemi_ok_pe(&e, ..) && jshmemi_ok_sym(&e, ..))) jshmemi_fail(fn, e); */

JSHMEM_DEVICE_INLINE bool jshmemi_bad(jshmemi_error *e, const char *arg, const char *what, int pe,
                                      long long offset, unsigned long long bytes) {
  e->arg = arg;
  e->what = what;
  e->pe = pe;
  e->offset = offset;
  e->bytes = bytes;
  return false;
}

/* The target PE exists and its heap is mapped in this process, or the proxy reaches it. */
JSHMEM_DEVICE_INLINE bool jshmemi_ok_pe(jshmemi_error *e, int pe) {
  if (pe < 0 || pe >= jshmem_device_state.n_pes || pe >= JSHMEM_MAX_PES)
    return jshmemi_bad(e, "pe", "PE out of range", pe, 0, 0);
#if defined(JSHMEM_NO_PROXY)
  if (jshmem_device_state.peer_base[pe] == 0)
    return jshmemi_bad(e, "pe",
                       "PE on another node, and this kernel was built with JSHMEM_NO_PROXY (jshmem's"
                       " run-time compile adds it in jobs on one node)",
                       pe, 0, 0);
#else
  if (jshmem_device_state.peer_base[pe] == 0 && jshmem_device_state.proxy == 0)
    return jshmemi_bad(e, "pe", "PE's heap is not mapped in this process", pe, 0, 0);
#endif
  return true;
}

/* Every member of the team is mapped here: the device collectives move data by loads and stores. */
JSHMEM_DEVICE_INLINE bool jshmemi_ok_team_mapped(jshmemi_error *e, int slot) {
  const jshmem_team_desc_t &t = jshmem_device_state.teams[slot];
  for (int i = 0; i < t.size; ++i) {
    int pe = t.start + i * t.stride;
    if (jshmem_device_state.peer_base[pe] == 0)
      return jshmemi_bad(e, "team",
                         "a member is on another node: device collectives reach this node's PEs"
                         " only (use the on-stream or host-called form)",
                         pe, slot, 0);
  }
  return true;
}

/* [p, p + bytes) lies in the user part of the heap (p is this PE's address of the object). */
JSHMEM_DEVICE_INLINE bool jshmemi_ok_sym(jshmemi_error *e, const char *arg, const void *p,
                                         unsigned long long bytes, int pe) {
  unsigned long long size = jshmem_device_state.heap_size;
  long long off = (long long)(jshmemi_addr(p) - jshmemi_addr(jshmem_device_state.heap_base));
  if (off < 0 || (unsigned long long)off > size || bytes > size - (unsigned long long)off)
    return jshmemi_bad(e, arg, "address range outside the symmetric heap", pe, off, bytes);
  if ((unsigned long long)off < JSHMEM_INTERNAL_SIZE)
    return jshmemi_bad(e, arg, "address in jshmem's internal region", pe, off, bytes);
  return true;
}

/* p is aligned to `align` bytes (a power of two). */
JSHMEM_DEVICE_INLINE bool jshmemi_ok_align(jshmemi_error *e, const char *arg, const void *p,
                                           unsigned long long align, int pe) {
  if ((jshmemi_addr(p) & (align - 1)) == 0) return true;
  long long off = (long long)(jshmemi_addr(p) - jshmemi_addr(jshmem_device_state.heap_base));
  return jshmemi_bad(e, arg, "address not naturally aligned (bytes = alignment)", pe, off, align);
}

JSHMEM_DEVICE_INLINE bool jshmemi_ok_cmp(jshmemi_error *e, int cmp) {
  if (cmp >= JSHMEM_CMP_EQ && cmp <= JSHMEM_CMP_LE) return true;
  return jshmemi_bad(e, "cmp", "unknown comparison code, JSHMEM_CMP_EQ..LE (offset = code)",
                     jshmem_device_state.my_pe, cmp, 0);
}

JSHMEM_DEVICE_INLINE bool jshmemi_ok_sig_op(jshmemi_error *e, int sig_op) {
  if (sig_op == JSHMEM_SIGNAL_SET || sig_op == JSHMEM_SIGNAL_ADD) return true;
  return jshmemi_bad(e, "sig_op", "unknown signal operation, SET or ADD (offset = code)",
                     jshmem_device_state.my_pe, sig_op, 0);
}

/* The team slot is in range, in use, and this PE is a member. */
JSHMEM_DEVICE_INLINE bool jshmemi_ok_team(jshmemi_error *e, int slot) {
  int me = jshmem_device_state.my_pe;
  if (slot < 0 || slot >= JSHMEM_MAX_TEAMS)
    return jshmemi_bad(e, "team", "slot out of range, 0..JSHMEM_MAX_TEAMS-1 (offset = slot)", me,
                       slot, 0);
  if (jshmem_device_state.teams[slot].size <= 0)
    return jshmemi_bad(e, "team", "slot not in use (offset = slot)", me, slot, 0);
  if (jshmemi_team_index(jshmem_device_state.teams[slot], me) < 0)
    return jshmemi_bad(e, "team", "this PE is not a member (offset = slot)", me, slot, 0);
  return true;
}

/* ---- the checks of one call, reported once ------------------------------------------------ */

/* put/get: PE and symmetric range. */
JSHMEM_DEVICE_NOINLINE void jshmemi_check_rma(const char *fn, const char *arg, const void *p,
                                              unsigned long long bytes, int pe) {
  jshmemi_error e;
  if (!(jshmemi_ok_pe(&e, pe) && jshmemi_ok_sym(&e, arg, p, bytes, pe))) jshmemi_fail(fn, e);
}

/* p/g, atomics, signals, waits: PE, symmetric, naturally aligned. */
JSHMEM_DEVICE_NOINLINE void jshmemi_check_amo(const char *fn, const char *arg, const void *p,
                                              unsigned long long bytes, int pe) {
  jshmemi_error e;
  if (!(jshmemi_ok_pe(&e, pe) && jshmemi_ok_sym(&e, arg, p, bytes, pe) &&
        jshmemi_ok_align(&e, arg, p, bytes, pe)))
    jshmemi_fail(fn, e);
}

/* A wait on a local word: symmetric, aligned, known comparison. */
JSHMEM_DEVICE_NOINLINE void jshmemi_check_wait(const char *fn, const char *arg, const void *p,
                                               unsigned long long bytes, int cmp) {
  jshmemi_error e;
  int me = jshmem_device_state.my_pe;
  if (!(jshmemi_ok_sym(&e, arg, p, bytes, me) && jshmemi_ok_align(&e, arg, p, bytes, me) &&
        jshmemi_ok_cmp(&e, cmp)))
    jshmemi_fail(fn, e);
}

/* signal_op: PE, aligned symmetric signal word, known operation. */
JSHMEM_DEVICE_NOINLINE void jshmemi_check_signal(const char *fn, const void *sig, int sig_op,
                                                 int pe) {
  jshmemi_error e;
  if (!(jshmemi_ok_pe(&e, pe) && jshmemi_ok_sym(&e, "sig_addr", sig, 8, pe) &&
        jshmemi_ok_align(&e, "sig_addr", sig, 8, pe) && jshmemi_ok_sig_op(&e, sig_op)))
    jshmemi_fail(fn, e);
}

/* put_signal: the put's range and the signal. */
JSHMEM_DEVICE_NOINLINE void jshmemi_check_put_signal(const char *fn, const void *dest,
                                                     unsigned long long bytes, const void *sig,
                                                     int sig_op, int pe) {
  jshmemi_error e;
  if (!(jshmemi_ok_pe(&e, pe) && jshmemi_ok_sym(&e, "dest", dest, bytes, pe) &&
        jshmemi_ok_sym(&e, "sig_addr", sig, 8, pe) &&
        jshmemi_ok_align(&e, "sig_addr", sig, 8, pe) && jshmemi_ok_sig_op(&e, sig_op)))
    jshmemi_fail(fn, e);
}

/* Barrier / sync: the team slot. */
JSHMEM_DEVICE_NOINLINE void jshmemi_check_team(const char *fn, int slot) {
  jshmemi_error e;
  if (!jshmemi_ok_team(&e, slot)) jshmemi_fail(fn, e);
}

/* Collectives: the team slot (in use, this PE a member), dest and source ranges in the user part
 * of the heap, both aligned to `align` bytes, and root (>= 0 only for broadcast) a team PE. */
JSHMEM_DEVICE_NOINLINE void jshmemi_check_coll(const char *fn, int slot, const void *dest,
                                               unsigned long long dest_bytes, const void *src,
                                               unsigned long long src_bytes,
                                               unsigned long long align, int root) {
  jshmemi_error e;
  int me = jshmem_device_state.my_pe;
  if (!(jshmemi_ok_team(&e, slot) && jshmemi_ok_team_mapped(&e, slot) &&
        jshmemi_ok_sym(&e, "dest", dest, dest_bytes, me) &&
        jshmemi_ok_sym(&e, "source", src, src_bytes, me) &&
        jshmemi_ok_align(&e, "dest", dest, align, me) &&
        jshmemi_ok_align(&e, "source", src, align, me)))
    jshmemi_fail(fn, e);
  if (root >= 0 && root >= jshmem_device_state.teams[slot].size) {
    jshmemi_bad(&e, "pe_root", "root is not a PE of the team (offset = root)", me, root, 0);
    jshmemi_fail(fn, e);
  }
}

#endif /* JSHMEM_DEBUG_H */
