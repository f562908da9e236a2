#!/usr/bin/env bash
# Session 2026-11-30 (thirty-third), call 4 on 2 x H200: as call 3, with eight rounds (call 3's three were too noisy
# to tell): the build before this session (8c55c25's shim, before/shmem-core.jar) against this session's (ca2a8b0:
# the launcher's cached answers read through a C++ static's guard and relaxed atomics), the order alternating. The
# rows: barrier_all on a stream (its launch reads jshmemk_boundary_fences) and sum reduce on a stream 1 KB (a chained
# launch, which reads jshmemk_chaining_on). Run as cd .devpack && bash on-device.sh bash call4.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export JSHMEM_MPI_JAR=$here/mpi.jar JSHMEM_MPI_LIB_DIR=/usr/lib/x86_64-linux-gnu
. "$here/one-gpu.sh"
cp "$here/lib/shmem-core-0.1.0-SNAPSHOT.jar" /tmp/after-core.jar
SECONDS=0
perf() {   # variant name args...
  local v=$1 name=$2; shift 2
  JSHMEM_BACKEND=cuda timeout -k 10 60 mpirun -np 2 --bind-to none java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/lib/*:$here/mpi.jar" org.jshmem.perf.PerfMain "$@" \
    --progress never --csv "$out/r$r-$v-$name.csv" > "$out/r$r-$v-$name.log" 2>&1 || echo "r$r $v $name rc=$?"
}
for r in 1 2 3 4 5 6 7 8; do
  if [ $((r % 2)) -eq 1 ]; then order="before after"; else order="after before"; fi
  for v in $order; do
    if [ $v = before ]; then cp "$here/before/shmem-core.jar" "$here/lib/shmem-core-0.1.0-SNAPSHOT.jar"
    else cp /tmp/after-core.jar "$here/lib/shmem-core-0.1.0-SNAPSHOT.jar"; fi
    perf $v barrier barrier_latency --form on_stream
    perf $v reduce reduce --form on_stream --types float --ops sum --sizes 1K
    echo "round $r $v done at ${SECONDS}s"
  done
done
cp /tmp/after-core.jar "$here/lib/shmem-core-0.1.0-SNAPSHOT.jar"
ls /dev/shm > "$out/dev-shm-after.txt"
for f in "$out"/r*.csv; do grep -v '^#' "$f" | grep -v '^library' | awk -F, -v f="$(basename "$f" .csv)" '{print f, $2, $3, $4, $7, $11, $10}'; done | tee "$out/rows.txt"
(cd "$out" && tar czf runs.tgz r*.csv r*.log && rm -f r*.csv r*.log)
