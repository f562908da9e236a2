#!/usr/bin/env bash
# Session 2026-11-29 (thirty-first), call 6 on 2 x H200: calls 4 and 5 could not resolve the driver-launched build
# from the one before: each process's figures moved by up to 1.7x with the CPU it ran on. Here both builds run on
# the same four CPUs (taskset -c 2-5 on mpirun), alternated, the order swapped each round, five rounds: barrier and
# sync on a stream, on-stream put 4 and 16 KB. Then bench-gpu.sh on the new build (NVSHMEM in the same run).
# Run as cd .devpack && bash on-device.sh bash call6.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/o6; rm -rf $w; mkdir -p $w /tmp/before-native
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
gunzip -c before-native/libjshmem_cuda.so.gz > /tmp/before-native/libjshmem_cuda.so
SECONDS=0
p() { # build round
  local b=$1 r=$2 env=()
  [ $b = before ] && env=(JSHMEM_NATIVE_DIR=/tmp/before-native)
  for f in "on_stream barrier_latency" "on_stream put_bw --sizes 4K,16K"; do
    local form=${f%% *} rest=${f#* } name=$b-r$r-$(echo "$f" | cut -d' ' -f2)
    env ${env[@]+"${env[@]}"} JSHMEM_BACKEND=cuda timeout -k 5 60 taskset -c 2-5 mpirun -np 2 --bind-to none java \
      --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/lib/*:$here/mpi.jar" \
      org.jshmem.perf.PerfMain $rest --form $form --progress never --csv $w/$name.csv > $w/$name.log 2>&1 || echo "$name: exit $?"
    grep -h -v '^#' $w/$name.csv | grep -v '^library' | cut -d, -f2,4,7,11 | sed "s/^/$b r$r,/"
  done
}
for r in 1 2 3 4 5; do
  if [ $((r % 2)) = 1 ]; then p new $r; p before $r; else p before $r; p new $r; fi
done 2>&1 | tee $w/ab.txt
echo "== bench-gpu.sh at ${SECONDS}s"
OUT=$w/bench BENCH_BUDGET_S=200 timeout 330 bash "$here/bench-gpu.sh" > $w/bench.log 2>&1
echo "bench rc=$? at ${SECONDS}s"; cat $w/bench/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call6.tgz" -C $w .
