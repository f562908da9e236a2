/*
 * jshmem_state.h - the contract between the Java runtime, the native shim and device code.
 *
 * One device symbol, jshmem_device_state (of type jshmem_device_state_t), holds what a kernel
 * needs to reach every PE's heap: it is defined in each module that includes <jshmem/jshmem.h>,
 * and the Java side fills it when it loads the module (and the shim fills its own copy).
 * Java mirrors every constant here in org.jshmem.gpu.GpuHeapDescriptor: change both together.
 *
 * Heap of every PE (same layout on each, JSHMEM_INTERNAL_SIZE + JSHMEM_SYMMETRIC_SIZE bytes):
 *   [0, JSHMEM_INTERNAL_SIZE)        jshmem's own: barrier and collective flags (below)
 *   [JSHMEM_INTERNAL_SIZE, heap_size) what shmem.malloc hands out
 */
#ifndef JSHMEM_STATE_H
#define JSHMEM_STATE_H

/* Fixed-width integers. Host compilers and nvcc/hipcc take them from <stdint.h>. Run-time
 * compilers have no host headers: hiprtc predefines int32_t, uint32_t, int64_t and uint64_t, and
 * for NVRTC we declare them here exactly as libcu++ does under NVRTC (64-bit = long long), so a
 * kernel that also includes <cuda/std/cstdint> sees identical typedefs. Define
 * JSHMEM_NO_STDINT_TYPEDEFS if your NVRTC program already provides them differently. */
#if defined(__CUDACC_RTC__)
#ifndef JSHMEM_NO_STDINT_TYPEDEFS
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
#endif
#elif !defined(__HIPCC_RTC__)
#include <stdint.h>
#endif

#define JSHMEM_MAX_PES 64          /* PEs a GPU heap can be shared by (one node) */
#define JSHMEM_MAX_TEAMS 64        /* team slots; 0 = world, 1 = node */

/* Internal region, offsets from each heap's base. Every cell is 8 bytes on its own 128-byte line
 * where peers write it, so that no two writers share a line. */
#define JSHMEM_CELL 128ull
/* sync[team][pe]: the barrier generation that PE `pe` reached in team `team`, written by `pe`
 * into every member's heap (system scope, release). */
#define JSHMEM_SYNC_OFFSET 0ull
#define JSHMEM_SYNC_BYTES ((unsigned long long)JSHMEM_MAX_TEAMS * JSHMEM_MAX_PES * JSHMEM_CELL)
/* gen[team]: this PE's own last barrier generation in `team` (read and written by itself only). */
#define JSHMEM_GEN_OFFSET (JSHMEM_SYNC_OFFSET + JSHMEM_SYNC_BYTES)
#define JSHMEM_GEN_BYTES ((unsigned long long)JSHMEM_MAX_TEAMS * JSHMEM_CELL)
/* coll[team][pe]: a second word per team and PE for collectives: jshmem_collectmem_block stores
 * the byte count PE `pe` contributes into every member's cell [team][pe] (written by `pe` only). */
#define JSHMEM_COLL_OFFSET (JSHMEM_GEN_OFFSET + JSHMEM_GEN_BYTES)
#define JSHMEM_COLL_BYTES ((unsigned long long)JSHMEM_MAX_TEAMS * JSHMEM_MAX_PES * JSHMEM_CELL)
/* ll_seq[team]: how many low-latency reductions this PE ran in `team` (read and written by itself). */
#define JSHMEM_LL_SEQ_OFFSET (JSHMEM_COLL_OFFSET + JSHMEM_COLL_BYTES)
#define JSHMEM_LL_SEQ_BYTES ((unsigned long long)JSHMEM_MAX_TEAMS * JSHMEM_CELL)
/* proxy_ticket: the next ticket of this PE's device proxy ring (below), taken by device atomics. */
#define JSHMEM_PROXY_TICKET_OFFSET (JSHMEM_LL_SEQ_OFFSET + JSHMEM_LL_SEQ_BYTES)
/* Low-latency (LL) reductions of teams of at most JSHMEM_LL_MEMBERS, of at most JSHMEM_LL_PAYLOAD
 * bytes: every member stores its source into every member's ll[team][parity][its team index] as
 * 16-byte lines of two {4 data bytes, 4 flag bytes} words, the flag being the call's sequence
 * number, so that the readers see data and flag arrive together and nothing else synchronises.
 * Two parities: back-to-back calls alternate, so that a member one call ahead never overwrites
 * lines a slower member has still to read. */
