#!/usr/bin/env bash
# Session 2026-11-29d, call 2 on one H200 (issue 13): the GEMM alone at the power cap. In a list of shapes (as
# gpu-run.sh gemm runs them) the kernel lost 10-15% against single-shape processes where cuBLAS lost 0-10%
# (session 2026-11-29c: 1536x6144x8192 bf16 777 alone, 678 in the list; cuBLAS 785 and 781). At the cap, time is
# energy: fewer bytes from L2 per product may pay there. The 12 anchor shapes, bf16, 300 timed calls each, cuBLAS
# timed alike after each (--reference), with the heuristic's tiles (auto), clusters of 2 (B multicast) and
# 128x256 tiles; three rounds alternated; nvidia-smi samples SM clock and power every 50 ms.
set -u
here=$(pwd)
w=/tmp/o2s29d; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $w/machine.txt
nvidia-smi -i 0 --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader -lms 50 > $w/smi.csv 2>&1 &
smi=$!
SECONDS=0
g() { # name [options]
  local name=$1; shift
  echo "$(date +'%Y/%m/%d %H:%M:%S.%3N') start $name" >> $w/marks.txt
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=3G timeout 150 mpirun -np 1 java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/lib/*:$here/mpi.jar" \
    org.jshmem.gemm.cli.GemmMain -c none --shapes anchor --dtype bf16 --iters 300 --reference "$@" \
    --csv $w/$name.csv > $w/$name.log 2>&1
  echo "$(date +'%Y/%m/%d %H:%M:%S.%3N') end $name" >> $w/marks.txt
  echo "$name rc=$? at ${SECONDS}s"
}
{
for r in 1 2 3; do
  if [ $r = 2 ]; then order="t256 c2 auto"; else order="auto c2 t256"; fi
  for v in $order; do
    case $v in
      auto) g auto-$r ;;
      c2) g c2-$r --cluster 2 ;;
      t256) g t256-$r --tile 128x256x64 ;;
    esac
  done
  tar czf "$out/call2.tgz" -C $w .
done
} 2>&1 | tee $w/summary.txt
kill $smi
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call2.tgz" -C $w .
