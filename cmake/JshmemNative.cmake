# JshmemNative.cmake - what every native part's build shares: finds nvcc and hipcc, declares
# JSHMEM_WITH_CUDA / JSHMEM_WITH_HIP, enables CUDA (sm_90 + PTX, static cudart), and defines
#   jshmem_cuda_strict(<target>)            warnings as errors for nvcc and its host compiler
#   jshmem_add_hip_library(<target> OUTPUT_NAME <name> SOURCES ... [INCLUDE_DIRS ...]
#                          [VERSION_SCRIPT <file>])
# The HIP side uses custom commands calling hipcc directly: Debian's HIP 5.2 has no complete
# CMake HIP-language support, and `-x hip` lets the .cu sources stay shared with CUDA.
include_guard(GLOBAL)

if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE Release CACHE STRING "Build type" FORCE)
endif()

find_program(JSHMEM_NVCC nvcc HINTS ENV CUDA_HOME PATHS /usr/local/cuda PATH_SUFFIXES bin)
find_program(JSHMEM_HIPCC hipcc HINTS ENV ROCM_PATH PATHS /opt/rocm PATH_SUFFIXES bin)
if(JSHMEM_NVCC OR CMAKE_CUDA_COMPILER)
  set(_jshmem_cuda_default ON)
else()
  set(_jshmem_cuda_default OFF)
endif()
if(JSHMEM_HIPCC)
  set(_jshmem_hip_default ON)
else()
  set(_jshmem_hip_default OFF)
endif()
option(JSHMEM_WITH_CUDA "Build the CUDA libraries (needs nvcc)" ${_jshmem_cuda_default})
option(JSHMEM_WITH_HIP "Build the HIP libraries (needs hipcc)" ${_jshmem_hip_default})
set(JSHMEM_HIP_ARCH "gfx90a" CACHE STRING "AMD GPU target(s) for hipcc --offload-arch (comma-separated)")
# -O0 where the HIP libraries are compile-checked only (the test command): the same front end, warnings
# and gfx90a code generation in seconds, where -O3 spends minutes inlining coll_kernels.cu's reductions.
set(JSHMEM_HIP_OPT "-O3" CACHE STRING "hipcc optimisation level for the HIP libraries")

# gpu.h: one name for each CUDA / HIP runtime call, shared by the shim and finegrained-alloc.
set(JSHMEM_GPU_INCLUDE_DIR "${CMAKE_CURRENT_LIST_DIR}/../native/include")

# Where the Java build picks the libraries up (then packs them into jars).
set(JSHMEM_NATIVE_OUT "${CMAKE_BINARY_DIR}/native/linux-x86_64")
file(MAKE_DIRECTORY "${JSHMEM_NATIVE_OUT}")

find_package(Threads REQUIRED)

if(JSHMEM_WITH_CUDA)
  if(NOT CMAKE_CUDA_COMPILER)
    set(CMAKE_CUDA_COMPILER "${JSHMEM_NVCC}")
  endif()
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES "90-real;90-virtual") # H100/H200 code + PTX for newer GPUs
  endif()
  # Static cudart: the libraries need no libcudart.so (nor LD_LIBRARY_PATH) on the target.
  set(CMAKE_CUDA_RUNTIME_LIBRARY Static)
  enable_language(CUDA)
endif()

function(jshmem_cuda_strict target)
  target_compile_options(${target} PRIVATE -Xcompiler=-Wall,-Wextra,-Werror --Werror=all-warnings)
  set_target_properties(${target} PROPERTIES CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON
                                             POSITION_INDEPENDENT_CODE ON)
endfunction()

function(jshmem_add_hip_library target)
  cmake_parse_arguments(A "" "OUTPUT_NAME;VERSION_SCRIPT" "SOURCES;INCLUDE_DIRS" ${ARGN})
  set(flags -x hip --offload-arch=${JSHMEM_HIP_ARCH} -std=c++17 ${JSHMEM_HIP_OPT} -fPIC -Wall -Wextra -Werror)
  foreach(d IN LISTS A_INCLUDE_DIRS)
    list(APPEND flags "-I${d}")
  endforeach()
  # one object folder per level: changing it rebuilds (the Makefile generator does not track flags)
  set(objdir "${CMAKE_CURRENT_BINARY_DIR}/${target}${JSHMEM_HIP_OPT}.dir")
  # hipcc (clang's offload driver) leaves an empty directory in TMPDIR per compile: keep them in the build tree
  set(tmp "${objdir}/tmp")
  file(MAKE_DIRECTORY "${objdir}" "${tmp}")
  set(objs "")
  foreach(src IN LISTS A_SOURCES)
    get_filename_component(stem "${src}" NAME_WE)
    set(obj "${objdir}/${stem}.o")
    add_custom_command(
      OUTPUT "${obj}"
      COMMAND ${CMAKE_COMMAND} -E env HIP_PLATFORM=amd "TMPDIR=${tmp}" "${JSHMEM_HIPCC}" ${flags} -MD -MF "${obj}.d"
              -c "${src}" -o "${obj}"
      DEPENDS "${src}"
      DEPFILE "${obj}.d"
      COMMENT "hipcc ${stem}.cu for ${JSHMEM_HIP_ARCH}"
      VERBATIM)
    list(APPEND objs "${obj}")
  endforeach()
  set(lib "${JSHMEM_NATIVE_OUT}/lib${A_OUTPUT_NAME}.so")
  set(link_flags -shared --offload-arch=${JSHMEM_HIP_ARCH} -fPIC -Wl,--no-undefined)
  set(link_deps ${objs})
  if(A_VERSION_SCRIPT)
    list(APPEND link_flags "-Wl,--version-script=${A_VERSION_SCRIPT}")
    list(APPEND link_deps "${A_VERSION_SCRIPT}")
  endif()
  add_custom_command(
    OUTPUT "${lib}"
    COMMAND ${CMAKE_COMMAND} -E env HIP_PLATFORM=amd "TMPDIR=${tmp}" "${JSHMEM_HIPCC}" ${link_flags} -o "${lib}" ${objs}
            -ldl -lpthread
    DEPENDS ${link_deps}
    COMMENT "hipcc: linking lib${A_OUTPUT_NAME}.so"
    VERBATIM)
  add_custom_target(${target} ALL DEPENDS "${lib}")
  set_target_properties(${target} PROPERTIES JSHMEM_LIBRARY "${lib}")
endfunction()
