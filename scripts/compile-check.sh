#!/usr/bin/env bash
# Compile check of the kernels that the native build does not compile (no GPU needed), warnings as errors:
#   device  the device library through the test and benchmark kernels: nvcc (sm_90) and hipcc (gfx90a)
#   gemm    gemm-ext's run-time kernels: every portable variant and element type (two with B stored n x k)
#           for sm_90 and sm_80 and gfx90a, the utility kernels, the Hopper kernel's variants for sm_90a
#           (as jshmem compiles them without JSHMEM_WAIT_TIMEOUT; a compile without the wait report fails
#           if ptxas serialises its wgmma)
# The runtime's own kernels (kernels.cu, coll_kernels.cu) are compiled by the native build, as strictly.
# Runs the compiles in parallel (JOBS, default the core count); prints "N passed, N failed".
#   scripts/compile-check.sh [device|gemm]...      (default: both)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
inc="$root/shmem-device/include"
k="$root/gemm-ext/src/main/resources/org/jshmem/gemm/kernels"
nvcc="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
[ -x "$nvcc" ] || nvcc=
hipcc=$(command -v hipcc || true)
hipfunc=""
[ -n "$hipcc" ] && [ -e "$(dirname "$hipcc")/hipcc.pl" ] && hipfunc="--hipcc-func-supp"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export TMPDIR="$out"   # hipcc leaves a directory in TMPDIR per compile
nv_strict=(-Werror all-warnings -Xcompiler -Wall,-Wextra)
hip_strict=(-Wall -Wextra -Werror)
jobs=()   # "name<TAB>command", one compile each

# Device code only, as jshmem compiles these sources at run time (NVRTC, hiprtc): nvcc --fatbin (every
# -gencode, no host pass), hipcc --offload-device-only; a fifth less CPU per check than a host object.
nv() { # name, nvcc arguments and the source...
  local name=$1; shift
  [ -n "$nvcc" ] && jobs+=("nvcc $name"$'\t'"$(printf '%q ' "$nvcc" --fatbin "$@" "${nv_strict[@]}" -o @OBJ@)")
}
hip() { # name, hipcc arguments and the source...
  local name=$1; shift
  [ -n "$hipcc" ] && jobs+=("hipcc $name"$'\t'"$(printf '%q ' env HIP_PLATFORM=amd "$hipcc" $hipfunc -x hip \
    --offload-arch=gfx90a -c --offload-device-only "$@" "${hip_strict[@]}" -o @OBJ@)")
}

device_jobs() {
  local kernels=("$root/tests/integration/src/test/resources/kernels/device_api_test.cu"
                 "$root/tests/integration/src/test/resources/kernels/device_proxy_test.cu"
                 "$root/tests/bench/src/main/resources/kernels/perf_kernels.cu")
  # hipcc's optimiser spends over ten minutes on device_api_test.cu, which inlines every typed
  # variant of every call; -O0 checks the same source and its gfx90a code generation in seconds
  for f in "${kernels[@]}"; do
    nv "$(basename "$f")" -arch=sm_90 -I "$inc" "$f"
    hip "$(basename "$f") -O0" -O0 -I "$inc" "$f"
  done
  # jshmem's run-time compiles add -DJSHMEM_NO_PROXY in jobs on one node, -DJSHMEM_DEVICE_TRACE=1 in jobs
  # that trace, -DJSHMEM_NO_WAIT_REPORT without JSHMEM_WAIT_TIMEOUT (DeviceModule.compileOptions): one
  # compile with all three (a traced job on one node), the plain one above without any
  nv "device_api_test.cu -DJSHMEM_NO_PROXY -DJSHMEM_DEVICE_TRACE=1 -DJSHMEM_NO_WAIT_REPORT" -arch=sm_90 \
    -DJSHMEM_NO_PROXY -DJSHMEM_DEVICE_TRACE=1 -DJSHMEM_NO_WAIT_REPORT -I "$inc" "${kernels[0]}"
  hip "device_api_test.cu -DJSHMEM_DEVICE_TRACE=1 -O0" -O0 -DJSHMEM_DEVICE_TRACE=1 -I "$inc" "${kernels[0]}"
}

