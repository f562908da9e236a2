#!/usr/bin/env bash
# Session 2026-11-30g, call 1 on 2 x H200: the all-scatter's last chunk stored into the peers by the GEMM's own
# sender warps as its tiles end (no tail copy), against the build before (lib-old/: gemm-ext at e8cd397, the tail
# kernel's copy), one PE per GPU; nvidia-smi samples SM clock and power every 100 ms throughout (smi.csv):
#   1. GemmGpuTest's copy-engine all-scatter cases (the same selection as session 2026-11-30f's call 8); MPS stopped
#      afterwards whatever happened;
#   2. both builds' kernels compiled once (cache), then three rounds of: the shard alone (8192x4096x8192 fp16),
#      the all-scatter fp16 8192^3 on this build, on the build before; 20 timed calls after 5, validated;
#   3. two rounds the way gpu-run.sh tp times it (validated, 100 calls back to back, validated, 20 timed), the shard
#      alone timed the same way too;
#   4. smaller all-scatters on this build, copy engines against the kernel's stores (the auto threshold);
#   5. PyTorch's anchor (anchors/run-torch.sh).
# Run as: cd .devpack && OUT=$OUT bash on-device.sh bash call1.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/c1; mkdir -p $w/runs
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -3; } > $w/machine.txt 2>&1
nvidia-smi --query-gpu=timestamp,index,clocks.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv -lms 100 > $w/smi.csv 2>&1 &
smi=$!
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
g() { # label classpath collective shape iters [options]
  local label=$1 cp=$2 c=$3 shape=$4 iters=$5; shift 5
  echo "$(date +%H:%M:%S.%N) start $label" >> $w/marks.txt
  env JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 150 mpirun -np 2 --oversubscribe java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shape --dtype fp16 --validate --iters $iters --warmup 5 \
    --csv $w/runs/$label.csv "$@" > $w/runs/$label.log 2>&1
  local rc=$?
  echo "$(date +%H:%M:%S.%N) end $label" >> $w/marks.txt
  printf "%-34s rc=%d at %4ds: %s PASS %s FAIL %s\n" "$label" $rc $SECONDS \
    "$(grep -hE '^(none|all_scatter) ' $w/runs/$label.log | awk '{print $5, $6}' | tr '\n' ' ')" \
    "$(grep -o PASS $w/runs/$label.log | wc -l)" "$(grep -oE 'FAIL|mismatch|Exception' $w/runs/$label.log | wc -l)"
}
{
g warm-new "$new" all_scatter 8192x8192x8192 5 --path fused
g warm-old "$old" all_scatter 8192x8192x8192 5 --path fused
for r in 1 2 3; do
  g alone-$r "$new" none 8192x4096x8192 20
  g new-$r "$new" all_scatter 8192x8192x8192 20 --path fused
  g old-$r "$old" all_scatter 8192x8192x8192 20 --path fused
done
for r in 1 2; do
  g tp-alone-$r "$new" none 8192x4096x8192 20 --back-to-back 100
  g tp-new-$r "$new" all_scatter 8192x8192x8192 20 --path fused --back-to-back 100
  g tp-old-$r "$old" all_scatter 8192x8192x8192 20 --path fused --back-to-back 100
done
for s in 4096x8192x8192 4096x4096x4096; do
  for t in copy_engine stores; do g small-$s-$t "$new" all_scatter $s 20 --path fused --scatter $t; done
done
} 2>&1 | tee $w/summary.txt
left=$((540 - SECONDS)); [ $left -gt 200 ] && left=200
(export PATH=/opt/torch/.venv/bin:$PATH; timeout $left bash "$here/anchors/run-torch.sh") > $w/torch-anchor.log 2>&1
echo "torch rc=$? at ${SECONDS}s"; grep -iE "scatter|gather|mm" $w/torch-anchor.log | tail -12
kill $smi
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call1.tgz" -C $w .
