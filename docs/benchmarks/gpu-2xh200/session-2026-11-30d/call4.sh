#!/usr/bin/env bash
# Session 2026-11-30d, call 4 on 2 x H200: on-stream puts and gets between the GPUs by the SM copy kernel launched
# chained (programmatic dependent launch), against the copy engine (issue 19's row: on-stream put 1 MB at least
# 220 GB/s). The experiment of session 2026-11-28m (call6-peer-sm-copy.patch), never run there, on today's launch
# path. Knobs of this build only: JSHMEM_X_PEER_SM_MIN/MAX (copies between GPUs of that size range on the SMs),
# JSHMEM_X_COPY_BLOCK_BYTES (bytes per block of 512 threads), JSHMEM_X_COPY_CHAINED=1 (the copy kernel chained).
# perf --form on_stream, variants interleaved over rounds.
# Run as: cd .devpack && OUT=$OUT bash on-device.sh bash call4.sh
set -u
here=$(pwd)
w=${OUT:-/tmp/out}; mkdir -p $w
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -3; } > $w/machine.txt 2>&1
SECONDS=0
p() { # name [env...]
  local name=$1; shift
  env "$@" JSHMEM_BACKEND=cuda timeout 90 mpirun -np 2 --bind-to none java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" org.jshmem.perf.PerfMain put_bw get_bw --form on_stream \
    --min 4K --max 16M --factor 4 --progress never --library $name --csv $w/$name.csv > $w/$name.log 2>&1
  echo "== $name rc=$? at ${SECONDS}s"
  grep -v "^#" $w/$name.csv | grep -v "^library" | awk -F, '{printf "%s %s %s %s\n", $2, $7, $11, $12}' | tr '\n' ';'; echo
}
for r in 1 2 3; do
  [ $SECONDS -gt 420 ] && break
  p ce-$r
  p sm32c-$r JSHMEM_X_PEER_SM_MAX=16777216 JSHMEM_X_COPY_CHAINED=1
  p sm32-$r JSHMEM_X_PEER_SM_MAX=16777216
  p sm16c-$r JSHMEM_X_PEER_SM_MAX=16777216 JSHMEM_X_COPY_CHAINED=1 JSHMEM_X_COPY_BLOCK_BYTES=16384
  p sm64c-$r JSHMEM_X_PEER_SM_MAX=16777216 JSHMEM_X_COPY_CHAINED=1 JSHMEM_X_COPY_BLOCK_BYTES=65536
done 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
