/*
 * jshmem_debug.h - argument checks of debug mode.
 *
 * When jshmem_device_state.debug is 1, every jshmem_* call checks its arguments: the PE is in
 * range and mapped, the symmetric address range lies in the user part of the heap (not before
 * it, not past heap_size, not in jshmem's internal region), atomics and flags are naturally
 * aligned, comparison and signal codes and team slots are valid. A failed check prints one line
 *     jshmem: <function>: <what> (PE <pe>, n_pes <n> / offset <off>, bytes <len>, heap_size <size>)
 * and traps (the launch fails; on CUDA the context is lost, so the Java side reports the printed
 * line). When debug is 0 a call pays one uniform, predictable branch on a __constant__ word;
 * the checks themselves are out of line.
 */
#ifndef JSHMEM_DEBUG_H
#define JSHMEM_DEBUG_H

#ifndef JSHMEM_H
#error "include <jshmem/jshmem.h>, not jshmem_debug.h"
#endif

/* Runs `stmt` only in debug mode. */
#define JSHMEMI_DEBUG(stmt)                                   \
  do {                                                        \
    if (JSHMEM_UNLIKELY(jshmem_device_state.debug != 0)) {    \
      stmt;                                                   \
    }                                                         \
  } while (0)

/* Prints the failure line and traps. `arg` (may be null) names the argument at fault. */
JSHMEM_DEVICE_NOINLINE void jshmemi_fail(const char *fn, const char *arg, const char *what, int pe,
                                         long long offset, unsigned long long bytes) {
  printf("jshmem: %s: %s%s%s (PE %d, n_pes %d / offset %lld, bytes %llu, heap_size %llu)\n", fn,
         arg != 0 ? arg : "", arg != 0 ? ": " : "", what, pe,
         (int)jshmem_device_state.n_pes, offset, bytes,
         (unsigned long long)jshmem_device_state.heap_size);
  jshmemi_trap();
}

/* The target PE exists and its heap is mapped in this process. */
JSHMEM_DEVICE_NOINLINE void jshmemi_check_pe(const char *fn, int pe) {
  if (pe < 0 || pe >= jshmem_device_state.n_pes || pe >= JSHMEM_MAX_PES)
    jshmemi_fail(fn, "pe", "PE out of range", pe, 0, 0);
  else if (jshmem_device_state.peer_base[pe] == 0)
    jshmemi_fail(fn, "pe", "PE's heap is not mapped in this process", pe, 0, 0);
}

/* [p, p + bytes) is a symmetric address range of the user part of the heap. `what` names the
 * argument ("dest", "source", "sig_addr", ...); `pe` is only reported. */
JSHMEM_DEVICE_NOINLINE void jshmemi_check_sym(const char *fn, const char *what, const void *p,
                                              unsigned long long bytes, int pe) {
  const char *base = jshmem_device_state.heap_base;
  unsigned long long size = jshmem_device_state.heap_size;
  long long off = (long long)(jshmemi_addr(p) - jshmemi_addr(base));
  const char *msg = 0;
  if (off < 0 || (unsigned long long)off > size || bytes > size - (unsigned long long)off)
    msg = "address range outside the symmetric heap";
  else if ((unsigned long long)off < JSHMEM_INTERNAL_SIZE)
    msg = "address in jshmem's internal region (below the first malloc'd byte)";
  if (msg != 0) jshmemi_fail(fn, what, msg, pe, off, bytes);
}

/* p is aligned to `align` bytes (a power of two). */
JSHMEM_DEVICE_NOINLINE void jshmemi_check_align(const char *fn, const char *what, const void *p,
                                                unsigned long long align, int pe) {
  if ((jshmemi_addr(p) & (align - 1)) != 0) {
    long long off = (long long)(jshmemi_addr(p) - jshmemi_addr(jshmem_device_state.heap_base));
    jshmemi_fail(fn, what, "address not naturally aligned (bytes = alignment)", pe, off, align);
  }
}

/* A remote access: valid PE and a symmetric range. */
JSHMEM_DEVICE_NOINLINE void jshmemi_check_rma(const char *fn, const char *what, const void *p,
                                              unsigned long long bytes, int pe) {
  jshmemi_check_pe(fn, pe);
  jshmemi_check_sym(fn, what, p, bytes, pe);
}

/* An atomic, flag or signal word: valid PE, symmetric, naturally aligned. */
JSHMEM_DEVICE_NOINLINE void jshmemi_check_amo(const char *fn, const char *what, const void *p,
                                              unsigned long long bytes, int pe) {
  jshmemi_check_pe(fn, pe);
  jshmemi_check_sym(fn, what, p, bytes, pe);
  jshmemi_check_align(fn, what, p, bytes, pe);
}

JSHMEM_DEVICE_NOINLINE void jshmemi_check_cmp(const char *fn, int cmp) {
  if (cmp < JSHMEM_CMP_EQ || cmp > JSHMEM_CMP_LE)
    jshmemi_fail(fn, "cmp", "unknown comparison code, JSHMEM_CMP_EQ..LE (bytes = code)",
                 jshmem_device_state.my_pe, 0, (unsigned long long)cmp);
}

JSHMEM_DEVICE_NOINLINE void jshmemi_check_sig_op(const char *fn, int sig_op) {
  if (sig_op != JSHMEM_SIGNAL_SET && sig_op != JSHMEM_SIGNAL_ADD)
    jshmemi_fail(fn, "sig_op", "unknown signal operation, JSHMEM_SIGNAL_SET or ADD (bytes = code)",
                 jshmem_device_state.my_pe, 0, (unsigned long long)sig_op);
}

/* The team slot is in range, in use, and this PE is a member. */
JSHMEM_DEVICE_NOINLINE void jshmemi_check_team(const char *fn, int slot) {
  int me = jshmem_device_state.my_pe;
  if (slot < 0 || slot >= JSHMEM_MAX_TEAMS) {
    jshmemi_fail(fn, "team", "slot out of range, 0..JSHMEM_MAX_TEAMS-1 (offset = slot)", me,
                 slot, 0);
    return;
  }
  const jshmem_team_desc_t &t = jshmem_device_state.teams[slot];
  if (t.size <= 0) {
    jshmemi_fail(fn, "team", "slot not in use (offset = slot)", me, slot, 0);
    return;
  }
  if (jshmemi_team_index(t, me) < 0)
    jshmemi_fail(fn, "team", "this PE is not a member (offset = slot)", me, slot, 0);
}

#endif /* JSHMEM_DEBUG_H */
