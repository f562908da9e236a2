/*
 * shim.h - the C API of jshmem's native GPU layer (libjshmem_cuda.so / libjshmem_hip.so), called
 * from Java through FFM. Flat on purpose: plain ints, sizes and pointers, no structs.
 *
 * Conventions
 *   - Every function returns 0 on success and -1 on failure, unless stated; after -1,
 *     jshmem_rt_last_error() holds "call: error string (error name)" for the calling thread.
 *   - Pointers are device, host or unified addresses as the runtime sees them. Streams, events,
 *     modules and functions are opaque handles (void*); a NULL stream is the legacy default stream.
 *   - One device per process: jshmem_rt_set_device records it and every later call binds the
 *     calling thread to it first (the runtime's current device is per OS thread, and Java may call
 *     from any thread). Until set_device is called, the runtime's own current device is used.
 *   - Comparison and atomic-operation codes are those of jshmem/jshmem_state.h (JSHMEM_CMP_*,
 *     JSHMEM_AMO_*), the ordinals of org.jshmem.Cmp and org.jshmem.spi.AtomicOp.
 */
#ifndef JSHMEM_SHIM_H
#define JSHMEM_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- errors and platform ---- */
/* The calling thread's last error message ("" if none); never NULL. */
const char *jshmem_rt_last_error(void);
/* "cuda" or "hip". Never fails. */
const char *jshmem_rt_platform(void);

/* ---- devices ---- */
int jshmem_rt_device_count(int *count);
/* Makes `dev` the device of this process (see Conventions) and of the calling thread. */
int jshmem_rt_set_device(int dev);
int jshmem_rt_get_device(int *dev);
/* Name and PCI address ("domain:bus:device", the same in every process whatever its visible
 * devices; NUL-terminated, truncated to the given lengths), compute capability (HIP: the gfx
 * major/minor the runtime reports), multiprocessor count and memory. Any output pointer may be NULL. */
int jshmem_rt_device_info(int dev, char *name, int name_len, char *pci, int pci_len, int *cc_major,
                          int *cc_minor, int *sm_count, size_t *total_mem);
/* *concurrent = 1 if kernels of several processes on `dev` run side by side: CUDA with the MPS
 * server, HIP always; 0: CUDA time-slices the device between processes. */
int jshmem_rt_device_runs_processes_together(int dev, int *concurrent);
/* *can = 1 if `dev` can map `peer`'s memory (always 1 when dev == peer). */
int jshmem_rt_can_access_peer(int dev, int peer, int *can);
/* *device = the device whose memory `ptr` is (device or managed memory), or -1 for host memory and
 * addresses the runtime does not know. */
int jshmem_rt_pointer_device(const void *ptr, int *device);
int jshmem_rt_device_synchronize(void);

/* ---- symmetric heap (finegrained-alloc) ---- */
/* `bytes` of fine-grained, IPC-exportable memory on the current device. */
int jshmem_rt_heap_alloc(size_t bytes, void **ptr);
int jshmem_rt_heap_free(void *ptr);
/* IPC handle of a heap_alloc pointer into `handle` (JSHMEM_RT_HANDLE_MAX bytes); *len = its length. */
int jshmem_rt_ipc_export(void *ptr, void *handle, size_t *len);
/* Maps a heap exported by another process (never this one: use the local pointer). */
int jshmem_rt_ipc_import(const void *handle, size_t len, void **ptr);
int jshmem_rt_ipc_close(void *ptr);
#define JSHMEM_RT_HANDLE_MAX 128 /* == FG_HANDLE_MAX */
/* Sets `n` bytes to `value`; returns when done. */
int jshmem_rt_memset(void *ptr, int value, size_t n);
int jshmem_rt_memset_async(void *ptr, int value, size_t n, void *stream);

/* ---- pinned host memory ---- */
/* Page-locked, portable (all devices) and mapped (device-accessible at the same address). */
int jshmem_rt_host_alloc(size_t bytes, void **ptr);
int jshmem_rt_host_free(void *ptr);
/* Pins existing host memory (e.g. a Java MemorySegment), portable and mapped. */
int jshmem_rt_host_register(void *ptr, size_t bytes);
int jshmem_rt_host_unregister(void *ptr);

