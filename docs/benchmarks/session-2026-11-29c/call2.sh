#!/usr/bin/env bash
# Session 2026-11-29c, call 2 on one H200 (issue 13): where the epilogue's cost lies. Four builds of the kernel as
# committed (variant/*.jar): base; nostore (the tile staged in shared memory, not stored to C); nosmem (stored to
# C from an unwritten output tile); noepi (neither). bf16, cuBLAS timed alike, two rounds interleaved; the probes'
# validation fails by design. Then Nsight Compute's warp-stall sampling per SASS instruction on base, 3840x3840x4096.
set -u
here=$(pwd)
w=/tmp/o2s29c; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
g() { # variant name dtype shapes [options]
  local v=$1 name=$2 dt=$3 shapes=$4; shift 4
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=3G timeout 200 mpirun -np 1 java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/variant/$v.jar:$here/lib/*:$here/mpi.jar" \
    org.jshmem.gemm.cli.GemmMain -c none --shapes "$shapes" --dtype $dt --iters 20 --warmup 5 --validate --reference \
    "$@" --csv $w/$v-$name.csv > $w/$v-$name.log 2>&1
  echo "$v $name rc=$? PASS=$(grep -c PASS $w/$v-$name.log) FAIL=$(grep -c FAIL $w/$v-$name.log) at ${SECONDS}s"
}
S=2048x2048x2048,3840x3840x4096,5120x5120x2048,8192x8192x4096
NCU=$(ls /usr/local/cuda/bin/ncu 2>/dev/null || which ncu)
{
for r in 1 2; do
  for v in base nostore nosmem noepi; do g $v auto-$r bf16 $S; done
done
JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=3G timeout 150 $NCU --kernel-name regex:jgemm_sm90 --launch-skip 30 --launch-count 1 \
  --section SourceCounters --section WarpStateStats -o $w/base-3840 java --enable-native-access=ALL-UNNAMED \
  -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/variant/base.jar:$here/lib/*:$here/mpi.jar" \
  org.jshmem.gemm.cli.GemmMain -c none --shapes 3840x3840x4096 --dtype bf16 --iters 5 > $w/ncu-run.txt 2>&1
echo "ncu rc=$? at ${SECONDS}s"
$NCU -i $w/base-3840.ncu-rep --page details > $w/ncu-details.txt 2>&1
$NCU -i $w/base-3840.ncu-rep --page source --csv --print-source sass > $w/ncu-sass.csv 2>&1
echo "ncu export rc=$? lines=$(wc -l < $w/ncu-sass.csv) at ${SECONDS}s"
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call2.tgz" -C $w .
