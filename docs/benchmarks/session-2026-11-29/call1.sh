#!/usr/bin/env bash
# Session 2026-11-29, call 1 on one H200 (issue 13): does the data a GEMM multiplies change its speed at
# the power limit? cuBLAS on randn (the anchor's data) and on uniform [-1, 1) (gemm-ext's), alternated
# (cublas_data.py); the GEMM alone beside run-gemm.sh, all 24 cases validated (gpu-run.sh gemm); cuBLAS
# on gemm-ext's own matrices in gemm-ext's process (GemmMain -c none --reference); then clusters of 2
# against single CTAs on the wave-quantised shapes, two rounds.
set -u
here=$(pwd)
w=/tmp/o1; mkdir -p $w/gemm
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
PY=python3; [ -x /opt/torch/.venv/bin/python ] && PY=/opt/torch/.venv/bin/python
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $w/machine.txt
SECONDS=0
alone() { # name dtype shapes [options]
  local name=$1 dt=$2 shapes=$3; shift 3
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=3G timeout 200 mpirun -np 1 java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" org.jshmem.gemm.cli.GemmMain -c none \
    --shapes "$shapes" --dtype $dt --iters 20 --warmup 5 "$@" --csv $w/$name.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s"
}
{
timeout 200 $PY cublas_data.py > $w/cublas-data.csv 2> $w/cublas-data.err
echo "cublas_data rc=$? at ${SECONDS}s"
tar czf "$out/call1.tgz" -C $w .
OUT=$w/gemm timeout 200 bash "$here/gpu-run.sh" gemm > $w/gemm/run.log 2>&1
echo "gemm rc=$? at ${SECONDS}s PASS=$(grep -c PASS $w/gemm/gemm-alone.log) FAIL=$(grep -c FAIL $w/gemm/gemm-alone.log)"
tar czf "$out/call1.tgz" -C $w .
for t in bf16 fp16; do alone reference-$t $t anchor --reference; done
tar czf "$out/call1.tgz" -C $w .
WQ=3840x3840x4096,5120x5120x2048,1536x6144x8192
for r in 1 2; do
  for t in fp16 bf16; do
    alone single-$t-$r $t $WQ
    alone cluster-$t-$r $t $WQ --cluster 2
  done
done
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call1.tgz" -C $w .
