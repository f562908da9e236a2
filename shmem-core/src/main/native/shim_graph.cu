/*
 * shim_graph.cu - CUDA / HIP graphs made by stream capture: the stream's queued work is recorded
 * instead of run, then instantiated once and replayed with one launch each time.
 */
#include "shim.h"
#include "shim_internal.h"

int jshmem_rt_stream_begin_capture(void *stream) {
  CHECK_ARG(stream != NULL, "jshmem_rt_stream_begin_capture: the legacy default stream cannot be captured");
  BIND_DEVICE();
  /* thread-local: a call on this thread that could synchronise with the captured work (a blocking copy,
   * an allocation) fails at once instead of being silently left out of the graph; other threads are free */
  GPU_TRY(gpuStreamBeginCapture((gpuStream_t)stream, gpuStreamCaptureModeThreadLocal));
  return 0;
}

int jshmem_rt_stream_end_capture(void *stream, void **graph_exec, size_t *nodes) {
  CHECK_ARG(graph_exec != NULL && nodes != NULL, "jshmem_rt_stream_end_capture: an output is NULL");
  BIND_DEVICE();
  gpuGraph_t graph = NULL;
  GPU_TRY(gpuStreamEndCapture((gpuStream_t)stream, &graph));
  size_t n = 0;
  gpuError_t e = gpuGraphGetNodes(graph, NULL, &n);
  gpuGraphExec_t exec = NULL;
  if (e == gpuSuccess) e = gpuGraphInstantiate(&exec, graph);
  (void)gpuGraphDestroy(graph); /* the executable graph keeps what it needs */
  if (e != gpuSuccess) return jshmem_rt_fail_gpu("gpuGraphInstantiate", e);
  *graph_exec = (void *)exec;
  *nodes = n;
  return 0;
}

int jshmem_rt_stream_capturing(void *stream, int *capturing) {
  CHECK_ARG(capturing != NULL, "jshmem_rt_stream_capturing: capturing is NULL");
  BIND_DEVICE();
  gpuStreamCaptureStatus status;
  GPU_TRY(gpuStreamIsCapturing((gpuStream_t)stream, &status));
  *capturing = status == gpuStreamCaptureStatusActive;
  return 0;
}

int jshmem_rt_graph_launch(void *graph_exec, void *stream) {
  CHECK_ARG(graph_exec != NULL, "jshmem_rt_graph_launch: graph is NULL");
  BIND_DEVICE();
  GPU_TRY(gpuGraphLaunch((gpuGraphExec_t)graph_exec, (gpuStream_t)stream));
  return 0;
}

int jshmem_rt_graph_destroy(void *graph_exec) {
  CHECK_ARG(graph_exec != NULL, "jshmem_rt_graph_destroy: graph is NULL");
  BIND_DEVICE();
  GPU_TRY(gpuGraphExecDestroy((gpuGraphExec_t)graph_exec));
  return 0;
}
