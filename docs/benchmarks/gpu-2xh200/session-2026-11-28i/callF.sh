#!/usr/bin/env bash
# Session 2026-11-28 (nineteenth), call F on 2 x H200, one PE per GPU: all-gather + GEMM fp16 8192x11008x4096
# (issue 19: <= 0.600 ms; 0.606 in call D) with the default plan (128x256x64, data-parallel) against other
# tiles and splits, two interleaved rounds of 20 calls, round 1 validated; PyTorch's anchor in the same call.
set -u
here=$(pwd)
w=/tmp/oF; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
cp="$here/lib/*:$here/mpi.jar"
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -3; } > $w/machine.txt 2>&1
SECONDS=0
g() { # name [options]
  local name=$1; shift
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=6G timeout 100 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c all_gather_gemm --shapes 8192x11008x4096 --dtype fp16 --path fused "$@" \
    --csv $w/ag.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s: $(grep -E '^all_gather_gemm ' $w/$name.log | awk '{print $5}') ms"
}
for r in 1 2; do
  v=(); [ $r = 1 ] && v=(--validate)
  g default-$r "${v[@]}"
  g tail-$r --split tail "${v[@]}"
  g auto-$r --split auto "${v[@]}"
  g t192-$r --tile 128x192x64 "${v[@]}"
  g t192sk-$r --tile 128x192x64 --split auto "${v[@]}"
  tar czf "$out/callF.tgz" -C $w .
done 2>&1 | tee $w/ag.txt
(export PATH=/opt/torch/.venv/bin:$PATH; timeout 200 bash "$here/anchors/run-torch.sh") > $w/torch-anchor.log 2>&1
echo "torch anchor rc=$? at ${SECONDS}s"; grep "ag_gemm" $w/torch-anchor.log
tar czf "$out/callF.tgz" -C $w .
