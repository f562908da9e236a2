/*
 * jshmem_nvtx.c - NVTX ranges around jshmem's host calls (JSHMEM_NVTX=1), in the domain "jshmem", so that
 * Nsight Systems shows them as it shows NVSHMEM's (NVSHMEM_NVTX). NVTX v3 is header-only: until a tool
 * attaches (nsys sets NVTX_INJECTION64_PATH) each call returns after a branch. A library of its own,
 * apart from the GPU shims, so that a job on the host heap loads no GPU runtime for it.
 */
#include <nvtx3/nvToolsExt.h>
#include <string.h>

#define JSHMEM_NVTX_EXPORT __attribute__((visibility("default")))

static nvtxDomainHandle_t domain;

/* Creates the domain; call once before the ranges. */
JSHMEM_NVTX_EXPORT void jshmem_nvtx_init(void) {
  if (domain == NULL) domain = nvtxDomainCreateA("jshmem");
}

/* Opens a range named `name` (ASCII) on the calling thread. */
JSHMEM_NVTX_EXPORT void jshmem_nvtx_push(const char *name) {
  nvtxEventAttributes_t a;
  memset(&a, 0, sizeof a);
  a.version = NVTX_VERSION;
  a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  a.messageType = NVTX_MESSAGE_TYPE_ASCII;
  a.message.ascii = name;
  nvtxDomainRangePushEx(domain, &a);
}

/* Closes the calling thread's innermost range. */
JSHMEM_NVTX_EXPORT void jshmem_nvtx_pop(void) { nvtxDomainRangePop(domain); }
