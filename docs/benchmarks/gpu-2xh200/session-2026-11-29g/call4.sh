#!/usr/bin/env bash
# Session 2026-11-29 (thirty-first), call 4 on 2 x H200: the shim's copies and runtime kernels through the driver
# (cuMemcpyAsync, cuLaunchKernel with the CUfunction looked up once per device) against the build before
# (before-native/libjshmem_cuda.so.gz through JSHMEM_NATIVE_DIR), alternated, the order swapped each round, three
# rounds: perf's on-stream put 4-64 KB, barrier and sync on a stream, reduce on a stream 1 KB and 1 MB, host put
# 8 B + quiet; 2 PEs, one per GPU, as bench-gpu.sh runs them. Run as cd .devpack && bash on-device.sh bash call4.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/o4; rm -rf $w; mkdir -p $w /tmp/before-native
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
gunzip -c before-native/libjshmem_cuda.so.gz > /tmp/before-native/libjshmem_cuda.so
SECONDS=0
p() { # build round: three perf runs
  local b=$1 r=$2 env=()
  [ $b = before ] && env=(JSHMEM_NATIVE_DIR=/tmp/before-native)
  for f in "on_stream put_bw --sizes 4K,16K,64K" "on_stream barrier_latency reduce --sizes 1K,1M --types float --ops sum,barrier_all,sync_all" \
           "host put_latency --sizes 8 --iters 1000 --ops put"; do
    local form=${f%% *} rest=${f#* } name=$b-r$r-$(echo "$f" | cut -d' ' -f2)
    env ${env[@]+"${env[@]}"} JSHMEM_BACKEND=cuda timeout -k 5 60 mpirun -np 2 --bind-to none java --enable-native-access=ALL-UNNAMED \
      -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/lib/*:$here/mpi.jar" org.jshmem.perf.PerfMain \
      $rest --form $form --progress never --csv $w/$name.csv > $w/$name.log 2>&1 || echo "$name: exit $?"
    grep -h -v '^#' $w/$name.csv | grep -v '^library' | cut -d, -f2,4,7,11 | sed "s/^/$b r$r,/"
  done
}
{
for r in 1 2 3; do
  if [ $((r % 2)) = 1 ]; then p new $r; p before $r; else p before $r; p new $r; fi
done
echo "== done at ${SECONDS}s"
} 2>&1 | tee $w/ab.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call4.tgz" -C $w .
