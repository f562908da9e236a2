#!/usr/bin/env bash
# Session 2026-11-28 (twenty-first), call 4 on 4 x H200, the build with the all-scatter's automatic transport by PE
# count (the kernel's stores from 3 PEs): the automatic all-scatter on 4 PEs validated beside the reference path at
# 8192^3 fp16 and bf16, timed at two more sizes against the copy engines asked for; the 4-PE all-reduce one-shot
# against two-shot; PyTorch's anchor on 4 ranks; then on GPU 0 alone the GEMM and cuBLAS sustained for about 1 s
# each (8192x4096x8192), interleaved.
set -u
here=$(pwd)
w=/tmp/o4; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
cp="$here/lib/*:$here/mpi.jar"
PY=/opt/torch/.venv/bin/python
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -6; } > $w/machine.txt 2>&1
SECONDS=0
g() { # name collective dtype shapes [options]
  local name=$1 c=$2 dt=$3 shapes=$4; shift 4
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=8G timeout 90 mpirun -np 4 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shapes --dtype $dt "$@" \
    --csv $w/sweep.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s"
  grep -E "^$c " $w/$name.log; grep -m1 -o "tiles to the peers[^;]*\|the kernel stores[^;]*" $w/$name.log
  tar czf "$out/call4.tgz" -C $w .
}
{
g auto-v all_scatter fp16 8192x8192x8192 --validate --reference
g auto-v-bf16 all_scatter bf16 8192x8192x8192 --validate --reference
g auto-1 all_scatter fp16 4096x8192x8192,16384x8192x8192
g ce-1 all_scatter fp16 4096x8192x8192,16384x8192x8192 --scatter copy_engine
g ar-two all_reduce bf16 8192x8192x4096 --path fused --allreduce two_shot --validate
g ar-one all_reduce bf16 8192x8192x4096 --path fused --allreduce one_shot --validate
g ar-ref all_reduce bf16 8192x8192x4096 --path reference
} 2>&1 | tee $w/sweep.txt
echo "== PyTorch anchor, 4 ranks"
(export PATH=/opt/torch/.venv/bin:$PATH; timeout 100 bash "$here/anchors/run-torch.sh" 4) > $w/torch-anchor.log 2>&1
echo "torch anchor rc=$? at ${SECONDS}s"; grep "all_scatter\|matmul\|all_reduce" $w/torch-anchor.log | head -20
tar czf "$out/call4.tgz" -C $w .
s() { # name dtype iters [options]: the GEMM alone on GPU 0
  local name=$1 dt=$2 it=$3; shift 3
  CUDA_VISIBLE_DEVICES=0 JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=3G timeout 60 mpirun -np 1 java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" org.jshmem.gemm.cli.GemmMain -c none \
    --shapes 8192x4096x8192 --dtype $dt --iters $it "$@" --csv $w/sustained.csv > $w/$name.log 2>&1
  echo "$name rc=$? $(grep -E '^none ' $w/$name.log)"
}
{
for r in 1 2; do
  for dt in bf16 fp16; do
    s ours-$dt-1200-$r $dt 1200
    echo "cublas $dt 1400 reps $r: $(CUDA_VISIBLE_DEVICES=0 REPS=1400 DTYPES=$dt $PY "$here/anchor_extra.py" 8192x4096x8192 | tail -1)"
  done
done
} 2>&1 | tee $w/sustained.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call4.tgz" -C $w .
