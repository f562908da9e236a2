/*
 * nvtx_probe.c - a stand-in for Nsight Systems in the NVTX tests: an NVTX injection library
 * (NVTX_INJECTION64_PATH) that writes the domains created and the ranges pushed and popped, a line
 * each, to $JSHMEM_NVTX_PROBE_DIR/nvtx-<pid>.txt.
 */
#include <nvtx3/nvToolsExt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static FILE *out;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void line(const char *what, const char *name) {
  pthread_mutex_lock(&lock);
  if (out != NULL) {
    fprintf(out, "%s %s\n", what, name);
    fflush(out);
  }
  pthread_mutex_unlock(&lock);
}

static nvtxDomainHandle_t create(const char *name) {
  line("domain", name);
  return (nvtxDomainHandle_t)1;
}

static int push(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a) {
  (void)d;
  line("push", a->messageType == NVTX_MESSAGE_TYPE_ASCII ? a->message.ascii : "?");
  return 0;
}

static int pop(nvtxDomainHandle_t d) {
  (void)d;
  line("pop", "-");
  return 0;
}

int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get) {
  const char *dir = getenv("JSHMEM_NVTX_PROBE_DIR");
  char path[4096];
  if (dir == NULL) return 0;
  snprintf(path, sizeof path, "%s/nvtx-%d.txt", dir, (int)getpid());
  out = fopen(path, "w");
  const NvtxExportTableCallbacks *cb = (const NvtxExportTableCallbacks *)get(NVTX_ETID_CALLBACKS);
  NvtxFunctionTable table = NULL;
  unsigned int size = 0;
  if (out == NULL || cb == NULL || !cb->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &table, &size)) return 0;
  *table[NVTX_CBID_CORE2_DomainCreateA] = (NvtxFunctionPointer)create;
  *table[NVTX_CBID_CORE2_DomainRangePushEx] = (NvtxFunctionPointer)push;
  *table[NVTX_CBID_CORE2_DomainRangePop] = (NvtxFunctionPointer)pop;
  return 1;
}
