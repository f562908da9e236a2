/*
 * gpu.h - one name for each CUDA / HIP runtime call, so that the shim and its kernels are a
 * single source built by nvcc (CUDA) and by hipcc (HIP). Add a name here when the shim needs it.
 */
#ifndef JSHMEM_GPU_H
#define JSHMEM_GPU_H

#if defined(__HIP_PLATFORM_AMD__) || defined(__HIPCC__) || defined(JSHMEM_HIP)
#include <hip/hip_runtime.h>
#define JSHMEM_PLATFORM "hip"
typedef hipError_t gpuError_t;
typedef hipStream_t gpuStream_t;
typedef hipEvent_t gpuEvent_t;
#define gpuSuccess hipSuccess
#define gpuGetErrorString hipGetErrorString
#define gpuGetErrorName hipGetErrorName
#define gpuGetLastError hipGetLastError
#define gpuPeekAtLastError hipPeekAtLastError
#else
#include <cuda_runtime.h>
#define JSHMEM_PLATFORM "cuda"
typedef cudaError_t gpuError_t;
typedef cudaStream_t gpuStream_t;
typedef cudaEvent_t gpuEvent_t;
#define gpuSuccess cudaSuccess
#define gpuGetErrorString cudaGetErrorString
#define gpuGetErrorName cudaGetErrorName
#define gpuGetLastError cudaGetLastError
#define gpuPeekAtLastError cudaPeekAtLastError
#endif

#endif /* JSHMEM_GPU_H */
