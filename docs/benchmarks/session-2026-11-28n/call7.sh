#!/usr/bin/env bash
# Session 2026-11-28n, call 7 on one H200: is the fused all-reduce's extra time on a shared GPU the power cap? The SM
# clock, power draw and utilisation sampled every 50 ms (nvidia-smi) while the shard alone and the fused all-reduce
# (the code before: -DJGEMM_FOLD_PEERS=0) run, both PEs on the GPU under MPS, bf16, 1500 calls each, two rounds.
set -u
here=$(pwd)
w=/tmp/o7; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $w/machine.txt
. ./one-gpu.sh
export CUDA_VISIBLE_DEVICES=0
SECONDS=0
g() { # name compile-options iters dtype collective shape [options]
  local name=$1 opts=$2 it=$3 dt=$4 c=$5 shape=$6; shift 6
  echo "$name start $(date +%s.%N)" >> $w/phases.txt
  JSHMEM_GEMM_COMPILE_OPTIONS="$opts" JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 100 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shape --dtype $dt --iters $it "$@" --csv $w/all.csv > $w/$name.log 2>&1
  echo "$name end $(date +%s.%N)" >> $w/phases.txt
  echo "$name rc=$? at ${SECONDS}s: $(tail -1 $w/all.csv | cut -d, -f1-5,8 | tr '\n' ' ')"
}
{
mps_start
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,utilization.gpu,temperature.gpu --format=csv,noheader,nounits -lms 50 > $w/smi.csv &
smi=$!
for r in 1 2; do
  g alone-$r "" 1500 bf16 none 8192x8192x4096
  g ar-$r "-DJGEMM_FOLD_PEERS=0" 1500 bf16 all_reduce 8192x8192x8192 --path fused
done
kill $smi
mps_stop
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call7.tgz" -C $w .
