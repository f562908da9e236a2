/* shim_driver.h - the CUDA driver API as the shim reaches it: through the runtime's entry-point
 * query (cudaGetDriverEntryPointByVersion), so that no libcuda.so is needed at link time. Loaded
 * once by jshmem_drv() (shim_runtime.cu); used by the copies and stream memory operations, by the
 * runtime's own launches (kernel_launch.h) and by modules and launches (shim_module.cu). Nothing
 * here on HIP, whose runtime has these calls itself. */
#ifndef JSHMEM_SHIM_DRIVER_H
#define JSHMEM_SHIM_DRIVER_H

#include "gpu.h"

#if !JSHMEM_IS_HIP
#include <cuda.h>
#include <cudaTypedefs.h>

/* The entry points, typed by the newest PFN_*_vNNNN at or before the ABI asked for (12.0). */
struct jshmem_driver_api {
  PFN_cuGetErrorString_v6000 getErrorString;
  PFN_cuGetErrorName_v6000 getErrorName;
  PFN_cuModuleLoadData_v2000 moduleLoadData;
  PFN_cuModuleUnload_v2000 moduleUnload;
  PFN_cuModuleGetFunction_v2000 moduleGetFunction;
  PFN_cuModuleGetGlobal_v3020 moduleGetGlobal;
  PFN_cuLaunchKernel_v4000 launchKernel;
  PFN_cuLaunchCooperativeKernel_v9000 launchCooperativeKernel;
  PFN_cuLaunchKernelEx_v11060 launchKernelEx;
  PFN_cuOccupancyMaxActiveBlocksPerMultiprocessor_v6050 occupancyMaxActiveBlocksPerMultiprocessor;
  PFN_cuOccupancyMaxActiveClusters_v11070 occupancyMaxActiveClusters;
  PFN_cuFuncSetAttribute_v9000 funcSetAttribute;
  PFN_cuStreamWaitValue64_v11070 streamWaitValue64;
  PFN_cuStreamWriteValue32_v11070 streamWriteValue32;
  PFN_cuStreamWriteValue64_v11070 streamWriteValue64;
  PFN_cuMemcpyAsync_v4000 memcpyAsync;
};
/* Hidden: exports.map passes every jshmem_* name, and this one is internal. */
extern struct jshmem_driver_api jshmem_g_drv __attribute__((visibility("hidden")));

/* Loads the driver entry points once; 0 or -1 with the reason. */
int jshmem_drv(void);

/* Leaves "<what>: <error string> (<error name>)" for a failed driver call; returns -1. */
int jshmem_drv_fail(const char *what, CUresult r);
#define CU_TRY(what, call)                                                                   \
  do {                                                                                       \
    CUresult jshmem_r_ = (call);                                                             \
    if (jshmem_r_ != CUDA_SUCCESS) return jshmem_drv_fail(what, jshmem_r_);                  \
  } while (0)
#endif /* !JSHMEM_IS_HIP */

#endif /* JSHMEM_SHIM_DRIVER_H */
