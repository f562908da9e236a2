/*
 * jshmem_trace.h - spans of a kernel's own work on the job's timeline (JSHMEM_TRACE).
 *
 *   unsigned long long t = jshmem_trace_begin();
 *   ... the work ...
 *   jshmem_trace_end("tile", t);               or  jshmem_trace_end_value("tile", t, tile_index);
 *
 * Call both from one thread; names are cut to 19 characters. The span goes to a ring that the host
 * reads when the job writes its trace: a track per block and recording thread under the PE, on the
 * host's clock, so a thread's spans nest as its calls do. Compiled in only when the module is compiled with JSHMEM_DEVICE_TRACE=1, which
 * jshmem's run-time compiles add when the job traces; otherwise both calls are empty and cost
 * nothing. Past the ring's capacity spans are counted, not kept.
 */
#ifndef JSHMEM_TRACE_H
#define JSHMEM_TRACE_H

#ifndef JSHMEM_H
#error "include <jshmem/jshmem.h>, not jshmem_trace.h"
#endif

/* Copies a NUL-terminated string into a record's field of n bytes, cut to n - 1 characters. */
JSHMEM_DEVICE_INLINE void jshmemi_trace_copy(char *to, const char *from, int n) {
  int i = 0;
  for (; i < n - 1 && from[i] != 0; i++) to[i] = from[i];
  to[i] = 0;
}

/* Takes a record of the trace ring `ring` (the device state's), or returns ~0 when it is full: the host
 * counts next - capacity. The ring is in device memory, so the atomic is an L2 round trip, not a PCIe one. */
JSHMEM_DEVICE_INLINE unsigned long long jshmemi_trace_take(char *ring) {
  unsigned long long *next = (unsigned long long *)ring;
  unsigned long long slot = atomicAdd(next, 1ull);
  return slot < next[1] ? slot : ~0ull;
}

/* Fills record r with the span [begin, end) of the calling thread. */
JSHMEM_DEVICE_INLINE void jshmemi_trace_fill(jshmem_trace_record_t *r, const char *category, const char *name,
                                               unsigned long long begin, unsigned long long end, long long value,
                                               unsigned op) {
  r->begin = begin;
  r->end = end;
  r->block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  r->thread = jshmemi_thread_id();
  r->value = value;
  r->op = op;
  jshmemi_trace_copy(r->name, name, JSHMEM_TRACE_NAME);
  jshmemi_trace_copy(r->category, category, JSHMEM_TRACE_CATEGORY);
}

#if defined(JSHMEM_DEVICE_TRACE) && JSHMEM_DEVICE_TRACE

/* The span's start on the GPU clock. */
JSHMEM_DEVICE_INLINE unsigned long long jshmem_trace_begin() { return jshmemi_now_ns(); }

/* Records the span [begin, now) of category `category` named `name` with `value` (-1: none). Inline: a
 * call would make the compiler spill the caller's live registers (a GEMM tile's accumulators) around it. */
JSHMEM_DEVICE_INLINE void jshmemi_trace_span(const char *category, const char *name, unsigned long long begin,
                                               long long value) {
  unsigned long long end = jshmemi_now_ns();
  char *ring = jshmem_device_state.trace;
  if (ring == 0) return;
  unsigned long long slot = jshmemi_trace_take(ring);
  if (slot != ~0ull)
    jshmemi_trace_fill((jshmem_trace_record_t *)(ring + JSHMEM_TRACE_HEADER) + slot, category, name, begin, end, value, 0);
}

#else

JSHMEM_DEVICE_INLINE unsigned long long jshmem_trace_begin() { return 0; }
JSHMEM_DEVICE_INLINE void jshmemi_trace_span(const char *, const char *, unsigned long long, long long) {}

#endif

/* Records the span [begin, now) named `name` with `value` (-1: none), category "gpu". */
JSHMEM_DEVICE_INLINE void jshmem_trace_end_value(const char *name, unsigned long long begin, long long value) {
  jshmemi_trace_span("gpu", name, begin, value);
}

/* jshmem_trace_end_value without a number. */
JSHMEM_DEVICE_INLINE void jshmem_trace_end(const char *name, unsigned long long begin) {
  jshmem_trace_end_value(name, begin, -1);
}

#endif /* JSHMEM_TRACE_H */
