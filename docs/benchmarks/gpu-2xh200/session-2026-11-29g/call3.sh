#!/usr/bin/env bash
# Session 2026-11-29 (thirty-first), call 3 on 2 x H200: a barrier on a stream from stream memory operations against
# a kernel (stream_barrier_probe.cu, one process per GPU), unpinned and pinned, beside jshmem's barrier_all on a stream
# (perf barrier_latency --form on_stream, as bench-gpu.sh runs it), alternated.
# Run as cd .devpack && bash on-device.sh bash call3.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/o3; rm -rf $w; mkdir -p $w
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
nvcc -O2 -arch=sm_90 -o /tmp/stream_barrier stream_barrier_probe.cu -lcuda > $w/build.log 2>&1 || { cat $w/build.log; exit 1; }
jbar() {
  JSHMEM_BACKEND=cuda timeout -k 10 60 mpirun -np 2 --bind-to none java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/lib/*:$here/mpi.jar" org.jshmem.perf.PerfMain \
    barrier_latency --form on_stream --progress never --csv $w/perf-$1.csv > $w/perf-$1.log 2>&1
  grep -h -v '^#' $w/perf-$1.csv | grep -v '^library' | cut -d, -f2,3,4,11 | sed "s/^/jshmem $1: /"
}
SECONDS=0
{
for r in 1 2; do
  echo "== round $r at ${SECONDS}s: probe, unpinned"; timeout 60 /tmp/stream_barrier
  echo "== round $r at ${SECONDS}s: probe, CPUs 2 and 3"; timeout 60 /tmp/stream_barrier 2 3
  echo "== round $r at ${SECONDS}s: jshmem"; jbar r$r
done
echo "== done at ${SECONDS}s"
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call3.tgz" -C $w .
