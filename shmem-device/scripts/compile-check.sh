#!/usr/bin/env bash
# Compile check of the device library (no GPU needed): the test and benchmark kernels and the
# runtime kernels (kernels.cu, coll_kernels.cu), with nvcc (sm_90) and, when hipcc is installed, hipcc (gfx90a), warnings as
# errors. Run from anywhere; prints "N passed, N failed".
set -u
root="$(cd "$(dirname "$0")/../.." && pwd)"
inc="$root/shmem-device/include"
native="$root/shmem-core/src/main/native"
gpuinc="$root/native/include"   # gpu.h, shared with finegrained-alloc
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
export TMPDIR="$out"   # hipcc leaves a directory in TMPDIR per compile
nvcc="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
kernels=("$root/tests/src/test/resources/kernels/device_api_test.cu"
         "$root/tests/src/test/resources/kernels/device_proxy_test.cu"
         "$root/tests/src/main/resources/kernels/perf_kernels.cu")
passed=0
failed=0
check() { # name, command...
  local name="$1"; shift
  if "$@" > "$out/log" 2>&1; then
    passed=$((passed + 1)); echo "ok     $name"
  else
    failed=$((failed + 1)); echo "FAILED $name"; grep -v -i "rocm_agent\|kfd\|Traceback\|File \"" "$out/log" | head -40
  fi
}
if [ -x "$nvcc" ]; then
  for k in "${kernels[@]}"; do
    check "nvcc $(basename "$k")" "$nvcc" -arch=sm_90 -I "$inc" -c "$k" -o "$out/k.o" \
      -Werror all-warnings -Xcompiler -Wall,-Wextra
  done
  # jshmem's run-time compiles add -DJSHMEM_NO_PROXY in jobs on one node (DeviceModule.compileOptions)
  check "nvcc device_api_test.cu -DJSHMEM_NO_PROXY" "$nvcc" -arch=sm_90 -DJSHMEM_NO_PROXY -I "$inc" -c "${kernels[0]}" \
    -o "$out/k.o" -Werror all-warnings -Xcompiler -Wall,-Wextra
  for r in kernels.cu coll_kernels.cu; do   # as the library builds them: C++17 (cmake/JshmemNative.cmake)
    check "nvcc $r" "$nvcc" -arch=sm_90 -std=c++17 -Xcompiler -fPIC -I "$inc" -I "$native" -I "$gpuinc" \
      -c "$native/$r" -o "$out/kernels.o" -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror
  done
else
  echo "skip   nvcc not found"
fi
if command -v hipcc > /dev/null; then
  func=""
  [ -e "$(dirname "$(command -v hipcc)")/hipcc.pl" ] && func="--hipcc-func-supp"
  for k in "${kernels[@]}"; do
    check "hipcc $(basename "$k")" env HIP_PLATFORM=amd hipcc $func -x hip --offload-arch=gfx90a \
      -I "$inc" -c "$k" -o "$out/k.o" -Wall -Wextra -Werror
  done
  for r in kernels.cu coll_kernels.cu; do
    check "hipcc $r" env HIP_PLATFORM=amd hipcc $func -x hip --offload-arch=gfx90a -std=c++17 -fPIC \
      -I "$inc" -I "$native" -I "$gpuinc" -c "$native/$r" -o "$out/kernels.o" -Wall -Wextra -Werror
  done
else
  echo "skip   hipcc not found"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
