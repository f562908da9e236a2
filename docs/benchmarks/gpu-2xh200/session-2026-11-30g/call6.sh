#!/usr/bin/env bash
# Session 2026-11-30g, call 6 on 2 x H200: the copy-engine all-scatter's tiles of the engines' chunks stored and
# counted by the sender's first thread (JGEMM_SM90_SENDER_COUNTS=1: the consumers wait only until the TMA stores
# have read the output tile, as the GEMM alone does), against the build as committed (lib-old/: e2b521e, where the
# consumers wait for the stores' completion before counting):
#   1. GemmGpuTest's copy-engine all-scatter cases (as call 1) on this build;
#   2. both builds' kernels compiled once (cache), then three rounds of: the shard alone (8192x4096x8192 fp16), the
#      all-scatter fp16 8192^3 on this build, on the committed one; 20 timed calls after 5, validated;
#   3. one round each of 4096x8192x8192 and 4096^3 on both, and the tp way (100 calls back to back) on both.
# Run as: cd .devpack && OUT=$OUT bash on-device.sh bash call6.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/c6; mkdir -p $w/runs
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -3; } > $w/machine.txt 2>&1
t=org.jshmem.it.gpu.GemmGpuTest
s5="int,java.lang.String,java.lang.String,java.lang.String,java.lang.String"
OUT=$w/tests TRAP_TESTS=0 timeout 200 bash "$here/gpu-run.sh" classes \
  --select-iteration "method:$t#validatesAgainstCublas($s5)[6..9]" \
  --select-iteration "method:$t#transposedBValidatesAgainstCublas($s5)[7..8]" \
  --select-iteration "method:$t#thousandCallsBackToBack(java.lang.String,java.lang.String,java.lang.String)[1..2]" \
  > $w/tests.log 2>&1
echo "GemmGpuTest selection rc=$? at ${SECONDS}s"
pkill -f GemmMain; sleep 1
sed 's/\x1b\[[0-9;]*m//g' $w/tests.log | grep -E "✔|✘|tests (successful|failed|found)" | head -24
new="$here/lib/*:$here/mpi.jar"
old="$(ls $here/lib-old/*.jar):$(ls $here/lib/*.jar | grep -v /gemm-ext | tr '\n' ':')$here/mpi.jar"
g() { # label classpath collective shape [options]
  local label=$1 cp=$2 c=$3 shape=$4; shift 4
  env JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 120 mpirun -np 2 --oversubscribe java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shape --dtype fp16 --validate --iters 20 --warmup 5 \
    --csv $w/runs/$label.csv "$@" > $w/runs/$label.log 2>&1
  printf "%-16s rc=%d at %4ds: %s PASS %s FAIL %s\n" "$label" $? $SECONDS \
    "$(grep -hE '^(none|all_scatter) ' $w/runs/$label.log | awk '{print $5, $6}' | tr '\n' ' ')" \
    "$(grep -o PASS $w/runs/$label.log | wc -l)" "$(grep -oE 'FAIL|mismatch|Exception' $w/runs/$label.log | wc -l)"
}
{
g warm-new "$new" all_scatter 8192x8192x8192 --path fused
g warm-old "$old" all_scatter 8192x8192x8192 --path fused
for r in 1 2 3; do
  g alone-$r "$new" none 8192x4096x8192
  g new-$r "$new" all_scatter 8192x8192x8192 --path fused
  g old-$r "$old" all_scatter 8192x8192x8192 --path fused
done
for s in 4096x8192x8192 4096x4096x4096; do
  g new-$s "$new" all_scatter $s --path fused
  g old-$s "$old" all_scatter $s --path fused
done
g tp-new "$new" all_scatter 8192x8192x8192 --path fused --back-to-back 100
g tp-old "$old" all_scatter 8192x8192x8192 --path fused --back-to-back 100
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call6.tgz" -C $w .
