#!/usr/bin/env bash
# First look on a GPU machine: the demo on the GPU backend, the PyTorch allocator check, the GPU-only tests
# (less two long classes, named below) and the API suite on the GPU backend. Each step runs under a time limit
# and ends with a line "smoke: STEP passed", "failed (exit N)" or "TIMED OUT after N s"; the script's status
# is 1 if any step did not pass.
# Run: cd .devpack && bash on-device.sh bash smoke.sh [STEP...]   (the step names below; by default the first four)
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/jshmem-out}; mkdir -p "$out"
nvidia-smi -L
cp="$here/lib/*:$here/mpi.jar"
failed=0
wanted=" $* "   # step names given as arguments run only those steps (a device call may run 600 s at most)
# step NAME SECONDS LINES COMMAND...: runs COMMAND under the limit, shows the last LINES lines of its output
step() {
  local name=$1 limit=$2 lines=$3; shift 3
  [ -z "${wanted// /}" ] || [[ $wanted == *" $name "* ]] || return 0
  echo "== $name"
  timeout "$limit" "$@" > "$out/smoke-$name.log" 2>&1
  local rc=$?
  tail -n "$lines" "$out/smoke-$name.log"
  case $rc in
    0) echo "smoke: $name passed" ;;
    124|137) echo "smoke: $name TIMED OUT after $limit s (full output: smoke-$name.log)"; failed=1 ;;
    *) echo "smoke: $name failed (exit $rc; full output: smoke-$name.log)"; failed=1 ;;
  esac
}
step demo-on-cuda 120 20 env JSHMEM_BACKEND=cuda mpirun -np 2 java --enable-native-access=ALL-UNNAMED \
  -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" org.jshmem.examples.Ring
step torch-allocator 150 5 bash "$here/gpu-run.sh" torch-allocator
# The GPU-only tests (tag "gpu") less the two long classes, which have steps of their own: all of them take
# longer than 480 s on one GPU, and a device call gets 600 s.
step gpu-only-tests 420 25 bash "$here/gpu-run.sh" gpu-tests --exclude-classname '.*(GemmGpuTest|PerfGpuSmokeTest)'
step api-suite-on-cuda 240 25 env TRAP_TESTS=0 bash "$here/gpu-run.sh" tests --include-classname '.*ApiTest'   # the trap pass: gpu-only-tests
# Not by default (name them, one per device call): GemmGpuTest (the fused forms against cuBLAS on 1-3 PEs, about
# 9 minutes on one GPU under MPS) and PerfGpuSmokeTest, without the debug-trap pass the steps above ran.
if [ -n "${wanted// /}" ]; then
  step gemm-gpu-tests 590 25 env TRAP_TESTS=0 bash "$here/gpu-run.sh" gpu-tests --include-classname '.*GemmGpuTest'
  step perf-gpu-tests 590 25 env TRAP_TESTS=0 bash "$here/gpu-run.sh" gpu-tests --include-classname '.*PerfGpuSmokeTest'
fi
exit $failed