gemm_jobs() {
  local dt v defs
  for dt in 0 1; do
    for v in "128 256 64 4" "256 128 64 3" "128 256 32 4" "128 128 64 3" "128 128 32 4"; do
      set -- $v
      defs=(-std=c++17 -I "$inc" -I "$k" -DJGEMM_DTYPE=$dt -DJGEMM_BM=$1 -DJGEMM_BN=$2 -DJGEMM_BK=$3 -DJGEMM_STAGES=$4)
      nv "sm_90+sm_80 portable $1x$2x$3 s$4 dtype $dt" "${defs[@]}" -gencode=arch=compute_90,code=sm_90 \
        -gencode=arch=compute_80,code=sm_80 "$k/jgemm_portable.cu"
      hip "portable $1x$2x$3 s$4 dtype $dt" "${defs[@]}" "$k/jgemm_portable.cu"
    done
    for v in "128 256 64 4" "128 128 32 4"; do   # B stored n x k (BLayout.N_BY_K): both K-steps
      set -- $v
      defs=(-std=c++17 -I "$inc" -I "$k" -DJGEMM_DTYPE=$dt -DJGEMM_BM=$1 -DJGEMM_BN=$2 -DJGEMM_BK=$3 -DJGEMM_STAGES=$4
            -DJGEMM_B_NK=1)
      nv "sm_80 portable $1x$2x$3 s$4 dtype $dt B n x k" "${defs[@]}" -arch=sm_80 "$k/jgemm_portable.cu"
      hip "portable $1x$2x$3 s$4 dtype $dt B n x k" "${defs[@]}" "$k/jgemm_portable.cu"
    done
    nv "util dtype $dt" -std=c++17 -arch=sm_90 -I "$inc" -I "$k" -DJGEMM_DTYPE=$dt "$k/jgemm_util.cu"
    hip "util dtype $dt" -std=c++17 -I "$inc" -I "$k" -DJGEMM_DTYPE=$dt "$k/jgemm_util.cu"
    for v in "256 3" "128 4" "192 4"; do   # GpuKernels' Hopper variants: BN, stages; alone, in clusters of 2, B n x k
      set -- $v
      defs=(-std=c++17 -gencode=arch=compute_90a,code=sm_90a -I "$inc" -I "$k" -DJGEMM_DTYPE=$dt -DJGEMM_BM=128
            -DJGEMM_BN=$1 -DJGEMM_BK=64 -DJGEMM_STAGES=$2 -DJSHMEM_NO_WAIT_REPORT)
      nv "sm_90a hopper 128x$1x64 s$2 dtype $dt" "${defs[@]}" -DJGEMM_CLUSTER=1 "$k/jgemm_sm90.cu"
      nv "sm_90a hopper 128x$1x64 s$2 cluster 2 dtype $dt" "${defs[@]}" -DJGEMM_CLUSTER=2 "$k/jgemm_sm90.cu"
      nv "sm_90a hopper 128x$1x64 s$2 dtype $dt B n x k" "${defs[@]}" -DJGEMM_B_NK=1 "$k/jgemm_sm90.cu"
    done
  done
  # a job that traces compiles the tiles' spans in (DeviceModule.compileOptions)
  defs=(-std=c++17 -I "$inc" -I "$k" -DJGEMM_DTYPE=1 -DJGEMM_BM=128 -DJGEMM_BK=64 -DJSHMEM_DEVICE_TRACE=1)
  nv "sm_90a hopper 128x256x64 s3 traced" "${defs[@]}" -gencode=arch=compute_90a,code=sm_90a -DJGEMM_BN=256 \
    -DJGEMM_STAGES=3 -DJGEMM_CLUSTER=1 -DJSHMEM_NO_WAIT_REPORT "$k/jgemm_sm90.cu"
  # with JSHMEM_WAIT_TIMEOUT set the stuck-wait report is compiled in (and its printf serialises the wgmma)
  nv "sm_90a hopper 128x256x64 s3 with the wait report" -std=c++17 -I "$inc" -I "$k" -DJGEMM_DTYPE=1 -DJGEMM_BM=128 \
    -DJGEMM_BK=64 -gencode=arch=compute_90a,code=sm_90a -DJGEMM_BN=256 -DJGEMM_STAGES=3 -DJGEMM_CLUSTER=1 "$k/jgemm_sm90.cu"
  nv "sm_80 portable 128x256x64 s4 traced" "${defs[@]}" -arch=sm_80 -DJGEMM_BN=256 -DJGEMM_STAGES=4 \
    "$k/jgemm_portable.cu"
  hip "portable 128x256x64 s4 traced" "${defs[@]}" -DJGEMM_BN=256 -DJGEMM_STAGES=4 "$k/jgemm_portable.cu"
}

what=("$@")
[ ${#what[@]} -gt 0 ] || what=(device gemm)
for w in "${what[@]}"; do
  case $w in
    device) device_jobs ;;
    gemm) gemm_jobs ;;
    *) echo "compile-check.sh: unknown set '$w' (device or gemm)" >&2; exit 2 ;;
  esac
done
[ -n "$nvcc" ] || echo "skip   nvcc not found"
[ -n "$hipcc" ] || echo "skip   hipcc not found"

run_one() { # index: runs job i, leaves its log and status in $out
  local name=${jobs[$1]%%$'\t'*} cmd=${jobs[$1]#*$'\t'}
  cmd=${cmd//@OBJ@/$out/$1.o}
  if ! eval "$cmd" > "$out/$1.log" 2>&1; then
    echo "FAILED $name" > "$out/$1.failed"
  elif [[ $cmd == *-DJSHMEM_NO_WAIT_REPORT* ]] && grep -q "wgmma.mma_async instructions are serialized" "$out/$1.log"; then
    echo "FAILED $name: ptxas serialised the kernel's wgmma (a function call in the kernel?)" > "$out/$1.failed"
  else
    echo "ok     $name"
  fi
  rm -f "$out/$1.o"
}
running=0
for ((i = 0; i < ${#jobs[@]}; i++)); do
  run_one "$i" &
  running=$((running + 1))
  if [ "$running" -ge "${JOBS:-$(nproc)}" ]; then wait -n; running=$((running - 1)); fi
done
wait
failed=0
for f in "$out"/*.failed; do
  [ -e "$f" ] || continue
  failed=$((failed + 1))
  cat "$f"
  grep -v -i "rocm_agent\|kfd\|Traceback\|File \"" "${f%.failed}.log" | head -40
done
echo "$(( ${#jobs[@]} - failed )) passed, $failed failed"
[ "$failed" -eq 0 ]
