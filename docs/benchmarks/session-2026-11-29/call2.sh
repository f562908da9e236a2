#!/usr/bin/env bash
# Session 2026-11-29, call 2 on one H200 (issue 13): (1) the anchor's per-call synchronize against queued
# calls, on torch.matmul, with the kernel cuBLAS picks per shape (cublas_timing.py); (2) on the two
# wave-quantised shapes where cuBLAS timed as gemm-ext is timed ran ahead in call 1, gemm-ext's tile and
# split overrides, each beside its cuBLAS reference in the same process (GemmMain --reference), two rounds.
set -u
here=$(pwd)
w=/tmp/o2s29; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
PY=python3; [ -x /opt/torch/.venv/bin/python ] && PY=/opt/torch/.venv/bin/python
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $w/machine.txt
which nsys ncu > $w/nsight.txt 2>&1; ls -d /usr/local/cuda*/bin/ncu /opt/nvidia/nsight* >> $w/nsight.txt 2>&1
SECONDS=0
alone() { # name dtype shapes [options]
  local name=$1 dt=$2 shapes=$3; shift 3
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=3G timeout 200 mpirun -np 1 java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" org.jshmem.gemm.cli.GemmMain -c none \
    --shapes "$shapes" --dtype $dt --iters 20 --warmup 5 --reference "$@" --csv $w/variants.csv > $w/$name.log 2>&1
  echo "$name rc=$? at ${SECONDS}s: $(grep -c . $w/variants.csv) rows"
}
{
timeout 240 $PY cublas_timing.py > $w/cublas-timing.csv 2> $w/cublas-timing.err
echo "cublas_timing rc=$? at ${SECONDS}s"
tar czf "$out/call2.tgz" -C $w .
S=5120x5120x2048,1536x6144x8192
for r in 1 2; do
  for t in bf16 fp16; do
    alone default-$t-$r $t $S
    alone t192-$t-$r $t $S --tile 128x192x64
    alone t128-$t-$r $t $S --tile 128x128x64
    alone dp-$t-$r $t $S --split data_parallel
    alone tail-$t-$r $t $S --split tail
    alone sk-$t-$r $t $S --split stream_k
  done
  tar czf "$out/call2.tgz" -C $w .
done
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call2.tgz" -C $w .
