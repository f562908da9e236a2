#!/usr/bin/env bash
# Session 2026-11-28, call G on 2 x H200 (the machine of call F): barrier_all on a stream, the jars before this session
# (before/, first on the class path) and this session's, interleaved, 4 rounds. (The 1 KB reduce cannot run on the
# before/ jars with this session's native library: the reduction's native signature gained an argument.)
set -u
here=$(pwd)
w=/tmp/oG; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export JSHMEM_MPI_JAR=$here/mpi.jar JSHMEM_MPI_LIB_DIR=/usr/lib/x86_64-linux-gnu OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cpof() { if [ $1 = before ]; then echo "$here/before/shmem-device-0.1.0-SNAPSHOT.jar:$here/before/shmem-core-0.1.0-SNAPSHOT.jar:$here/lib/*:$here/mpi.jar"; else echo "$here/lib/*:$here/mpi.jar"; fi; }
for r in 1 2 3 4; do
  for v in before new; do
    JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=1G timeout 60 mpirun -np 2 --bind-to none java --enable-native-access=ALL-UNNAMED \
      -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$(cpof $v)" org.jshmem.perf.PerfMain barrier_latency \
      --ops barrier_all --form on_stream --reps 5 --progress never --csv $w/$v-$r.csv > $w/$v-$r.log 2>&1
    echo "$v $r rc=$?: $(grep '^jshmem' $w/$v-$r.csv | cut -d, -f2,4,11 | tr '\n' ' ')"
  done
done
tar czf "$out/callG.tgz" -C $w .
