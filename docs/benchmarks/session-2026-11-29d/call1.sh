#!/usr/bin/env bash
# Session 2026-11-29d, call 1 on one H200 (issue 13): the fused all-scatter's copy into the PE's own C stored by TMA
# from the swizzled output tile (the sender reads the peers' copies from the same boxes), against the build before
# (old: the same jar with JSHMEM_GEMM_COMPILE_OPTIONS=-DJGEMM_SM90_TMA_STORE=0, per-row bulk copies), PEs sharing
# the GPU under MPS. Part A: validation on 1, 2 and 3 PEs, the kernel's stores and the copy engines, aligned and
# unaligned column blocks (the latter keep the bulk copies), both types. Part B: 8192^3 all-scatter (new, old)
# beside the shard 8192x4096x8192 alone (new) on both PEs at once, 20 and 600 timed calls, two rounds alternated.
set -u
here=$(pwd)
w=/tmp/o1s29d; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $w/machine.txt
. ./one-gpu.sh
mps_start
export CUDA_VISIBLE_DEVICES=0
SECONDS=0
g() { # variant name np collective dtype shapes [options]
  local v=$1 name=$2 np=$3 c=$4 dt=$5 shapes=$6; shift 6
  local opt=""; [ $v = old ] && opt=-DJGEMM_SM90_TMA_STORE=0
  JSHMEM_GEMM_COMPILE_OPTIONS=$opt JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 100 mpirun -np $np --bind-to none \
    java --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/lib/*:$here/mpi.jar" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes "$shapes" --dtype $dt "$@" --csv $w/$v-$name.csv > $w/$v-$name.log 2>&1
  echo "$v $name rc=$? PASS=$(grep -c PASS $w/$v-$name.log) FAIL=$(grep -c FAIL $w/$v-$name.log) at ${SECONDS}s:" \
    "$(tail -n +2 $w/$v-$name.csv 2>/dev/null | cut -d, -f2-6,8,13 | tr '\n' ' ')"
}
{
for dt in bf16 fp16; do
  g new val1-$dt 1 all_scatter $dt 1001x1000x1024,2055x4112x256 --path fused --validate --iters 3 --warmup 1
  g new val2-$dt 2 all_scatter $dt 4096x4096x4096,1001x4112x1024,2055x4112x256,2055x2056x256 --path fused --validate --iters 3 --warmup 1
  g new val2ce-$dt 2 all_scatter $dt 4096x4096x4096,1001x4112x1024 --path fused --scatter copy_engine --validate --iters 3 --warmup 1
  g new val3-$dt 3 all_scatter $dt 3000x3072x1024,1001x3000x512 --path fused --validate --iters 3 --warmup 1
done
tar czf "$out/call1.tgz" -C $w .
for r in 1 2; do
  for dt in bf16 fp16; do
    v=(); [ $r = 1 ] && v=(--validate)
    for it in 600 20; do
      if [ $r = 1 ]; then order="alone new old"; else order="old new alone"; fi
      for x in $order; do
        if [ $x = alone ]; then
          g new alone-$dt-$it-$r 2 none $dt 8192x4096x8192 --iters $it "${v[@]}"
        else
          g $x fused-$dt-$it-$r 2 all_scatter $dt 8192x8192x8192 --path fused --iters $it "${v[@]}"
        fi
      done
    done
  done
  tar czf "$out/call1.tgz" -C $w .
done
} 2>&1 | tee $w/summary.txt
mps_stop
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call1.tgz" -C $w .
