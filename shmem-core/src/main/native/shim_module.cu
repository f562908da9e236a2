/*
 * shim_module.cu - modules and launches behind shim.h: loading code images, looking up kernels
 * and globals, launching, and the dynamic shared memory opt-in; CUDA through the driver API
 * (shim_driver.h), HIP through its module API. One source for nvcc and hipcc.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_launch.h"
#include "shim.h"
#include "shim_driver.h"
#include "shim_internal.h"

extern "C" {

/* ------------------------------------------------------------------------------------------
 * Modules
 * ------------------------------------------------------------------------------------------ */
int jshmem_rt_module_load(const void *image, void **module) {
  CHECK_ARG(image != NULL && module != NULL, "jshmem_rt_module_load: image and module must not be NULL");
  *module = NULL;
  BIND_DEVICE();
#if JSHMEM_IS_HIP
  hipModule_t m = NULL;
  GPU_TRY(hipModuleLoadData(&m, image));
  *module = (void *)m;
#else
  if (jshmem_drv() != 0) return -1;
  CUmodule m = NULL;
  CU_TRY("cuModuleLoadData", jshmem_g_drv.moduleLoadData(&m, image));
  *module = (void *)m;
#endif
  return 0;
}

int jshmem_rt_module_unload(void *module) {
  CHECK_ARG(module != NULL, "jshmem_rt_module_unload: module is NULL");
  BIND_DEVICE();
#if JSHMEM_IS_HIP
  GPU_TRY(hipModuleUnload((hipModule_t)module));
#else
  if (jshmem_drv() != 0) return -1;
  CU_TRY("cuModuleUnload", jshmem_g_drv.moduleUnload((CUmodule)module));
#endif
  return 0;
}

int jshmem_rt_module_function(void *module, const char *name, void **fn) {
  CHECK_ARG(module != NULL && name != NULL && fn != NULL,
            "jshmem_rt_module_function: module, name and fn must not be NULL");
  *fn = NULL;
  BIND_DEVICE();
#if JSHMEM_IS_HIP
  hipFunction_t f = NULL;
  gpuError_t e = hipModuleGetFunction(&f, (hipModule_t)module, name);
  if (e != hipSuccess)
    return jshmem_rt_fail("hipModuleGetFunction(\"%s\"): %s (%s) (is the kernel extern \"C\"?)", name,
                          hipGetErrorString(e), hipGetErrorName(e));
  *fn = (void *)f;
#else
  if (jshmem_drv() != 0) return -1;
  CUfunction f = NULL;
  CUresult r = jshmem_g_drv.moduleGetFunction(&f, (CUmodule)module, name);
  if (r != CUDA_SUCCESS) {
    char what[300];
    snprintf(what, sizeof what, "cuModuleGetFunction(\"%.200s\") (is the kernel extern \"C\"?)", name);
    return jshmem_drv_fail(what, r);
  }
  *fn = (void *)f;
#endif
  return 0;
}

int jshmem_rt_module_global(void *module, const char *name, void **ptr, size_t *bytes) {
  CHECK_ARG(module != NULL && name != NULL && ptr != NULL,
            "jshmem_rt_module_global: module, name and ptr must not be NULL");
  *ptr = NULL;
  size_t size = 0;
  BIND_DEVICE();
#if JSHMEM_IS_HIP
  hipDeviceptr_t d = NULL;
  gpuError_t e = hipModuleGetGlobal(&d, &size, (hipModule_t)module, name);
  if (e != hipSuccess)
    return jshmem_rt_fail("hipModuleGetGlobal(\"%s\"): %s (%s)", name, hipGetErrorString(e), hipGetErrorName(e));
  *ptr = (void *)d;
#else
  if (jshmem_drv() != 0) return -1;
  CUdeviceptr d = 0;
  CUresult r = jshmem_g_drv.moduleGetGlobal(&d, &size, (CUmodule)module, name);
  if (r != CUDA_SUCCESS) {
    char what[300];
    snprintf(what, sizeof what, "cuModuleGetGlobal(\"%.200s\")", name);
    return jshmem_drv_fail(what, r);
  }
  *ptr = (void *)(uintptr_t)d;
#endif
  if (bytes != NULL) *bytes = size;
  return 0;
}

