#!/usr/bin/env bash
# Session 2026-11-28 (twenty-first), call 9 on 2 x H200, one PE per GPU: the build of 7975fc8 (the kernel's chunk
# record named JGEMM_CHUNK_RECORD), which touches the all-scatter by the copy engines. That path, validated: fp16
# 8192^3 automatic, then 1000 calls back to back and validated again; 4096x8192x8192 automatic; copy engines asked
# for at 2600x1536x1024 (chunks of 8, 8 and 5 tile rows) and 2048^3; bf16 8192^3. Then the shard alone.
set -u
here=$(pwd)
w=/tmp/o9; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
cp="$here/lib/*:$here/mpi.jar"
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -3; } > $w/machine.txt 2>&1
SECONDS=0
g() { # name collective dtype shapes [options]
  local name=$1 c=$2 dt=$3 sh=$4; shift 4
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=8G timeout 120 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $sh --dtype $dt "$@" --csv $w/sweep.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s"
  grep -E "^$c " $w/$name.log; grep -o "tiles to the peers by the copy engines in [0-9]* chunks" $w/$name.log | sort -u
  tar czf "$out/call9.tgz" -C $w .
}
{
g as all_scatter fp16 8192x8192x8192 --validate --reference --back-to-back 1000
g as-4k all_scatter fp16 4096x8192x8192 --validate
g ce-odd all_scatter fp16 2600x1536x1024,2048x2048x2048 --validate --scatter copy_engine --path fused
g as-bf16 all_scatter bf16 8192x8192x8192 --validate
g alone none fp16 8192x4096x8192
} 2>&1 | tee $w/sweep.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call9.tgz" -C $w .
