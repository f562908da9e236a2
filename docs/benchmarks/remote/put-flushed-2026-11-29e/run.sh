#!/usr/bin/env bash
# Issue 17, 2026-11-29 (twenty-ninth session), on this 2-core machine: a blocking put's MPI_Put and MPI_Win_flush
# under one CallClock entry (put-flushed.patch, jar core-v1) against the build as committed (ac6a2b6, core-base),
# beside the MPI anchor; ran as `run.sh t2 10 base v1` from /tmp/s17 (the jars were copied there), table.py t2 base v1.
# usage: abv.sh TAG ROUNDS VARIANTS...   each round: anchor, then each variant's jar (order rotates), put/get bw 4K-32K
cd /work/main
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
. build/env.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tag=$1; rounds=$2; shift 2; vs=("$@")
for r in $(seq 1 $rounds); do
  mpirun -np 2 build/mpi_rma_anchor --min 4K --max 32K --factor 2 --reps 5 > /tmp/s17/$tag-mpi-r$r.csv 2>/dev/null
  n=${#vs[@]}
  for i in $(seq 0 $((n-1))); do
    v=${vs[$(( (i + r) % n ))]}
    cp /tmp/s17/core-$v.jar build/lib/shmem-core-0.1.0-SNAPSHOT.jar
    JSHMEM_TRANSPORT=remote JSHMEM_SYMMETRIC_SIZE=64M bin/jshmemrun -np 2 perf put_bw get_bw --min 4K --max 32K --factor 2 --reps 5 --progress=never --csv /tmp/s17/$tag-$v-r$r.csv >/dev/null 2>&1
  done
done
cp /tmp/s17/core-base.jar build/lib/shmem-core-0.1.0-SNAPSHOT.jar
