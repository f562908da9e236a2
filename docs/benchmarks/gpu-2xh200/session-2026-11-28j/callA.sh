#!/usr/bin/env bash
# Session 2026-11-28 (twentieth), call A on 2 x H200, one PE per GPU.
# 1. Where the copy-engine all-scatter's time after the kernel goes: an experiment build
#    (variant/gemm-ext-timeline.jar first on the class path, timeline.patch) records events around each phase of
#    each call (kernel end, each chunk's stamp seen and copy done, signals sent, own copies done, the peers'
#    signals) and writes the medians over the last 20 of 200 calls per PE; JSHMEM_X_NOCOPY=1 leaves the copies out
#    (timing only, wrong results). Beside it the build as committed: the shard alone, the automatic all-scatter and
#    the kernel's stores, 200 calls each.
# 2. Issue 19's fused cases (20 calls, validated, beside the reference path), then PyTorch's anchor.
set -u
here=$(pwd)
w=/tmp/oA; mkdir -p $w/tl
out=${OUT:-/tmp/out}; mkdir -p "$out"
cp="$here/lib/*:$here/mpi.jar"
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -3; } > $w/machine.txt 2>&1
SECONDS=0
g() { # name classpath collective dtype shapes [options]
  local name=$1 c=$3 dt=$4 shapes=$5 path=$2; shift 5
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=8G timeout 150 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$path" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shapes --dtype $dt --path fused "$@" \
    --csv $w/sweep.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s"
  grep -E "^$c " $w/$name.log
}
X="$here/variant/gemm-ext-timeline.jar:$cp"
{
for r in 1 2; do
  JSHMEM_X_TIMELINE=$w/tl g tl-ce-$r "$X" all_scatter fp16 8192x8192x8192 --scatter copy_engine --iters 200
  JSHMEM_X_TIMELINE=$w/tl JSHMEM_X_NOCOPY=1 g tl-nocopy-$r "$X" all_scatter fp16 8192x8192x8192 --scatter copy_engine --iters 200
  g alone-$r "$cp" none fp16 8192x4096x8192 --iters 200
  g auto-$r "$cp" all_scatter fp16 8192x8192x8192 --iters 200
  g stores-$r "$cp" all_scatter fp16 8192x8192x8192 --scatter stores --iters 200
done
tar czf "$out/callA.tgz" -C $w .
g as "$cp" all_scatter fp16 8192x8192x8192 --reference --validate
g as-alone "$cp" none fp16 8192x4096x8192
g ag "$cp" all_gather_gemm fp16 8192x11008x4096 --reference --validate
g rs "$cp" gemm_reduce_scatter bf16 8192x8192x4096 --reference --validate
} 2>&1 | tee $w/sweep.txt
tar czf "$out/callA.tgz" -C $w .
echo "== PyTorch anchor"
(export PATH=/opt/torch/.venv/bin:$PATH; timeout 200 bash "$here/anchors/run-torch.sh") > $w/torch-anchor.log 2>&1
echo "torch anchor rc=$? at ${SECONDS}s"; grep "all_scatter\|matmul\|reduce_scatter\|all_gather" $w/torch-anchor.log | head -20
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/callA.tgz" -C $w .