/* ---- streams and events ---- */
/* A non-blocking stream (no implicit synchronization with the legacy default stream). */
int jshmem_rt_stream_create(void **stream);
int jshmem_rt_stream_destroy(void *stream);
int jshmem_rt_stream_synchronize(void *stream);
/* *done = 1 if all work queued on the stream has completed, 0 if not. */
int jshmem_rt_stream_query(void *stream, int *done);
/* timing != 0: the event records time (for elapsed_ms); 0: lighter, for synchronization only. */
int jshmem_rt_event_create(void **event, int timing);
int jshmem_rt_event_destroy(void *event);
int jshmem_rt_event_record(void *event, void *stream);
int jshmem_rt_event_synchronize(void *event);
/* Milliseconds between two recorded timing events. */
int jshmem_rt_event_elapsed_ms(void *start, void *end, float *ms);
/* Work queued on `stream` after this waits for `event`. */
int jshmem_rt_stream_wait_event(void *stream, void *event);

/* ---- graphs (stream capture) ---- */
/* Starts recording `stream` (not the legacy default stream): work queued on it from now on, and on the
 * streams that wait for its events, goes into a graph instead of running. Thread-local mode: this
 * thread's calls that cannot be captured (blocking copies, allocations, synchronisations) fail. */
int jshmem_rt_stream_begin_capture(void *stream);
/* Ends the capture begun on `stream` and instantiates the graph: *graph_exec, replayed by
 * jshmem_rt_graph_launch; *nodes = how many operations it holds. */
int jshmem_rt_stream_end_capture(void *stream, void **graph_exec, size_t *nodes);
/* *capturing = 1 while `stream` is being captured (by jshmem or by anyone else), else 0. */
int jshmem_rt_stream_capturing(void *stream, int *capturing);
/* Queues one replay of the graph on `stream`. */
int jshmem_rt_graph_launch(void *graph_exec, void *stream);
int jshmem_rt_graph_destroy(void *graph_exec);

/* ---- copies (any direction, unified addressing) ---- */
/* Returns when the copy is complete, also device-to-device (unlike cudaMemcpy). */
int jshmem_rt_memcpy(void *dst, const void *src, size_t n);
int jshmem_rt_memcpy_async(void *dst, const void *src, size_t n, void *stream);
/* `height` rows of `width` bytes; rows start every dpitch / spitch bytes. */
int jshmem_rt_memcpy2d_async(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                             size_t height, void *stream);
/* Host memory only, no device work: copies n elements of `elem` bytes from src + i * src_pitch
 * to dst + i * dst_pitch (packing strided elements into a staging buffer, or unpacking them).
 * Called from Java as a critical function (no thread-state change, Java arrays allowed): it must
 * stay short, never block and never call back. */
void jshmem_rt_copy_strided_host(void *dst, size_t dst_pitch, const void *src, size_t src_pitch, size_t elem,
                                 size_t n);

/* ---- stream memory operations ---- */
/* Work queued on `stream` after this waits until *addr == value (JSHMEM_CMP_EQ) or, unsigned,
 * *addr >= value (JSHMEM_CMP_GE, value a power of two or in 1 .. 2^63-1); other comparisons and
 * values fail (use a wait kernel). GE of a power of two is exact everywhere (a bit at or above it
 * is set); of another value it is cyclic on CUDA ((int64_t)(*addr - value) >= 0) and plain unsigned
 * on HIP: the same unless *addr is 2^63 or more above value. `addr`: 8-byte aligned device memory
 * (e.g. this PE's heap) or registered host memory. */
int jshmem_rt_stream_wait_value64(void *stream, void *addr, uint64_t value, int cmp);
/* Writes the low `width` bytes (4 or 8) of `value` to *addr (aligned to `width`; this PE's heap or a
 * peer's as this process maps it) once the work queued before it on `stream` has completed (and
 * its writes are visible). The value travels in the stream's command, so nothing needs to stay
 * readable after the call: the host-called p and the signal of put_signal use it. */
int jshmem_rt_stream_write_value(void *stream, void *addr, uint64_t value, int width);

/* ---- atomics from the host ---- */
/* One JSHMEM_AMO_* operation on the 4- or 8-byte word at `addr` (naturally aligned; local heap or
 * an imported peer heap), done by a one-thread kernel on `stream` with system scope. Waits for
 * the stream; the kernel stores the previous value in *old (NULL: not wanted), which must be pinned,
 * device-mapped host memory (jshmem_rt_host_alloc). COMPARE_SWAP stores
 * `value` if the word equals `comparand`. For width 4 only the low 32 bits of value/comparand
 * are used and *old is zero-extended. */
int jshmem_rt_amo(void *addr, int width, int op, uint64_t value, uint64_t comparand, uint64_t *old,
                  void *stream);
/* The same for the non-fetching operations (SET, ADD, AND, OR, XOR), queued on `stream`
 * without waiting. */
int jshmem_rt_amo_async(void *addr, int width, int op, uint64_t value, void *stream);

