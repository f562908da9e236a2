/* shim_internal.h - what the shim's sources share and do not export. */
#ifndef JSHMEM_SHIM_INTERNAL_H
#define JSHMEM_SHIM_INTERNAL_H

#include "shim_error.h"

/* Fails the calling function (returns -1 with the message) unless `cond` holds. */
#define CHECK_ARG(cond, ...)                                                                 \
  do {                                                                                       \
    if (!(cond)) return jshmem_rt_fail(__VA_ARGS__);                                         \
  } while (0)

/* Binds the calling thread to the process's device (see shim.h, Conventions); 0 or -1. */
int jshmem_bind_device(void);
#define BIND_DEVICE()                                                                        \
  do {                                                                                       \
    if (jshmem_bind_device() != 0) return -1;                                                \
  } while (0)

/* The device the calling thread was bound to by BIND_DEVICE, or -1 before its first binding. */
int jshmem_bound_device(void);
/* Devices a process can address, for the caches kept per device. */
#define JSHMEM_MAX_DEVICES 64

/* Queues the one-thread atomic kernel (amo_kernels.cu). `out`, if not NULL, receives the old
 * value: the device address of pinned, mapped host memory. */
int jshmem_amo_launch(void *addr, int width, int op, unsigned long long value, unsigned long long comparand,
                      unsigned long long *out, gpuStream_t stream);

/* Copies the device state (a jshmem_device_state_t) into the collectives' own copy
 * (coll_kernels.cu); called by jshmem_rt_set_state. 0 or -1. */
extern "C" int jshmemk_coll_set_state(const void *state);

#endif /* JSHMEM_SHIM_INTERNAL_H */
