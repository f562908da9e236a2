/*
 * fg_alloc.h - fine-grained, IPC-shareable device memory, for CUDA and HIP from one source.
 *
 * Two uses:
 *   1. jshmem's symmetric heap: fg_alloc_shareable / fg_export in the owning process,
 *      fg_import in every other process of the node (the handle travels through the bootstrap).
 *   2. PyTorch: fg_malloc / fg_free have the signatures torch.cuda.memory.CUDAPluggableAllocator
 *      expects, so tensors can live in the same kind of memory.
 *
 * Memory: HIP allocates with hipExtMallocWithFlags(hipDeviceMallocFinegrained) (coherent with
 * peers and the host while kernels run); CUDA allocates with cudaMalloc, which on NVLink peers
 * already supports peer loads/stores and system-scope atomics. Both are exported with the
 * runtime's legacy IPC handles (see README.md for why not the cuMem* VMM API).
 *
 * Errors: functions returning int give 0 on success and -1 on failure; fg_last_error() then
 * holds a message naming the call, the sizes and the runtime's error, for the calling thread.
 */
#ifndef FG_ALLOC_H
#define FG_ALLOC_H

#include <stddef.h>
#include <sys/types.h> /* ssize_t */

#if defined(__HIP_PLATFORM_AMD__) || defined(__HIPCC__) || defined(JSHMEM_HIP)
#include <hip/hip_runtime_api.h>
typedef hipStream_t fg_stream_t;
#else
#include <cuda_runtime_api.h>
typedef cudaStream_t fg_stream_t;
#endif

/* Size of the buffer fg_export writes into (today's handles are 64 bytes; room to grow). */
#define FG_HANDLE_MAX 128

#ifdef __cplusplus
extern "C" {
#endif

/* PyTorch pluggable allocator: `size` bytes on `device` for use on `stream` (the current device is
 * left as it was); NULL on failure, with the reason on stderr (PyTorch has no way to ask for it).
 * Freed blocks are cached per (device, stream, size class) and handed out again to requests on
 * the same stream without a runtime call, as PyTorch's own caching allocator does: a block used
 * on another stream must be synchronised with by the caller before it is freed (record_stream is
 * not seen by a pluggable allocator). Each block is its own runtime allocation (never split), so
 * it stays fine-grained and IPC-shareable. FG_ALLOC_CACHE=0 turns the cache off: then every free
 * goes to the runtime, which waits for the device. */
void *fg_malloc(ssize_t size, int device, fg_stream_t stream);
/* Frees what fg_malloc returned: into the cache (or to the runtime with FG_ALLOC_CACHE=0). */
void fg_free(void *ptr, ssize_t size, int device, fg_stream_t stream);
/* Gives every cached block back to the runtime (waiting for the device, as the runtime's free
 * does); fg_malloc also does this once, before failing, when an allocation runs out of memory. */
void fg_empty_cache(void);

/* Allocates `bytes` (> 0) of fine-grained device memory on the current device, exportable with
 * fg_export. */
int fg_alloc_shareable(size_t bytes, void **ptr);
/* Frees memory from fg_alloc_shareable (after every importer has called fg_unimport). */
int fg_free_shareable(void *ptr);

/* Writes the IPC handle of `ptr` into `handle` (FG_HANDLE_MAX bytes) and its length into
 * *handle_len. `ptr` must be a pointer fg_alloc_shareable returned (the start of an allocation):
 * the importer maps the whole allocation and gets its start. */
int fg_export(void *ptr, void *handle, size_t *handle_len);
/* Maps memory exported by ANOTHER process into this one, on the current device (opening a
 * handle that this same process exported fails: use the local pointer instead). Peer access is
 * enabled on demand. */
int fg_import(const void *handle, size_t handle_len, void **ptr);
/* Unmaps memory mapped by fg_import. */
int fg_unimport(void *ptr);

/* The calling thread's last error message ("" if none). */
const char *fg_last_error(void);
/* "cuda" or "hip": the platform this library was built for. */
const char *fg_platform(void);
/* Bytes (as asked for) and allocations currently held through fg_malloc (what PyTorch holds);
 * either may be NULL. */
void fg_stats(size_t *live_bytes, size_t *live_allocs);
/* Bytes and blocks in fg_malloc's cache (freed, not yet given back); either may be NULL. */
void fg_cache_stats(size_t *cached_bytes, size_t *cached_blocks);

#ifdef __cplusplus
}
#endif

#endif /* FG_ALLOC_H */
