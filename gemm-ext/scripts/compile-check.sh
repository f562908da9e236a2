#!/usr/bin/env bash
# Compile check of gemm-ext's kernels (no GPU needed): every portable variant and dtype (two with B
# stored n x k), the utility kernels, with nvcc (sm_90, sm_80) and, when installed, hipcc (gfx90a), warnings as
# errors; the Hopper kernel (when present) for sm_90a. Prints "N passed, N failed".
set -u
root="$(cd "$(dirname "$0")/../.." && pwd)"
inc="$root/shmem-device/include"
k="$root/gemm-ext/src/main/resources/org/jshmem/gemm/kernels"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
export TMPDIR="$out"   # hipcc leaves a directory in TMPDIR per compile
nvcc="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
passed=0
failed=0
check() { # name, command...
  local name="$1"; shift
  if "$@" > "$out/log" 2>&1; then
    passed=$((passed + 1)); echo "ok     $name"
  else
    failed=$((failed + 1)); echo "FAILED $name"; grep -v -i "rocm_agent\|kfd" "$out/log" | head -30
  fi
}
variants=("128 256 64 4" "256 128 64 3" "128 256 32 4" "128 128 64 3" "128 128 32 4")
hipfunc=""
command -v hipcc > /dev/null && [ -e "$(dirname "$(command -v hipcc)")/hipcc.pl" ] && hipfunc="--hipcc-func-supp"
for dt in 0 1; do
  for v in "${variants[@]}"; do
    set -- $v
    defs=(-DJGEMM_DTYPE=$dt -DJGEMM_BM=$1 -DJGEMM_BN=$2 -DJGEMM_BK=$3 -DJGEMM_STAGES=$4)
    if [ -x "$nvcc" ]; then
      for arch in sm_90 sm_80; do
        check "nvcc $arch portable $1x$2x$3 s$4 dtype $dt" "$nvcc" -std=c++17 -arch=$arch -I "$inc" -I "$k" "${defs[@]}" \
          -c "$k/jgemm_portable.cu" -o "$out/k.o" -Werror all-warnings -Xcompiler -Wall,-Wextra
      done
    fi
    if command -v hipcc > /dev/null; then
      check "hipcc gfx90a portable $1x$2x$3 s$4 dtype $dt" env HIP_PLATFORM=amd hipcc $hipfunc -x hip \
        --offload-arch=gfx90a -std=c++17 -I "$inc" -I "$k" "${defs[@]}" -c "$k/jgemm_portable.cu" -o "$out/k.o" \
        -Wall -Wextra -Werror
    fi
  done
  for v in "128 256 64 4" "128 128 32 4"; do   # B stored n x k (BLayout.N_BY_K): both K-steps
    set -- $v
    defs=(-DJGEMM_DTYPE=$dt -DJGEMM_BM=$1 -DJGEMM_BN=$2 -DJGEMM_BK=$3 -DJGEMM_STAGES=$4 -DJGEMM_B_NK=1)
    [ -x "$nvcc" ] && check "nvcc sm_80 portable $1x$2x$3 s$4 dtype $dt B n x k" "$nvcc" -std=c++17 -arch=sm_80 -I "$inc" \
      -I "$k" "${defs[@]}" -c "$k/jgemm_portable.cu" -o "$out/k.o" -Werror all-warnings -Xcompiler -Wall,-Wextra
    command -v hipcc > /dev/null && check "hipcc gfx90a portable $1x$2x$3 s$4 dtype $dt B n x k" env HIP_PLATFORM=amd \
      hipcc $hipfunc -x hip --offload-arch=gfx90a -std=c++17 -I "$inc" -I "$k" "${defs[@]}" -c "$k/jgemm_portable.cu" \
      -o "$out/k.o" -Wall -Wextra -Werror
  done
  [ -x "$nvcc" ] && check "nvcc util dtype $dt" "$nvcc" -std=c++17 -arch=sm_90 -I "$inc" -I "$k" -DJGEMM_DTYPE=$dt \
    -c "$k/jgemm_util.cu" -o "$out/k.o" -Werror all-warnings -Xcompiler -Wall,-Wextra
  command -v hipcc > /dev/null && check "hipcc util dtype $dt" env HIP_PLATFORM=amd hipcc $hipfunc -x hip \
    --offload-arch=gfx90a -std=c++17 -I "$inc" -I "$k" -DJGEMM_DTYPE=$dt -c "$k/jgemm_util.cu" -o "$out/k.o" \
    -Wall -Wextra -Werror
  if [ -f "$k/jgemm_sm90.cu" ] && [ -x "$nvcc" ]; then
    for v in "256 3" "128 4" "192 4"; do   # GpuKernels' Hopper variants: BN, stages; alone and in clusters of 2
      set -- $v
      for cl in 1 2; do
        check "nvcc sm_90a hopper 128x$1x64 s$2 cluster $cl dtype $dt" "$nvcc" -std=c++17 \
          -gencode=arch=compute_90a,code=sm_90a -I "$inc" -I "$k" -DJGEMM_DTYPE=$dt -DJGEMM_BM=128 -DJGEMM_BN=$1 \
          -DJGEMM_BK=64 -DJGEMM_STAGES=$2 -DJGEMM_CLUSTER=$cl -c "$k/jgemm_sm90.cu" -o "$out/k.o" -Werror all-warnings \
          -Xcompiler -Wall,-Wextra
      done
      check "nvcc sm_90a hopper 128x$1x64 s$2 dtype $dt B n x k" "$nvcc" -std=c++17 \
        -gencode=arch=compute_90a,code=sm_90a -I "$inc" -I "$k" -DJGEMM_DTYPE=$dt -DJGEMM_BM=128 -DJGEMM_BN=$1 \
        -DJGEMM_BK=64 -DJGEMM_STAGES=$2 -DJGEMM_B_NK=1 -c "$k/jgemm_sm90.cu" -o "$out/k.o" -Werror all-warnings \
        -Xcompiler -Wall,-Wextra
    done
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