/* ---- modules: user kernels ---- */
/* Loads a CUBIN, fatbin or PTX (CUDA) / code object (HIP) image. */
int jshmem_rt_module_load(const void *image, void **module);
int jshmem_rt_module_unload(void *module);
int jshmem_rt_module_function(void *module, const char *name, void **fn);
/* Device address and size of a __device__ variable of the module (e.g. jshmem_device_state). */
int jshmem_rt_module_global(void *module, const char *name, void **ptr, size_t *bytes);
/* How jshmem_rt_launch launches. COOPERATIVE: every block resident at once (the caller has checked
 * that the grid fits, see jshmem_rt_func_max_blocks_per_sm). CHAINED: a programmatic dependent launch
 * (CUDA, compute capability 9.0 and up, unless JSHMEM_GPU_LAUNCH_CHAINING=0; elsewhere plain): the
 * kernel may be scheduled while the stream's previous kernel runs, and waits for that kernel with
 * griddepcontrol.wait (cudaGridDependencySynchronize) before it touches memory. */
enum { JSHMEM_LAUNCH_PLAIN = 0, JSHMEM_LAUNCH_COOPERATIVE = 1, JSHMEM_LAUNCH_CHAINED = 2 };
/* Launches `fn` in `mode` (JSHMEM_LAUNCH_*); args[i] points to the value of the i-th kernel parameter. */
int jshmem_rt_launch(void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                     unsigned shared_bytes, void *stream, void **args, int mode);
/* How many blocks of `block_threads` threads with `shared_bytes` of dynamic shared memory one
 * multiprocessor holds at once for `fn` (the occupancy calculator). */
int jshmem_rt_func_max_blocks_per_sm(void *fn, int block_threads, unsigned shared_bytes, int *blocks);
/* How many clusters of `cluster` blocks (its compile-time cluster size) the whole device holds at
 * once for `fn` (cuOccupancyMaxActiveClusters). CUDA only: HIP has no clusters. */
int jshmem_rt_func_max_active_clusters(void *fn, int cluster, int block_threads, unsigned shared_bytes, int *clusters);
/* Allows launches of `fn` with up to `bytes` of dynamic shared memory (needed above 48 KiB on CUDA). */
int jshmem_rt_func_set_max_dynamic_shared(void *fn, int bytes);

/* ---- run-time compilation (NVRTC / hiprtc, loaded on first use) ---- */
/* Compiles `source` (`name` is its file name in messages) for the current device. CUDA: a CUBIN
 * for sm_XY of the current device, unless the options choose an architecture themselves
 * (--gpu-architecture=/-arch=): compute_XY gives PTX (NUL-terminated), sm_XY a CUBIN.
 * HIP: a code object for the current device's gfx target unless the options choose one.
 * *image (size in *image_size) and *log (NUL-terminated, NULL when the log is empty) are
 * malloc'd: free them with jshmem_rt_free_buffer. On a compile error returns -1 with the log
 * in *log. */
int jshmem_rt_rtc_compile(const char *source, const char *name, const char **options, int n_options, void **image,
                          size_t *image_size, char **log);
/* Frees a buffer returned by jshmem_rt_rtc_compile (NULL is fine). Never fails. */
void jshmem_rt_free_buffer(void *buffer);

/* ---- helper kernels (kernels.cu): state, SM copy, put-signal, waits, barriers ----
 * Declared with their definitions in kernels.cu: jshmem_rt_set_state, jshmem_rt_copy_sm_async,
 * jshmem_rt_copy_strided_async, jshmem_rt_put_signal_async, jshmem_rt_signal_wait_async, jshmem_rt_barrier_async,
 * jshmem_rt_sync_async, jshmem_rt_quiet_async, jshmem_rt_gpu_time. */

/* Tags the runtime kernels this thread queues from now on (barriers, syncs, collectives on a stream) with
 * traced operation `op` (0: none): each of their blocks records its span, tagged, in the records given
 * by jshmem_rt_trace_ops_ring. Set by the tracing host around one call. Returns how many kernels were queued under the
 * tag it replaces (0: that call queued none, e.g. a plain copy). Never fails. */
unsigned jshmem_rt_trace_op(unsigned op);
/* Gives the runtime's kernels `capacity` records at `records` (device memory, zeroed: a record whose end
 * is 0 was not written) for the blocks of traced operations; NULL and 0: none. Resets the counts below. */
int jshmem_rt_trace_ops_ring(void *records, unsigned long long capacity);
/* *reserved: the records the blocks reserved so far (those below the capacity are in the ring);
 * *lost: the blocks that found none left. */
