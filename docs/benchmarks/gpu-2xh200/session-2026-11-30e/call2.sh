#!/usr/bin/env bash
# Session 2026-11-30e, call 2 on 2 x H200: the SM copy's grid for on-stream copies between GPUs. An experiment build
# (call2-experiment.patch: the bytes per block of GpuBackend.smBlocks, 32 KiB today, and the put's SM threshold, 1 MiB
# today, from JSHMEM_X_BLOCK_BYTES / JSHMEM_X_PUSH_MIN). perf on_stream put_bw get_bw 512K-4M, variants alternated
# over three rounds:
#   d: 32 KiB per block (1 MB: 32 blocks), puts from 1 MiB (the build as committed);
#   b16 / b8 / b64: 16 / 8 / 64 KiB per block;
#   b16p: 16 KiB per block, puts from 512 KiB.
# Run as: cd .devpack && OUT=$OUT bash on-device.sh bash call2.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/c2; mkdir -p $w
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
SECONDS=0
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -3; } > $w/machine.txt 2>&1
p() { # name [env...]
  local name=$1; shift
  env "$@" JSHMEM_BACKEND=cuda timeout 60 mpirun -np 2 --bind-to none java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" org.jshmem.perf.PerfMain put_bw get_bw --form on_stream \
    --sizes 512K,1M,2M,4M --progress never --library $name --csv $w/$name.csv > $w/$name.log 2>&1
  echo "== $name rc=$? at ${SECONDS}s"
  grep -v "^#" $w/$name.csv | grep -v "^library" | awk -F, '{printf "%s %s %s %s\n", $2, $7, $11, $12}' | tr '\n' ';'; echo
}
v=(d b16 b8 b64 b16p)
e_d=""; e_b16="JSHMEM_X_BLOCK_BYTES=16384"; e_b8="JSHMEM_X_BLOCK_BYTES=8192"; e_b64="JSHMEM_X_BLOCK_BYTES=65536"
e_b16p="JSHMEM_X_BLOCK_BYTES=16384 JSHMEM_X_PUSH_MIN=524288"
for r in 1 2 3; do
  [ $SECONDS -gt 450 ] && break
  order=("${v[@]}"); [ $((r % 2)) = 0 ] && order=(b16p b64 b8 b16 d)
  for x in "${order[@]}"; do e="e_$x"; p $x-$r ${!e}; done
done 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call2.tgz" -C $w .
