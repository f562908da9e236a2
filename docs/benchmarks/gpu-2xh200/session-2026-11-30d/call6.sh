#!/usr/bin/env bash
# Session 2026-11-30d, call 6 on 2 x H200: where the chained SM copy between GPUs should start. perf on_stream put_bw,
# get_bw and put_bibw at 256 KB to 4 MB, this build's default (the SM copy from 256 KB to 4 MB) against
# JSHMEM_SM_COPY_MAX=0 (every on-stream copy on a copy engine), alternated over three rounds.
# Run as: cd .devpack && OUT=$OUT bash on-device.sh bash call6.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/c6; mkdir -p $w
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
SECONDS=0
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -3; } > $w/machine.txt 2>&1
p() { # name [env...]
  local name=$1; shift
  env "$@" JSHMEM_BACKEND=cuda timeout 90 mpirun -np 2 --bind-to none java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" org.jshmem.perf.PerfMain put_bw get_bw put_bibw --form on_stream \
    --sizes 256K,512K,1M,2M,4M --progress never --library $name --csv $w/$name.csv > $w/$name.log 2>&1
  echo "== $name rc=$? at ${SECONDS}s"
  grep -v "^#" $w/$name.csv | grep -v "^library" | awk -F, '{printf "%s %s %s %s\n", $2, $7, $11, $12}' | tr '\n' ';'; echo
}
for r in 1 2 3; do
  [ $SECONDS -gt 400 ] && break
  if [ $((r % 2)) = 1 ]; then p new-$r; p ce-$r JSHMEM_SM_COPY_MAX=0; else p ce-$r JSHMEM_SM_COPY_MAX=0; p new-$r; fi
done 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call6.tgz" -C $w .