void jshmem_rt_trace_ops_taken(unsigned long long *reserved, unsigned long long *lost);

/* ---- collectives on a stream (coll_kernels.cu) ----
 * Over the team in team_slot (this PE a member; every member enqueues the same calls in the same
 * order). dest/src: this PE's addresses in its heap. blocks: 0 = one fused one-block kernel (small
 * sizes), n > 0 = a kernel of n blocks and a one-block sync kernel; ce_lanes > 0: the pieces
 * move as memcpyAsync on that many side streams (1 to 8) joined back into `stream`, one after the
 * other in rotated order on one lane, this PE's own piece by an SM copy kernel on `stream`
 * meanwhile (blocks ignored); 0: SM kernels. ce_push != 0: fcollect, collect and alltoall push
 * this PE's pieces into the members' dests instead of pulling theirs (broadcast always pulls). Codes:
 * JSHMEM_DTYPE_* (org.jshmem.DType), JSHMEM_REDUCE_* (org.jshmem.ReduceOp). */
/* Shapes of jshmem_rt_coll_reduce_async (org.jshmem.gpu.ReduceShape ordinal). */
#define JSHMEM_RT_REDUCE_ONE_SHOT 0
#define JSHMEM_RT_REDUCE_TWO_SHOT 1
#define JSHMEM_RT_REDUCE_LOW_LATENCY 2
/* rotated != 0 (a two-shot of n > 0 blocks over 3+ members): the members read one at a time, each PE
 * starting after itself (32- and 64-bit types; see jshmemi_reduce_words_rotated). ce_lanes > 0 (two-shot
 * only): the copy engines pull the peers' parts of this PE's slice and push its reduced slice (that many
 * side streams each), SM kernels of `blocks` blocks reduce it, chunk by chunk. */
int jshmem_rt_coll_reduce_async(int team_slot, int dtype, int op, void *dest, const void *src, size_t nelems,
                                int shape, int blocks, int ce_lanes, int rotated, void *stream);
int jshmem_rt_coll_fcollect_async(int team_slot, void *dest, const void *src, size_t bytes, int blocks,
                                  int ce_lanes, int ce_push, void *stream);
/* Reduce-scatter: team PE i gets block i (nper elements) of the reduction of the members' n * nper
 * element sources; ce_lanes > 0: peers' blocks pulled by copy engines on that many side streams
 * into a local scratch and reduced there by `blocks` blocks, chunk by chunk; else rotated as for the reduction. */
int jshmem_rt_coll_reducescatter_async(int team_slot, int dtype, int op, void *dest, const void *src,
                                       size_t nper, int blocks, int ce_lanes, int rotated, void *stream);
/* offsets: team size + 1 byte offsets into dest (host array), offsets[0] = 0. */
int jshmem_rt_coll_collect_async(int team_slot, void *dest, const void *src, const size_t *offsets, int blocks,
                                 int ce_lanes, int ce_push, void *stream);
int jshmem_rt_coll_alltoall_async(int team_slot, void *dest, const void *src, size_t bytes_per_pe, int blocks,
                                  int ce_lanes, int ce_push, void *stream);
int jshmem_rt_coll_broadcast_async(int team_slot, void *dest, const void *src, size_t bytes, int root, int blocks,
                                   int ce_lanes, void *stream);
/* Destroys the side streams/events of the copy-engine collectives (made on first use). */
int jshmem_rt_coll_release(void);

/* The service kernel (coll_service.cuh): one block that stays on an SM and runs host-called small
 * collectives without a launch each. Open gives the box, mapped pinned host memory holding the
 * number of the last command posted (at JSHMEM_RT_SERVICE_POSTED) and of the last done (at
 * JSHMEM_RT_SERVICE_DONE), and the stream to pass to jshmem_rt_coll_reduce_async (low-latency shape,
 * 2+ PEs) and to fcollect, collect, alltoall and broadcast (one block, no copy engines) to have them
 * served: each such call posts one command, done when done == posted. The kernel returns after
 * linger_us without a command and is launched again by the next. Check, while waiting: fails if the
 * kernel faulted, relaunches it if it returned before it saw the command. Stop ends it (before a
 * wait for the whole device); close ends it and frees the box. Callers serialise a post and its wait. */
#define JSHMEM_RT_SERVICE_POSTED 0
#define JSHMEM_RT_SERVICE_DONE 64
int jshmem_rt_service_open(unsigned long long linger_us, void **box, void **stream);
int jshmem_rt_service_check(void);
int jshmem_rt_service_stop(void);
int jshmem_rt_service_close(void);

#ifdef __cplusplus
}
#endif

#endif /* JSHMEM_SHIM_H */
