#!/usr/bin/env bash
# Issue 17, 2026-11-30 (thirty-fourth session), on this 2-core machine: jshmem's blocking put paired in one process
# with MPI_Put called straight through FFM (PairedPut.java), for two shmem-core jars: "base" (e1eeb65's CallClock)
# and "new" (83982d5's). Each PE 0 pair is three blocks of 500 operations in rotating order: jshmem put (then quiet),
# raw MPI_Put then one MPI_Win_flush (the anchors' put_bw), raw MPI_Put + MPI_Win_flush each; 1000 pairs after 3
# warm-up pairs; prints the medians of the per-pair ratios and their quartiles. Ran as `run.sh OUT ROUNDS` with
# core-base.jar and core-new.jar in OUT.
set -u
cd "$(dirname "$0")/../../../.."
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
. build/env.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
out=$1 rounds=$2
jar=build/lib/shmem-core-0.1.0-SNAPSHOT.jar
cp "$jar" "$out/core-installed.jar"
mkdir -p "$out/classes"
javac -cp "$(ls build/lib/*.jar | tr '\n' :)" -d "$out/classes" docs/benchmarks/remote/paired-2026-11-30/PairedPut.java
for r in $(seq 1 "$rounds"); do
  for v in base new; do
    [ $((r % 2)) = 0 ] && v=$([ $v = base ] && echo new || echo base)   # alternate which build goes first
    cp "$out/core-$v.jar" "$jar"
    for s in 4096 8192 32768; do
      echo -n "round $r $v "
      JSHMEM_TRANSPORT=remote JSHMEM_SYMMETRIC_SIZE=64M bin/jshmemrun -np 2 -cp "$out/classes" PairedPut $s 1000 500 2>&1 \
        | grep '^size'
    done
  done
done
cp "$out/core-installed.jar" "$jar"
