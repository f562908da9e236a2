/* shim_error.cu - the thread-local last-error message of the shim (see shim_error.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "shim_error.h"

/* Per OS thread: Java reads it right after the failing call, on the same carrier thread. */
static thread_local char t_message[2048];

extern "C" int jshmem_rt_fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(t_message, sizeof t_message, fmt, ap);
  va_end(ap);
  return -1;
}

extern "C" const char *jshmem_rt_last_error(void) { return t_message; }

/* Why a call failed because a stream of this thread is being captured, or "". */
static const char *capture_hint(gpuError_t err) {
  if (err == gpuErrorStreamCaptureUnsupported || err == gpuErrorStreamCaptureImplicit)
    return "; a stream capture is under way on this thread and this call cannot be part of a graph:"
           " make it before beginCapture or after endCapture";
  if (err == gpuErrorStreamCaptureInvalidated)
    return "; an earlier call broke this stream capture: end it and capture again without that call";
  if (err == gpuErrorStreamCaptureWrongThread)
    return "; end a capture on the thread that began it";
  return "";
}

int jshmem_rt_fail_gpu(const char *call_text, gpuError_t err) {
  int n = (int)strcspn(call_text, "( ");
  return jshmem_rt_fail("%.*s: %s (%s)%s", n, call_text, gpuGetErrorString(err), gpuGetErrorName(err),
                        capture_hint(err));
}
