#!/usr/bin/env bash
# Diagnosis of the proxy hang in proxy_signal (a peer's atomic never applied while the target's kernel spins).
set -u
here=$(pwd)
w=/tmp/o6; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export JSHMEM_MPI_JAR=$here/mpi.jar JSHMEM_MPI_LIB_DIR=/usr/lib/x86_64-linux-gnu OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
jars=$(printf '%s:' "$here"/lib/*.jar); testcp="$here/test-classes:${jars}$here/mpi.jar"
. "$here/one-gpu.sh"
job() { # name, extra env...
  local name=$1; shift
  echo "== $name"
  ( sleep 30; pkill -QUIT -x java; sleep 1; nvidia-smi > $w/$name-smi.txt 2>&1 ) &
  local dumper=$!
  SECONDS=0
  env JSHMEM_BACKEND=cuda JSHMEM_TRANSPORT=remote JSHMEM_LIVENESS_MS=30000 JSHMEM_SYMMETRIC_SIZE=64M "$@" timeout 60 \
    mpirun -np 2 --bind-to none java --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu \
    -cp "$testcp" org.jshmem.it.gpu.DeviceProxyProgram > $w/$name.log 2>&1
  echo "rc=$? in ${SECONDS}s"; kill $dumper 2>/dev/null
  grep -E "^PE [0-9] (at|done|signal\.1\.)|jshmem:" $w/$name.log | tail -6
  tar czf "$out/call6.tgz" -C $w .
}
job eager CUDA_MODULE_LOADING=EAGER
