#!/usr/bin/env bash
# Session 2026-11-29 (thirty-first), call 7 on 2 x H200: the runtime against the driver inside one process, on the
# same CPU, alternated repetition by repetition (host_path_probe.cu as extended after call 6: rows "rt" and "drv"),
# 4 KB, 8 CPUs; then jshmem's host put 8 B + quiet (call 4's only row whose median went the other way) and on-stream
# put 4 KB, the new build against the one before, pinned to CPUs 2-5, alternated, four rounds.
# Run as cd .devpack && bash on-device.sh bash call7.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/o7; rm -rf $w; mkdir -p $w /tmp/before-native
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
gunzip -c before-native/libjshmem_cuda.so.gz > /tmp/before-native/libjshmem_cuda.so
nvcc -O2 -arch=sm_90 -o /tmp/host_path host_path_probe.cu -lcuda > $w/build.log 2>&1 || { cat $w/build.log; exit 1; }
SECONDS=0
{ echo "== probe at ${SECONDS}s"; /tmp/host_path 4096 0 4 8 12 16 20 24 28; } 2>&1 | tee $w/probe.txt
p() { # build round
  local b=$1 r=$2 env=()
  [ $b = before ] && env=(JSHMEM_NATIVE_DIR=/tmp/before-native)
  for f in "host put_latency --sizes 8 --iters 1000 --ops put" "on_stream put_bw --sizes 4K"; do
    local form=${f%% *} rest=${f#* } name=$b-r$r-$(echo "$f" | cut -d' ' -f2)
    env ${env[@]+"${env[@]}"} JSHMEM_BACKEND=cuda timeout -k 5 60 taskset -c 2-5 mpirun -np 2 --bind-to none java \
      --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/lib/*:$here/mpi.jar" \
      org.jshmem.perf.PerfMain $rest --form $form --progress never --csv $w/$name.csv > $w/$name.log 2>&1 || echo "$name: exit $?"
    grep -h -v '^#' $w/$name.csv | grep -v '^library' | cut -d, -f2,4,7,11 | sed "s/^/$b r$r,/"
  done
}
for r in 1 2 3 4; do
  if [ $((r % 2)) = 1 ]; then p before $r; p new $r; else p new $r; p before $r; fi
done 2>&1 | tee $w/ab.txt
echo "== done at ${SECONDS}s"
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call7.tgz" -C $w .
