/*
 * fg_torch.cu - the PyTorch pluggable allocator (fg_malloc / fg_free, see include/fg_alloc.h)
 * over fine-grained memory, with a stream-ordered cache.
 *
 * A freed block goes back to a free list keyed by (device, stream it was allocated on, size
 * class) instead of to the runtime: the runtime's free waits for the whole device, and a training
 * step frees hundreds of tensors. A later request on the same stream with the same size class
 * takes it at once; the stream's order makes that safe (the work that used the block was queued
 * before the work that will), as in PyTorch's own caching allocator. Blocks are never split or
 * merged, so each stays one runtime allocation that fg_export-style IPC can still share.
 * On an out-of-memory the cache is released and the allocation tried once more;
 * fg_empty_cache releases it on demand; FG_ALLOC_CACHE=0 turns the cache off.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <map>
#include <mutex>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "fg_alloc.h"
#include "fg_internal.h"

namespace {

struct LiveBlock {
  int device;
  fg_stream_t stream;
  size_t bytes;   /* the size class: what the runtime allocated */
  size_t asked;   /* what the caller asked for (fg_stats) */
};

using FreeKey = std::tuple<int, uintptr_t, size_t>;   /* device, stream, size class */

struct Cache {
  std::mutex lock;
  std::unordered_map<void *, LiveBlock> live;
  std::map<FreeKey, std::vector<void *>> free;
  size_t live_bytes = 0, cached_bytes = 0, cached_blocks = 0;
  bool enabled;

  Cache() {
    const char *v = getenv("FG_ALLOC_CACHE");
    enabled = v == NULL || strcmp(v, "0") != 0;
  }
};

Cache &cache() {
  static Cache *c = new Cache();   /* never destroyed: frees may come during PyTorch's teardown */
  return *c;
}

/* Multiples of 512 bytes below 1 MiB; above, 16 classes per power of two (at most 6.25% more). */
size_t size_class(size_t n) {
  const size_t small = 512, large = (size_t)1 << 20;
  if (n < large) return (n + small - 1) / small * small;
  size_t top = (size_t)1 << (63 - __builtin_clzll(n));
  size_t step = top / 16;
  return (n + step - 1) / step * step;
}

/* Runs `call` with `device` current, then restores the caller's device. */
template <typename F>
gpuError_t on_device(int device, F call) {
  int prev = -1;
  gpuError_t e = gpuGetDevice(&prev);
  if (e == gpuSuccess && prev != device) e = gpuSetDevice(device);
  if (e == gpuSuccess) e = call();
  if (prev >= 0 && prev != device) (void)gpuSetDevice(prev);
  return e;
}

/* Frees every cached block (the runtime's free waits for the block's device). Caller holds the lock. */
void release_cached(Cache &c) {
  for (auto &entry : c.free) {
    int device = std::get<0>(entry.first);
    for (void *p : entry.second) {
      gpuError_t e = on_device(device, [p] { return gpuFree(p); });
      if (e != gpuSuccess)
        fprintf(stderr, "fg_empty_cache: %sFree(%p) on device %d: %s (%s)\n", FG_PLATFORM, p, device,
                gpuGetErrorString(e), gpuGetErrorName(e));
    }
  }
  c.free.clear();
  c.cached_bytes = 0;
  c.cached_blocks = 0;
}

}  // namespace

extern "C" {

void *fg_malloc(ssize_t size, int device, fg_stream_t stream) {
  if (size < 0) {
    fprintf(stderr, "fg_malloc: negative size %zd\n", size);
    return NULL;
  }
  if (size == 0) return NULL;
  Cache &c = cache();
  size_t bytes = c.enabled ? size_class((size_t)size) : (size_t)size;
  std::lock_guard<std::mutex> guard(c.lock);
  void *p = NULL;
  auto hit = c.free.find(FreeKey(device, (uintptr_t)stream, bytes));
  if (hit != c.free.end() && !hit->second.empty()) {
    p = hit->second.back();
    hit->second.pop_back();
    c.cached_bytes -= bytes;
    c.cached_blocks--;
  } else {
    gpuError_t e = on_device(device, [&p, bytes] { return fgi::device_malloc(&p, bytes); });
    if (e != gpuSuccess && c.cached_blocks > 0) {   /* out of memory, perhaps only because of the cache */
      (void)gpuGetLastError();
      release_cached(c);
      e = on_device(device, [&p, bytes] { return fgi::device_malloc(&p, bytes); });
    }
    if (e != gpuSuccess) {
      fprintf(stderr, "fg_malloc: %s of %zu bytes on device %d: %s (%s)\n", FG_MALLOC_NAME, bytes, device,
              gpuGetErrorString(e), gpuGetErrorName(e));
      (void)gpuGetLastError();
      return NULL;
    }
  }
  c.live.emplace(p, LiveBlock{device, stream, bytes, (size_t)size});
  c.live_bytes += (size_t)size;
  return p;
}

void fg_free(void *ptr, ssize_t size, int device, fg_stream_t stream) {
  (void)size;
  (void)stream;   /* PyTorch passes the allocation's stream, which the block already records */
  if (ptr == NULL) return;
  Cache &c = cache();
  std::lock_guard<std::mutex> guard(c.lock);
  auto it = c.live.find(ptr);
  if (it == c.live.end()) {
    fprintf(stderr, "fg_free: %p on device %d did not come from fg_malloc (or was freed twice)\n", ptr, device);
    return;
  }
  LiveBlock b = it->second;
  c.live.erase(it);
  c.live_bytes -= b.asked;
  if (c.enabled) {
    c.free[FreeKey(b.device, (uintptr_t)b.stream, b.bytes)].push_back(ptr);
    c.cached_bytes += b.bytes;
    c.cached_blocks++;
    return;
  }
  gpuError_t e = on_device(b.device, [ptr] { return gpuFree(ptr); });
  if (e != gpuSuccess)
    fprintf(stderr, "fg_free: %sFree(%p) on device %d: %s (%s)\n", FG_PLATFORM, ptr, b.device, gpuGetErrorString(e),
            gpuGetErrorName(e));
}

void fg_empty_cache(void) {
  Cache &c = cache();
  std::lock_guard<std::mutex> guard(c.lock);
  release_cached(c);
}

void fg_stats(size_t *live_bytes, size_t *live_allocs) {
  Cache &c = cache();
  std::lock_guard<std::mutex> guard(c.lock);
  if (live_bytes) *live_bytes = c.live_bytes;
  if (live_allocs) *live_allocs = c.live.size();
}

void fg_cache_stats(size_t *cached_bytes, size_t *cached_blocks) {
  Cache &c = cache();
  std::lock_guard<std::mutex> guard(c.lock);
  if (cached_bytes) *cached_bytes = c.cached_bytes;
  if (cached_blocks) *cached_blocks = c.cached_blocks;
}

} /* extern "C" */
