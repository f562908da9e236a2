#!/usr/bin/env bash
# Session 2026-11-29 (thirty-first), call 8 on 2 x H200, the final build (module launches now share the runtime
# kernels' driver-launch helper, kernel_launch.h): gemm-ext on GPU 0 beside the cuBLAS anchor in the same run
# (gpu-run.sh gemm: run-gemm.sh, then the GEMM alone on its 12 shapes, bf16 and fp16, validated, and beside cuBLAS
# timed alike), then the fused forms on 2 PEs, one per GPU, validated against the reference path, and the PyTorch
# anchor (run-torch.sh). Run as cd .devpack && bash on-device.sh bash call8.sh
set -u
here=$(pwd)
w=/tmp/o8; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
SECONDS=0
OUT=$w/gemm timeout 200 bash gpu-run.sh gemm > $w/gemm.log 2>&1
echo "gemm rc=$? PASS=$(grep -c PASS $w/gemm.log) FAIL=$(grep -c FAIL $w/gemm.log) at ${SECONDS}s" | tee $w/sweep.txt
g() { # name collective dtype shapes [options]
  local name=$1 c=$2 dt=$3 shapes=$4; shift 4
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=8G timeout 120 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shapes --dtype $dt --path fused "$@" \
    --csv $w/fused.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s"
  grep -E "^$c " $w/$name.log
}
{
g as all_scatter fp16 8192x8192x8192 --reference --validate --back-to-back 1000
g alone none fp16 8192x4096x8192
g ag all_gather_gemm fp16 8192x11008x4096 --reference --validate
g rs gemm_reduce_scatter bf16 8192x8192x4096 --reference --validate
g ar all_reduce bf16 8192x8192x8192 --reference --validate
} 2>&1 | tee -a $w/sweep.txt
timeout 300 bash "$here/anchors/run-torch.sh" > $w/torch.log 2>&1
echo "torch rc=$? at ${SECONDS}s" | tee -a $w/sweep.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call8.tgz" -C $w .
