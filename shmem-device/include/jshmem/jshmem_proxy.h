/*
 * jshmem_proxy.h - device calls to PEs of other nodes, through the host (reverse offload).
 *
 * A PE on another node has no mapping here (peer_base[pe] == 0). When the job has such PEs the
 * runtime gives this PE a ring of request slots in pinned host memory that the device maps
 * (jshmem_device_state.proxy, layout in jshmem_state.h), and a host thread (DeviceProxy) that
 * serves them in ticket order over the remote transport. put, get, p, g, the atomics, signals,
 * put_signal and the barrier's flags take this path for such PEs; everything else is unchanged.
 *
 * Protocol, per request: one thread takes ticket t (a device atomic on this PE's proxy_ticket
 * cell), waits until slot t % SLOTS is free for t, fills it (the group copies a put's payload),
 * posts t + 1 with a system-scope release, waits for the host's done == t + 1 (acquire), reads the
 * answer, and frees the slot for t + SLOTS. So every proxied call is complete at the target when it
 * returns: the blocking and _nbi forms are the same, fence and quiet have nothing left to do for
 * it, and a thread's proxied calls reach each PE in the order it made them. Puts and gets larger
 * than a slot's payload go as several requests. A failed request (the host names the PE and why)
 * traps the kernel.
 *
 * Cost: a round trip over PCIe plus the transport's, per request (tens of microseconds): for
 * control and moderate data, not bandwidth. The device collectives (jshmem_coll.h) reach PEs of
 * this node only. On the local path the check costs about a fifth of a 4-16 KB block put's rate
 * (a larger kernel, with more registers per thread; `perf --form device put_bw`); -DJSHMEM_NO_PROXY
 * compiles it out, and DeviceModule's run-time compiles add it when every PE is on one node.
 */
#ifndef JSHMEM_PROXY_H
#define JSHMEM_PROXY_H

#ifndef JSHMEM_H
#error "include <jshmem/jshmem.h>, not jshmem_proxy.h"
#endif

/* Internal: whether PE pe is reached through the proxy (mapped nowhere here, a ring is given).
 * -DJSHMEM_NO_PROXY removes the path (and the branch) from a kernel that reaches one node only. */
JSHMEM_DEVICE_INLINE bool jshmemi_proxied(int pe) {
#if defined(JSHMEM_NO_PROXY)
  (void)pe;
  return false;
#else
  return JSHMEM_UNLIKELY(jshmem_device_state.peer_base[pe] == 0 && jshmem_device_state.proxy != 0);
#endif
}

/* Internal: the heap offset of this PE's address of a symmetric object. */
JSHMEM_DEVICE_INLINE unsigned long long jshmemi_heap_offset(const void *sym) {
  return jshmemi_addr(sym) - jshmemi_addr(jshmem_device_state.heap_base);
}

/* Internal: takes the next ticket and waits until its slot is free for it. One thread. */
JSHMEM_DEVICE_INLINE jshmem_proxy_slot_t *jshmemi_proxy_acquire(unsigned long long *ticket) {
  const jshmem_device_state_t &s = jshmem_device_state;
  unsigned long long t = atomicAdd((unsigned long long *)(s.heap_base + JSHMEM_PROXY_TICKET_OFFSET), 1ull);
  jshmem_proxy_slot_t *slot =
      (jshmem_proxy_slot_t *)(s.proxy + (t % JSHMEM_PROXY_SLOTS) * JSHMEM_PROXY_SLOT_BYTES);
  while (jshmemi_ld_acquire_sys((const unsigned long long *)&slot->free) != t) {
  }
  *ticket = t;
  return slot;
}

/* Internal: posts the filled slot and waits until the host served it; traps if it failed. The
 * release is cumulative over a group barrier before it (the group's payload stores). One thread. */
JSHMEM_DEVICE_NOINLINE void jshmemi_proxy_submit(jshmem_proxy_slot_t *slot, unsigned long long t) {
  jshmemi_st_release_sys((unsigned long long *)&slot->posted, t + 1);
  while (jshmemi_ld_acquire_sys((const unsigned long long *)&slot->done) != t + 1) {
  }
  if (*(volatile int32_t *)&slot->status != 0) {
    printf("jshmem: device proxy: a request to PE %d failed (op %d, offset %llu); the host said why\n",
           (int)slot->pe, (int)slot->op, (unsigned long long)slot->offset);
    jshmemi_trap();
  }
}

/* Internal: gives the slot to the ticket SLOTS after t, once its answer has been read. One thread. */
JSHMEM_DEVICE_INLINE void jshmemi_proxy_release(jshmem_proxy_slot_t *slot, unsigned long long t) {
  jshmemi_st_release_sys((unsigned long long *)&slot->free, t + JSHMEM_PROXY_SLOTS);
}

/* Internal: one word request (AMO, STORE, LOAD) to PE pe at heap offset `offset`; returns the
 * host's result (an AMO's old value, a LOAD's bits). One thread. */
JSHMEM_DEVICE_NOINLINE unsigned long long jshmemi_proxy_word(int op, int amo, int width, int pe,
                                                             unsigned long long offset,
                                                             unsigned long long value,
                                                             unsigned long long comparand) {
  unsigned long long t;
  jshmem_proxy_slot_t *slot = jshmemi_proxy_acquire(&t);
  slot->op = op;
  slot->pe = pe;
  slot->offset = offset;
  slot->bytes = 0;
  slot->value = value;
  slot->comparand = comparand;
  slot->sig_op = -1;
  slot->width = width;
  slot->amo = amo;
  jshmemi_proxy_submit(slot, t);
  unsigned long long result = *(volatile unsigned long long *)&slot->result;
  jshmemi_proxy_release(slot, t);
  return result;
}