#define JSHMEM_LL_MEMBERS 8
#define JSHMEM_LL_PAYLOAD 4096ull
#define JSHMEM_LL_LINE 16ull
#define JSHMEM_LL_MEMBER_BYTES (JSHMEM_LL_PAYLOAD / 8ull * JSHMEM_LL_LINE)
#define JSHMEM_LL_TEAM_BYTES (2ull * JSHMEM_LL_MEMBERS * JSHMEM_LL_MEMBER_BYTES)
#define JSHMEM_LL_OFFSET (2ull << 20)
#define JSHMEM_LL_BYTES ((unsigned long long)JSHMEM_MAX_TEAMS * JSHMEM_LL_TEAM_BYTES)
/* Total reserved at the start of each heap (room to grow; a multiple of 2 MiB). */
#define JSHMEM_INTERNAL_SIZE (JSHMEM_LL_OFFSET + JSHMEM_LL_BYTES)

#define JSHMEM_SYNC_CELL(team, pe) \
  (JSHMEM_SYNC_OFFSET + ((unsigned long long)(team) * JSHMEM_MAX_PES + (unsigned long long)(pe)) * JSHMEM_CELL)
#define JSHMEM_GEN_CELL(team) (JSHMEM_GEN_OFFSET + (unsigned long long)(team) * JSHMEM_CELL)
#define JSHMEM_COLL_CELL(team, pe) \
  (JSHMEM_COLL_OFFSET + ((unsigned long long)(team) * JSHMEM_MAX_PES + (unsigned long long)(pe)) * JSHMEM_CELL)
#define JSHMEM_LL_SEQ_CELL(team) (JSHMEM_LL_SEQ_OFFSET + (unsigned long long)(team) * JSHMEM_CELL)
#define JSHMEM_LL_LINES(team, parity, member)                                       \
  (JSHMEM_LL_OFFSET + (unsigned long long)(team) * JSHMEM_LL_TEAM_BYTES +          \
   ((unsigned long long)(parity) * JSHMEM_LL_MEMBERS + (unsigned long long)(member)) * \
       JSHMEM_LL_MEMBER_BYTES)

/* Device proxy ring (jshmem_proxy.h; org.jshmem.gpu.DeviceProxy serves it): where PEs of other
 * nodes are, device calls to them are posted as requests to this ring of slots in pinned,
 * device-mapped host memory. Slot t % JSHMEM_PROXY_SLOTS carries ticket t; its header words are
 * written by one side each (device: posted, free, the request; host: done, status, result), and
 * the payload holds a put's data or a get's answer. */
#define JSHMEM_PROXY_SLOTS 32
#define JSHMEM_PROXY_PAYLOAD 65536ull
#define JSHMEM_PROXY_HEADER 128ull
#define JSHMEM_PROXY_SLOT_BYTES (JSHMEM_PROXY_HEADER + JSHMEM_PROXY_PAYLOAD)
typedef struct jshmem_proxy_slot {
  uint64_t posted;     /* device: ticket + 1 once the request below is complete */
  uint64_t done;       /* host: ticket + 1 once it is served (result, status, payload set) */
  uint64_t free;       /* device: the ticket that may take the slot next (host sets t = slot first) */
  int32_t op;          /* JSHMEM_PROXY_PUT .. LOAD */
  int32_t pe;          /* target PE */
  uint64_t offset;     /* in the target's heap (internal region included) */
  uint64_t bytes;      /* PUT, GET: payload bytes */
  uint64_t value;      /* AMO operand, STORE bits, PUT's signal value */
  uint64_t comparand;  /* AMO compare-and-swap's condition */
  uint64_t sig_offset; /* PUT: the signal word's heap offset, when sig_op >= 0 */
  int32_t sig_op;      /* PUT: JSHMEM_SIGNAL_SET / ADD after the data, or -1 */
  int32_t width;       /* AMO, STORE, LOAD: bytes of the word (1, 2, 4, 8) */
  int32_t amo;         /* AMO: JSHMEM_AMO_* */
  int32_t status;      /* host: 0 served, else the request failed (the host printed why) */
  uint64_t result;     /* host: AMO's old value, LOAD's bits */
} jshmem_proxy_slot_t;
#define JSHMEM_PROXY_PUT 1
#define JSHMEM_PROXY_GET 2
#define JSHMEM_PROXY_AMO 3
#define JSHMEM_PROXY_STORE 4
#define JSHMEM_PROXY_LOAD 5

/* Comparison codes (org.jshmem.Cmp ordinal) */
#define JSHMEM_CMP_EQ 0
#define JSHMEM_CMP_NE 1
#define JSHMEM_CMP_GT 2
#define JSHMEM_CMP_GE 3
#define JSHMEM_CMP_LT 4
#define JSHMEM_CMP_LE 5

