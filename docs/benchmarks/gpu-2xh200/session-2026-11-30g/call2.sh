#!/usr/bin/env bash
# Session 2026-11-30g, call 2 on 2 x H200, the build of call 1; nvidia-smi samples SM clock, power and the clock
# event reasons every 100 ms throughout (smi.csv):
#   1. gpu-run.sh gemm: the cuBLAS anchor (run-gemm.sh), then the GEMM alone on its 12 shapes, both types, validated;
#   2. PyTorch's all-scatter anchor (mm + all-gather, fp16 8192^3) timed as torch_anchor.py does and after 100 calls
#      back to back (torch_hot.py), interleaved twice with this build's shard alone and fused all-scatter timed both
#      ways (validated);
#   3. the copy engines against the kernel's stores below GpuPlatform's threshold (2048^3, 3072^3, 4096^3), two
#      alternated rounds.
# Run as: cd .devpack && OUT=$OUT bash on-device.sh bash call2.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/c2; mkdir -p $w/runs
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -3; } > $w/machine.txt 2>&1
nvidia-smi --query-gpu=timestamp,index,clocks.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv -lms 100 > $w/smi.csv 2>&1 &
smi=$!
OUT=$w/gemm timeout 220 bash gpu-run.sh gemm > $w/gemm.log 2>&1
echo "gemm rc=$? PASS=$(grep -c PASS $w/gemm.log) FAIL=$(grep -c FAIL $w/gemm.log) at ${SECONDS}s"
new="$here/lib/*:$here/mpi.jar"
g() { # label collective shape [options]
  local label=$1 c=$2 shape=$3; shift 3
  echo "$(date +%H:%M:%S.%N) start $label" >> $w/marks.txt
  env JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 120 mpirun -np 2 --oversubscribe java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$new" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shape --dtype fp16 --validate --iters 20 --warmup 5 \
    --csv $w/runs/$label.csv "$@" > $w/runs/$label.log 2>&1
  local rc=$?
  echo "$(date +%H:%M:%S.%N) end $label" >> $w/marks.txt
  printf "%-34s rc=%d at %4ds: %s PASS %s FAIL %s\n" "$label" $rc $SECONDS \
    "$(grep -hE '^(none|all_scatter) ' $w/runs/$label.log | awk '{print $5, $6}' | tr '\n' ' ')" \
    "$(grep -o PASS $w/runs/$label.log | wc -l)" "$(grep -oE 'FAIL|mismatch|Exception' $w/runs/$label.log | wc -l)"
}
th() { # label
  echo "$(date +%H:%M:%S.%N) start $1" >> $w/marks.txt
  (export PATH=/opt/torch/.venv/bin:$PATH NCCL_NVLS_ENABLE=0 PYTHONUNBUFFERED=1; cd "$here" && timeout 120 torchrun \
    --standalone --nproc-per-node 2 torch_hot.py) > $w/runs/$1.log 2>&1
  echo "$(date +%H:%M:%S.%N) end $1" >> $w/marks.txt
  echo "$1 rc=$? at ${SECONDS}s"; grep all_scatter-style $w/runs/$1.log
}
{
for r in 1 2; do
  th torch-$r
  g alone-$r none 8192x4096x8192
  g fused-$r all_scatter 8192x8192x8192 --path fused
  g tp-alone-$r none 8192x4096x8192 --back-to-back 100
  g tp-fused-$r all_scatter 8192x8192x8192 --path fused --back-to-back 100
done
for r in 1 2; do
  for s in 2048x2048x2048 3072x3072x3072 4096x4096x4096; do
    for t in copy_engine stores; do g small-$s-$t-$r all_scatter $s --path fused --scatter $t; done
  done
done
} 2>&1 | tee $w/summary.txt
kill $smi
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call2.tgz" -C $w .