/* Internal: the group's broadcast of its leader's slot and ticket (thread scope: itself). */
template <int Scope>
JSHMEM_DEVICE_INLINE jshmem_proxy_slot_t *jshmemi_proxy_group_acquire(unsigned long long *ticket) {
  if (Scope == JSHMEMI_THREAD) return jshmemi_proxy_acquire(ticket);
  __shared__ jshmem_proxy_slot_t *jshmemi_block_slot;
  __shared__ unsigned long long jshmemi_block_ticket;
  jshmem_proxy_slot_t *slot = 0;
  unsigned long long t = 0;
  if (jshmemi_group_leader<Scope>()) slot = jshmemi_proxy_acquire(&t);
  if (Scope == JSHMEMI_WARP) {
#if JSHMEM_ARCH_HIP
    slot = (jshmem_proxy_slot_t *)__shfl((unsigned long long)slot, 0);
    t = __shfl(t, 0);
#else
    unsigned lanes = jshmemi_warp_lanes();
    unsigned mask = lanes == 32 ? 0xffffffffu : ((1u << lanes) - 1u);
    slot = (jshmem_proxy_slot_t *)__shfl_sync(mask, (unsigned long long)slot, 0);
    t = __shfl_sync(mask, t, 0);
#endif
  } else {
    if (jshmemi_group_leader<Scope>()) {
      jshmemi_block_slot = slot;
      jshmemi_block_ticket = t;
    }
    jshmemi_block_sync();
    slot = jshmemi_block_slot;
    t = jshmemi_block_ticket;
    jshmemi_block_sync();   /* every thread has read them before the leader's next acquire */
  }
  *ticket = t;
  return slot;
}

/* Internal: a put (and, if sig_op >= 0, a signal after its data) of `bytes` from local `source`
 * to PE pe's heap at `offset`, by the group, in requests of at most a payload each (a signal with no
 * data is one request). Returns when the data (and the signal) are in place at the target. */
template <int Scope>
JSHMEM_DEVICE void jshmemi_proxy_put(unsigned long long offset, const void *source, size_t bytes,
                                     int pe, unsigned long long sig_offset, unsigned long long signal,
                                     int sig_op) {
  if (bytes == 0 && sig_op < 0) return; /* nothing to move and no signal: no request (the group agrees) */
  size_t done = 0;
  do {
    size_t n = bytes - done < JSHMEM_PROXY_PAYLOAD ? bytes - done : (size_t)JSHMEM_PROXY_PAYLOAD;
    bool last = done + n == bytes;
    unsigned long long t;
    jshmem_proxy_slot_t *slot = jshmemi_proxy_group_acquire<Scope>(&t);
    jshmemi_group_copy<Scope>((char *)slot + JSHMEM_PROXY_HEADER, (const char *)source + done, n);
    jshmemi_group_release_fence();
    jshmemi_group_sync<Scope>();
    if (jshmemi_group_leader<Scope>()) {
      slot->op = JSHMEM_PROXY_PUT;
      slot->pe = pe;
      slot->offset = offset + done;
      slot->bytes = n;
      slot->value = signal;
      slot->sig_offset = sig_offset;
      slot->sig_op = last ? sig_op : -1;
      jshmemi_proxy_submit(slot, t);
      jshmemi_proxy_release(slot, t);
    }
    done += n;
  } while (done < bytes);
  jshmemi_group_sync<Scope>();
}

/* Internal: a get of `bytes` from PE pe's heap at `offset` into local `dest`, by the group, in
 * requests of at most a payload each; dest is complete for the whole group on return. */
template <int Scope>
JSHMEM_DEVICE void jshmemi_proxy_get(void *dest, unsigned long long offset, size_t bytes, int pe) {
  for (size_t done = 0; done < bytes;) {
    size_t n = bytes - done < JSHMEM_PROXY_PAYLOAD ? bytes - done : (size_t)JSHMEM_PROXY_PAYLOAD;
    unsigned long long t;
    jshmem_proxy_slot_t *slot = jshmemi_proxy_group_acquire<Scope>(&t);
    if (jshmemi_group_leader<Scope>()) {
      slot->op = JSHMEM_PROXY_GET;
      slot->pe = pe;
      slot->offset = offset + done;
      slot->bytes = n;
      slot->sig_op = -1;
      jshmemi_proxy_submit(slot, t);
    }
    jshmemi_group_sync<Scope>();
    jshmemi_group_acquire_fence();
    jshmemi_group_copy<Scope, true>((char *)dest + done, (const char *)slot + JSHMEM_PROXY_HEADER, n);
    jshmemi_group_sync<Scope>();
    if (jshmemi_group_leader<Scope>()) jshmemi_proxy_release(slot, t);
    done += n;
  }
}

/* Internal: a word's bits (p's value, g's answer) as the proxy carries them. */
template <typename T>
JSHMEM_DEVICE_INLINE unsigned long long jshmemi_to_bits(T v) {
  union {
    T t;
    unsigned long long b;
  } u;
  u.b = 0;
  u.t = v;
  return u.b;
}
template <typename T>
JSHMEM_DEVICE_INLINE T jshmemi_from_bits(unsigned long long b) {
  union {
    T t;
    unsigned long long b;
  } u;
  u.b = b;
  return u.t;
}

#endif /* JSHMEM_PROXY_H */
