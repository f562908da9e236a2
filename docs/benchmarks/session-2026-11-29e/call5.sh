#!/usr/bin/env bash
# Session 2026-11-29e, call 5 on one H200, after the review's mend (BLayout.rowLength in GemmBenchmark's fills and
# cuBLAS reference, GpuPlatform's TMA check): the GEMM alone validated against cuBLAS in both layouts, one PE, Hopper
# and portable kernels, both types.
set -u
here=$(pwd)
w=/tmp/o5s29e; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
{
for dt in bf16 fp16; do
  for t in "" --trans-b; do
    name=val-$dt${t:+-nk}
    JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 150 mpirun -np 1 --bind-to none \
      java --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/lib/*:$here/mpi.jar" \
      org.jshmem.gemm.cli.GemmMain -c none --shapes 4096x4096x4096,1152x1000x1032,1000x999x1001 --dtype $dt $t \
      --validate --reference --iters 3 --warmup 1 --csv $w/$name.csv > $w/$name.log 2>&1
    echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) FAIL=$(grep -c FAIL $w/$name.log) at ${SECONDS}s"
  done
done
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call5.tgz" -C $w .
