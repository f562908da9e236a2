#!/usr/bin/env bash
# Session 2026-11-29b, call 7 on one H200 (issue 13): why 1536x6144x8192 ran 625-674 TFLOP/s in gpu-run.sh gemm's
# list and 768-772 alone. The anchor's shapes up to it, in the list's order, in one process, bf16, with nvidia-smi
# sampling SM clock and power every 20 ms. Then 1536x6144x8192 alone, twice.
set -u
here=$(pwd)
w=/tmp/o7s29b; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,nounits -lms 20 > $w/smi.csv &
smi=$!
g() { # name shapes
  echo "$1 start $(date +%H:%M:%S.%N)" >> $w/stamps.txt
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=3G timeout 200 mpirun -np 1 java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/lib/*:$here/mpi.jar" org.jshmem.gemm.cli.GemmMain -c none \
    --shapes "$2" --dtype bf16 --iters 20 --warmup 5 --validate --reference --csv $w/$1.csv > $w/$1.log 2>&1
  echo "$1 end $(date +%H:%M:%S.%N) rc=$?" >> $w/stamps.txt
  echo "$1 PASS=$(grep -c PASS $w/$1.log) FAIL=$(grep -c FAIL $w/$1.log) at ${SECONDS}s"
}
{
g list 8192x8192x8192,4096x4096x4096,1024x8192x8192,8192x4096x8192,8192x8192x4096,8192x5504x4096,3840x3840x4096,1536x6144x8192
sleep 5
g alone-1 1536x6144x8192
g alone-2 1536x6144x8192
g list2 8192x8192x8192,4096x4096x4096,1024x8192x8192,8192x4096x8192,8192x8192x4096,8192x5504x4096,3840x3840x4096,1536x6144x8192
} 2>&1 | tee $w/summary.txt
kill $smi
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call7.tgz" -C $w .
