#!/usr/bin/env bash
# Session 2026-11-30f, call 8 on 2 x H200, the final build. Call 7's GemmGpuTest ran past its 330 s limit, and its
# killed suite left MPS running under that call's tp step. Here:
#   1. GemmGpuTest's copy-engine all-scatter cases (and their neighbours in the index ranges), chosen with JUnit's
#      --select-iteration: 2 PEs 4096^3, 3 PEs 2600x1536x1024 (chunks of 8, 8, 5 tile rows), 3 PEs 1000x999x1001
#      (portable kernel, one chunk), B n x k, 1000 calls back to back (one chunk); MPS stopped afterwards whatever
#      happened;
#   2. PyTorch's anchor, then two rounds of: the shard alone, the fused all-scatter fp16 8192^3 on this build
#      (validated, and after 100 calls back to back), the same on the build before (lib-old/: 7198189).
# Run as: cd .devpack && OUT=$OUT bash on-device.sh bash call8.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/c8; mkdir -p $w/runs
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -3; } > $w/machine.txt 2>&1
t=org.jshmem.it.gpu.GemmGpuTest
s5="int,java.lang.String,java.lang.String,java.lang.String,java.lang.String"
OUT=$w/tests TRAP_TESTS=0 timeout 230 bash "$here/gpu-run.sh" classes \
  --select-iteration "method:$t#validatesAgainstCublas($s5)[6..9]" \
  --select-iteration "method:$t#transposedBValidatesAgainstCublas($s5)[7..8]" \
  --select-iteration "method:$t#thousandCallsBackToBack(java.lang.String,java.lang.String,java.lang.String)[1..2]" \
  > $w/tests.log 2>&1
echo "GemmGpuTest selection rc=$? at ${SECONDS}s"
bash "$here/gpu-run.sh" cmd mps_stop > /dev/null 2>&1; pkill -f GemmMain; sleep 1
sed 's/\x1b\[[0-9;]*m//g' $w/tests.log | grep -E "✔|✘|tests (successful|failed|found)" | head -24
new="$here/lib/*:$here/mpi.jar"
old="$(ls $here/lib-old/*.jar):$(ls $here/lib/*.jar | grep -v /gemm-ext | tr '\n' ':')$here/mpi.jar"
(export PATH=/opt/torch/.venv/bin:$PATH; timeout 120 bash "$here/anchors/run-torch.sh") > $w/torch-anchor.log 2>&1
echo "torch rc=$? at ${SECONDS}s"; grep -E "scatter|gather|mm" $w/torch-anchor.log | tail -6
g() { # label classpath collective shape [options]
  local label=$1 cp=$2 c=$3 shape=$4; shift 4
  env JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 120 mpirun -np 2 --oversubscribe java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shape --dtype fp16 --validate --iters 20 --warmup 5 \
    --csv $w/runs/$label.csv "$@" > $w/runs/$label.log 2>&1
  printf "%-10s rc=%d at %4ds: %s PASS %s FAIL %s\n" "$label" $? $SECONDS \
    "$(grep -hE '^(none|all_scatter) ' $w/runs/$label.log | awk '{print $5, $6}' | tr '\n' ' ')" \
    "$(grep -o PASS $w/runs/$label.log | wc -l)" "$(grep -oE 'FAIL|mismatch|Exception' $w/runs/$label.log | wc -l)"
}
for r in 1 2; do
  g alone-$r "$new" none 8192x4096x8192
  g new-$r "$new" all_scatter 8192x8192x8192 --path fused --back-to-back 100
  g old-$r "$old" all_scatter 8192x8192x8192 --path fused --back-to-back 100
done 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call8.tgz" -C $w .
