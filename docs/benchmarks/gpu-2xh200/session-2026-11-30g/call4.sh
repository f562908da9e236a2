#!/usr/bin/env bash
# Session 2026-11-30g, call 4 on 2 x H200: the build as committed at e2b521e (call 3's code; comments mended since):
#   1. gpu-run.sh's new EXIT trap: a GemmGpuTest suite killed by `timeout` after 25 s, then whether an MPS server or
#      its control pipe is left;
#   2. GemmGpuTest's copy-engine all-scatter cases (as call 1);
#   3. two rounds of: the shard alone, the fused all-scatter fp16 8192^3 (validated, 20 timed calls after 5).
# Run as: cd .devpack && OUT=$OUT bash on-device.sh bash call4.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/c4; mkdir -p $w/runs
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -3; } > $w/machine.txt 2>&1
t=org.jshmem.it.gpu.GemmGpuTest
s5="int,java.lang.String,java.lang.String,java.lang.String,java.lang.String"
OUT=$w/killed TRAP_TESTS=0 timeout 25 bash "$here/gpu-run.sh" classes --select-method "$t#validatesAgainstCublas($s5)" \
  > $w/killed.log 2>&1
rc=$?; pkill -f junit-platform-console; pkill -f GemmMain; pkill -f org.jshmem; sleep 4   # the killed suite's PEs
echo "killed suite rc=$rc at ${SECONDS}s; MPS left: $(pgrep -c -f nvidia-cuda-mps) processes, control pipe: $(ls /tmp/jshmem-mps/control 2>&1 | head -1)"
OUT=$w/tests TRAP_TESTS=0 timeout 230 bash "$here/gpu-run.sh" classes \
  --select-iteration "method:$t#validatesAgainstCublas($s5)[6..9]" \
  --select-iteration "method:$t#transposedBValidatesAgainstCublas($s5)[7..8]" \
  --select-iteration "method:$t#thousandCallsBackToBack(java.lang.String,java.lang.String,java.lang.String)[1..2]" \
  > $w/tests.log 2>&1
echo "GemmGpuTest selection rc=$? at ${SECONDS}s"
sed 's/\x1b\[[0-9;]*m//g' $w/tests.log | grep -E "✔|✘|tests (successful|failed|found)" | head -24
g() { # label collective shape [options]
  local label=$1 c=$2 shape=$3; shift 3
  env JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 120 mpirun -np 2 --oversubscribe java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/lib/*:$here/mpi.jar" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shape --dtype fp16 --validate --iters 20 --warmup 5 \
    --csv $w/runs/$label.csv "$@" > $w/runs/$label.log 2>&1
  printf "%-10s rc=%d at %4ds: %s PASS %s FAIL %s\n" "$label" $? $SECONDS \
    "$(grep -hE '^(none|all_scatter) ' $w/runs/$label.log | awk '{print $5, $6}' | tr '\n' ' ')" \
    "$(grep -o PASS $w/runs/$label.log | wc -l)" "$(grep -oE 'FAIL|mismatch|Exception' $w/runs/$label.log | wc -l)"
}
for r in 1 2; do
  g alone-$r none 8192x4096x8192
  g fused-$r all_scatter 8192x8192x8192 --path fused
done 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call4.tgz" -C $w .
