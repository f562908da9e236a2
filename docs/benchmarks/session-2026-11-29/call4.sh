#!/usr/bin/env bash
# Session 2026-11-29, call 4 on one H200 (issue 13): Nsight Compute on gemm-ext's kernel and on cuBLAS's for
# the shapes where cuBLAS timed alike is ahead (128x8192x8192, 1536x6144x8192, 5120x5120x2048, bf16): speed of
# light, memory and warp-state sections, one launch each after warm-up; then tile and split overrides on
# 128x8192x8192 beside cuBLAS timed alike.
set -u
here=$(pwd)
w=/tmp/o4s29; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
PY=python3; [ -x /opt/torch/.venv/bin/python ] && PY=/opt/torch/.venv/bin/python
NCU=$(ls /usr/local/cuda/bin/ncu 2>/dev/null || which ncu)
SECTIONS="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy --section LaunchStats"
SECONDS=0
{
for s in 128x8192x8192 1536x6144x8192 5120x5120x2048; do
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=3G timeout 150 $NCU --kernel-name regex:jgemm_sm90 --launch-skip 30 --launch-count 1 \
    $SECTIONS java --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c none --shapes $s --dtype bf16 --iters 5 > $w/ncu-jshmem-$s.txt 2>&1
  echo "ncu jshmem $s rc=$? at ${SECONDS}s"
  timeout 120 $NCU --kernel-name regex:nvjet --launch-skip 3 --launch-count 1 $SECTIONS $PY ncu_cublas.py $s > $w/ncu-cublas-$s.txt 2>&1
  echo "ncu cublas $s rc=$? at ${SECONDS}s"
  tar czf "$out/call4.tgz" -C $w .
done
for v in "" "--tile 128x256x64 --split stream_k" "--tile 128x192x64 --split stream_k" "--tile 128x128x64 --split data_parallel"; do
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=3G timeout 100 mpirun -np 1 java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" org.jshmem.gemm.cli.GemmMain -c none \
    --shapes 128x8192x8192 --dtype bf16 --iters 20 --warmup 5 --reference $v --csv $w/skinny.csv > $w/skinny.log 2>&1
  echo "skinny [$v] rc=$? at ${SECONDS}s: $(tail -1 $w/skinny.csv | cut -d, -f9,11)"
done
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call4.tgz" -C $w .