int jshmem_rt_launch(void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                     unsigned shared_bytes, void *stream, void **args, int mode) {
  CHECK_ARG(fn != NULL, "jshmem_rt_launch: fn is NULL");
  CHECK_ARG(mode == JSHMEM_LAUNCH_PLAIN || mode == JSHMEM_LAUNCH_COOPERATIVE || mode == JSHMEM_LAUNCH_CHAINED,
            "jshmem_rt_launch: mode %d is none of JSHMEM_LAUNCH_PLAIN (0), _COOPERATIVE (1), _CHAINED (2)", mode);
  BIND_DEVICE();
#if JSHMEM_IS_HIP
  /* No module-level cooperative launch in every ROCm: the caller's occupancy check is what holds; no chaining. */
  GPU_TRY(hipModuleLaunchKernel((hipFunction_t)fn, gx, gy, gz, bx, by, bz, shared_bytes, (hipStream_t)stream, args,
                                NULL));
#else
  if (jshmem_drv() != 0) return -1;
  if (mode == JSHMEM_LAUNCH_CHAINED && !jshmemk_chaining_on()) mode = JSHMEM_LAUNCH_PLAIN;
  CUresult r;
  const char *call;
  if (mode == JSHMEM_LAUNCH_COOPERATIVE) {
    call = "cuLaunchCooperativeKernel";
    r = jshmem_g_drv.launchCooperativeKernel((CUfunction)fn, gx, gy, gz, bx, by, bz, shared_bytes, (CUstream)stream,
                                             args);
  } else {
    bool chained = mode == JSHMEM_LAUNCH_CHAINED;
    call = chained ? "cuLaunchKernelEx(programmatic stream serialization)" : "cuLaunchKernel";
    r = jshmemk_cu_launch((CUfunction)fn, gx, gy, gz, bx, by, bz, shared_bytes, (CUstream)stream, args, chained);
  }
  if (r != CUDA_SUCCESS) {
    char what[200];
    snprintf(what, sizeof what, "%s(grid %ux%ux%u, block %ux%ux%u, %u bytes shared)", call, gx, gy, gz, bx, by, bz,
             shared_bytes);
    return jshmem_drv_fail(what, r);
  }
#endif
  return 0;
}

int jshmem_rt_func_max_blocks_per_sm(void *fn, int block_threads, unsigned shared_bytes, int *blocks) {
  CHECK_ARG(fn != NULL && blocks != NULL && block_threads > 0,
            "jshmem_rt_func_max_blocks_per_sm: fn or blocks is NULL, or block_threads (%d) < 1", block_threads);
  BIND_DEVICE();
#if JSHMEM_IS_HIP
  GPU_TRY(hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(blocks, (hipFunction_t)fn, block_threads, shared_bytes));
#else
  if (jshmem_drv() != 0) return -1;
  CU_TRY("cuOccupancyMaxActiveBlocksPerMultiprocessor",
         jshmem_g_drv.occupancyMaxActiveBlocksPerMultiprocessor(blocks, (CUfunction)fn, block_threads, shared_bytes));
#endif
  return 0;
}

int jshmem_rt_func_max_active_clusters(void *fn, int cluster, int block_threads, unsigned shared_bytes, int *clusters) {
  CHECK_ARG(fn != NULL && clusters != NULL && block_threads > 0 && cluster > 0,
            "jshmem_rt_func_max_active_clusters: fn or clusters is NULL, or block_threads (%d) or cluster (%d) < 1",
            block_threads, cluster);
  BIND_DEVICE();
#if JSHMEM_IS_HIP
  (void)shared_bytes;
  return jshmem_rt_fail("jshmem_rt_func_max_active_clusters: thread block clusters are a CUDA (sm_90) feature");
#else
  if (jshmem_drv() != 0) return -1;
  CUlaunchAttribute dims;
  memset(&dims, 0, sizeof dims);
  dims.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  dims.value.clusterDim.x = (unsigned)cluster;
  dims.value.clusterDim.y = 1;
  dims.value.clusterDim.z = 1;
  CUlaunchConfig config;
  memset(&config, 0, sizeof config);
  config.gridDimX = (unsigned)cluster; /* a multiple of the cluster; the answer does not depend on it */
  config.gridDimY = config.gridDimZ = 1;
  config.blockDimX = (unsigned)block_threads;
  config.blockDimY = config.blockDimZ = 1;
  config.sharedMemBytes = shared_bytes;
  config.attrs = &dims;
  config.numAttrs = 1;
  CU_TRY("cuOccupancyMaxActiveClusters", jshmem_g_drv.occupancyMaxActiveClusters(clusters, (CUfunction)fn, &config));
  return 0;
#endif
}

int jshmem_rt_func_set_max_dynamic_shared(void *fn, int bytes) {
  CHECK_ARG(fn != NULL && bytes >= 0, "jshmem_rt_func_set_max_dynamic_shared: fn is NULL or bytes (%d) < 0", bytes);
  BIND_DEVICE();
#if JSHMEM_IS_HIP
  /* AMD needs no opt-in: check the request against the block limit so that the error comes now. */
  int dev = 0, max = 0;
  GPU_TRY(hipGetDevice(&dev));
  GPU_TRY(hipDeviceGetAttribute(&max, hipDeviceAttributeMaxSharedMemoryPerBlock, dev));
  CHECK_ARG(bytes <= max, "jshmem_rt_func_set_max_dynamic_shared: %d bytes asked, device %d allows %d per block",
            bytes, dev, max);
#else
  if (jshmem_drv() != 0) return -1;
  CU_TRY("cuFuncSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)",
         jshmem_g_drv.funcSetAttribute((CUfunction)fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes));
#endif
  return 0;
}

} /* extern "C" */
