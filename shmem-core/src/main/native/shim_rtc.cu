/*
 * shim_rtc.cu - run-time compilation behind shim.h (jshmem_rt_rtc_compile): NVRTC or hiprtc,
 * opened with dlopen on first use so that neither is needed to load the shim. One source for
 * nvcc and hipcc.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shim.h"
#include "shim_internal.h"

extern "C" {

/* ------------------------------------------------------------------------------------------
 * Run-time compilation: NVRTC / hiprtc through dlopen (same call shapes; the enums are ints
 * and the program handles pointers, so one table of function pointers serves both).
 * ------------------------------------------------------------------------------------------ */
typedef struct {
  const char *(*error_string)(int);
  int (*create)(void **prog, const char *src, const char *name, int n_headers, const char *const *headers,
                const char *const *include_names);
  int (*compile)(void *prog, int n_options, const char *const *options);
  int (*log_size)(void *prog, size_t *size);
  int (*log)(void *prog, char *log);
  int (*code_size)(void *prog, size_t *size); /* CUBIN (NVRTC) / code object (hiprtc) */
  int (*code)(void *prog, char *code);
  int (*ptx_size)(void *prog, size_t *size); /* NVRTC only */
  int (*ptx)(void *prog, char *ptx);
  int (*destroy)(void **prog);
} rtc_api_t;

static rtc_api_t g_rtc;
static pthread_once_t g_rtc_once = PTHREAD_ONCE_INIT;
static char g_rtc_error[1024];

#if JSHMEM_IS_HIP
#define RTC "hiprtc"
#define RTC_CODE "hiprtcGetCode"
/* ROCm >= 5.3 ships hiprtc apart; older ROCm (Debian's 5.2) has it inside libamdhip64. */
static const char *const rtc_libs[] = {"libhiprtc.so",         "libhiprtc.so.6", "libhiprtc.so.5",
                                       "/opt/rocm/lib/libhiprtc.so", "libamdhip64.so", "libamdhip64.so.5"};
#else
#define RTC "nvrtc"
#define RTC_CODE "nvrtcGetCUBIN"
static const char *const rtc_libs[] = {"libnvrtc.so.13",
                                       "libnvrtc.so",
                                       "/usr/local/cuda/lib64/libnvrtc.so.13",
                                       "/usr/local/cuda/lib64/libnvrtc.so",
                                       "/usr/local/cuda/targets/x86_64-linux/lib/libnvrtc.so.13",
                                       "/usr/local/cuda/targets/x86_64-linux/lib/libnvrtc.so"};
#endif

static void rtc_load(void) {
  const char *first_error = NULL;
  char first[400] = "";
  for (size_t i = 0; i < sizeof rtc_libs / sizeof rtc_libs[0]; i++) {
    void *h = dlopen(rtc_libs[i], RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
      if (first_error == NULL) {
        const char *e = dlerror();
        snprintf(first, sizeof first, "%s", e ? e : "?");
        first_error = first;
      }
      continue;
    }
    const struct {
      const char *name;
      void **slot;
    } table[] = {
        {RTC "GetErrorString", (void **)&g_rtc.error_string},
        {RTC "CreateProgram", (void **)&g_rtc.create},
        {RTC "CompileProgram", (void **)&g_rtc.compile},
        {RTC "GetProgramLogSize", (void **)&g_rtc.log_size},
        {RTC "GetProgramLog", (void **)&g_rtc.log},
        {RTC_CODE "Size", (void **)&g_rtc.code_size},
        {RTC_CODE, (void **)&g_rtc.code},
#if !JSHMEM_IS_HIP
        {"nvrtcGetPTXSize", (void **)&g_rtc.ptx_size},
        {"nvrtcGetPTX", (void **)&g_rtc.ptx},
#endif
        {RTC "DestroyProgram", (void **)&g_rtc.destroy},
    };
    int ok = 1;
    for (size_t j = 0; j < sizeof table / sizeof table[0]; j++) {
      *table[j].slot = dlsym(h, table[j].name);
      if (*table[j].slot == NULL) ok = 0;
    }
    if (ok) return;
    memset(&g_rtc, 0, sizeof g_rtc);
    dlclose(h);
  }
  snprintf(g_rtc_error, sizeof g_rtc_error,
           "run-time compilation: no usable %s library (tried %s and more; first error: %s)", RTC, rtc_libs[0],
           first_error ? first_error : "the libraries found lack the " RTC " functions");
}

/* Architecture named by the caller's options, or NULL (accepts "--opt=arch" and "--opt arch"). */
static const char *rtc_arch_option(const char **options, int n_options) {
  static const char *const keys[] = {"--gpu-architecture", "-arch", "--offload-arch"};
  for (int i = 0; i < n_options; i++) {
    const char *o = options[i];
    if (o == NULL) continue;
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
      size_t kl = strlen(keys[k]);
      if (strncmp(o, keys[k], kl) != 0) continue;
      if (o[kl] == '=') return o + kl + 1;
      if (o[kl] == '\0' && i + 1 < n_options && options[i + 1] != NULL) return options[i + 1];
    }
  }
  return NULL;
}