/* Signal operations (org.jshmem.SignalOp ordinal) */
#define JSHMEM_SIGNAL_SET 0
#define JSHMEM_SIGNAL_ADD 1

/* Atomic operations (org.jshmem.AtomicOp ordinal) */
#define JSHMEM_AMO_FETCH 0
#define JSHMEM_AMO_SET 1
#define JSHMEM_AMO_SWAP 2
#define JSHMEM_AMO_COMPARE_SWAP 3
#define JSHMEM_AMO_ADD 4
#define JSHMEM_AMO_FETCH_ADD 5
#define JSHMEM_AMO_AND 6
#define JSHMEM_AMO_FETCH_AND 7
#define JSHMEM_AMO_OR 8
#define JSHMEM_AMO_FETCH_OR 9
#define JSHMEM_AMO_XOR 10
#define JSHMEM_AMO_FETCH_XOR 11

/* Element types of reductions (org.jshmem.DType ordinal). FP16 = IEEE binary16, BF16 = bfloat16;
 * both are reduced in float and rounded to nearest-even once. */
#define JSHMEM_DTYPE_BYTE 0
#define JSHMEM_DTYPE_SHORT 1
#define JSHMEM_DTYPE_INT 2
#define JSHMEM_DTYPE_LONG 3
#define JSHMEM_DTYPE_FLOAT 4
#define JSHMEM_DTYPE_DOUBLE 5
#define JSHMEM_DTYPE_FP16 6
#define JSHMEM_DTYPE_BF16 7

/* Reduction operations (org.jshmem.ReduceOp ordinal); AND, OR, XOR for integer types only. */
#define JSHMEM_REDUCE_SUM 0
#define JSHMEM_REDUCE_PROD 1
#define JSHMEM_REDUCE_MIN 2
#define JSHMEM_REDUCE_MAX 3
#define JSHMEM_REDUCE_AND 4
#define JSHMEM_REDUCE_OR 5
#define JSHMEM_REDUCE_XOR 6

/* Team descriptor, as device code sees a team: members are start + i * stride (world PEs). */
typedef struct jshmem_team_desc {
  int32_t start;
  int32_t stride;
  int32_t size;
  int32_t slot;                    /* sync slot, 0 .. JSHMEM_MAX_TEAMS-1 */
} jshmem_team_desc_t;

typedef struct jshmem_device_state {
  int32_t my_pe;
  int32_t n_pes;
  int32_t debug;                   /* 1: device calls check PE range and heap bounds, and trap */
  int32_t wait_timeout_ms;         /* > 0: a wait without progress for this long prints what it waits for and
                                      traps (JSHMEM_WAIT_TIMEOUT, when set); 0: waits spin forever */
  uint64_t heap_size;              /* bytes per PE, internal region included */
  char *heap_base;                 /* this PE's heap, as this process maps it */
  char *peer_base[JSHMEM_MAX_PES]; /* every PE's heap as this process maps it; [my_pe] == heap_base */
  jshmem_team_desc_t teams[JSHMEM_MAX_TEAMS];  /* slot 0 = world; size 0 = free slot */
  char *proxy;                     /* the device proxy ring where PEs of other nodes are, else 0 */
  char *trace;                     /* the device trace ring (JSHMEM_TRACE, jshmem_trace.h), else 0 */
} jshmem_device_state_t;

/* Device trace ring (jshmem_trace.h; org.jshmem.gpu.DeviceTrace drains it): mapped pinned host memory,
 * a header {next record to take, capacity} on its own 128 bytes, then `capacity` records. Records
 * taken past the capacity are lost, and counted (next - capacity). */
#define JSHMEM_TRACE_HEADER 128ull
#define JSHMEM_TRACE_NAME 20
#define JSHMEM_TRACE_CATEGORY 8
typedef struct jshmem_trace_record {
  uint64_t begin;                  /* GPU clock (jshmemi_now_ns) */
  uint64_t end;
  uint32_t block;                  /* linear block index in the grid */
  uint32_t thread;                 /* the recording thread's index in the block */
  int64_t value;                   /* the span's number (the GEMM's tile), or -1 */
  uint32_t op;                     /* the traced stream operation a runtime kernel ran for, else 0 */
  char name[JSHMEM_TRACE_NAME];    /* NUL-terminated, cut to 19 characters */
  char category[JSHMEM_TRACE_CATEGORY]; /* "gpu", or the trace's compute / comm / wait / barrier for jshmem's kernels */
} jshmem_trace_record_t;

#endif /* JSHMEM_STATE_H */