/* Copies the program's log into a malloc'd string (NULL when empty). */
static char *rtc_take_log(void *prog) {
  size_t n = 0;
  if (g_rtc.log_size(prog, &n) != 0 || n <= 1) return NULL;
  char *s = (char *)malloc(n + 1);
  if (s == NULL) return NULL;
  if (g_rtc.log(prog, s) != 0) {
    free(s);
    return NULL;
  }
  s[n] = '\0';
  return s;
}

int jshmem_rt_rtc_compile(const char *source, const char *name, const char **options, int n_options, void **image,
                          size_t *image_size, char **log) {
  CHECK_ARG(source != NULL && image != NULL && image_size != NULL && log != NULL,
            "jshmem_rt_rtc_compile: source, image, image_size and log must not be NULL");
  CHECK_ARG(n_options >= 0 && (n_options == 0 || options != NULL), "jshmem_rt_rtc_compile: bad options (%d)",
            n_options);
  *image = NULL;
  *image_size = 0;
  *log = NULL;
  if (name == NULL) name = "jshmem_rtc.cu";
  pthread_once(&g_rtc_once, rtc_load);
  if (g_rtc_error[0] != '\0') return jshmem_rt_fail("%s", g_rtc_error);

  /* The target: the caller's (then no GPU is needed: compile checks work anywhere), or the
   * current device's. */
  char arch_opt[300] = "";
  const char *arch = rtc_arch_option(options, n_options);
  int want_ptx = !JSHMEM_IS_HIP && arch != NULL && strncmp(arch, "compute_", 8) == 0; /* PTX: CUDA only */
  if (arch == NULL) {
    int dev = 0;
    BIND_DEVICE();
    GPU_TRY(gpuGetDevice(&dev));
#if JSHMEM_IS_HIP
    hipDeviceProp_t p;
    GPU_TRY(hipGetDeviceProperties(&p, dev));
    snprintf(arch_opt, sizeof arch_opt, "--gpu-architecture=%s", p.gcnArchName);
#else
    int major = 0, minor = 0;
    GPU_TRY(gpuDeviceGetAttribute(&major, gpuDevAttrComputeCapabilityMajor, dev));
    GPU_TRY(gpuDeviceGetAttribute(&minor, gpuDevAttrComputeCapabilityMinor, dev));
    snprintf(arch_opt, sizeof arch_opt, "--gpu-architecture=sm_%d%d", major, minor);
#endif
  }
  const char **opts = (const char **)malloc(sizeof(char *) * (size_t)(n_options + 1));
  CHECK_ARG(opts != NULL, "jshmem_rt_rtc_compile: out of host memory");
  int n = 0;
  for (int i = 0; i < n_options; i++) opts[n++] = options[i];
  if (arch_opt[0] != '\0') opts[n++] = arch_opt;

  void *prog = NULL;
  int r = g_rtc.create(&prog, source, name, 0, NULL, NULL);
  if (r != 0) {
    free(opts);
    return jshmem_rt_fail(RTC "CreateProgram(%s): %s", name, g_rtc.error_string(r));
  }
  r = g_rtc.compile(prog, n, opts);
  free(opts);
  *log = rtc_take_log(prog);
  if (r != 0) {
    g_rtc.destroy(&prog);
    return jshmem_rt_fail(RTC "CompileProgram(%s, %s): %s; log:\n%.1500s", name,
                          arch_opt[0] ? arch_opt : arch, g_rtc.error_string(r), *log ? *log : "(empty)");
  }
  size_t size = 0;
  const char *step = want_ptx ? RTC "GetPTXSize" : RTC_CODE "Size";
  r = want_ptx ? g_rtc.ptx_size(prog, &size) : g_rtc.code_size(prog, &size);
  char *code = NULL;
  if (r == 0) {
    code = (char *)malloc(size > 0 ? size : 1);
    if (code == NULL) {
      g_rtc.destroy(&prog);
      return jshmem_rt_fail("jshmem_rt_rtc_compile: out of host memory for a %zu-byte image", size);
    }
    step = want_ptx ? RTC "GetPTX" : RTC_CODE;
    r = want_ptx ? g_rtc.ptx(prog, code) : g_rtc.code(prog, code);
  }
  g_rtc.destroy(&prog);
  if (r != 0) {
    free(code);
    return jshmem_rt_fail("%s(%s): %s", step, name, g_rtc.error_string(r));
  }
  *image = code;
  *image_size = size;
  return 0;
}

void jshmem_rt_free_buffer(void *buffer) { free(buffer); }

} /* extern "C" */
