#!/usr/bin/env bash
# Session 2026-11-28 (seventeenth): kernels' puts through the device proxy, a put's parts before its last
# sent without waiting for the target (PUT_PART), against the build before (its shmem-core and
# shmem-device jars first on the class path), interleaved, every peer remote, 2 PEs on one GPU under MPS.
# DeviceProxyTest on this build first. And whether this machine's Open MPI is CUDA-aware.
set -u
here=$(pwd)
w=/tmp/oB; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export JSHMEM_MPI_JAR=$here/mpi.jar JSHMEM_MPI_LIB_DIR=/usr/lib/x86_64-linux-gnu OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
jars=$(printf '%s:' "$here"/lib/*.jar); testcp="$here/test-classes:${jars}$here/mpi.jar"
. "$here/one-gpu.sh"
{ nvidia-smi -L; ompi_info --version | head -2; ompi_info --parsable --all 2>/dev/null | grep -i -E "cuda|ucx" | head -20; } > $w/machine.txt 2>&1
cat $w/machine.txt
mps_start
SECONDS=0
timeout 150 java -Djshmem.test.classpath="$testcp" -Djava.library.path=/usr/lib/x86_64-linux-gnu -jar "$here/junit-platform-console-standalone.jar" \
  execute -cp "$testcp" --details=tree --disable-banner --select-class org.jshmem.it.gpu.DeviceProxyTest > $w/proxy-test.log 2>&1
echo "DeviceProxyTest rc=$? in ${SECONDS}s"; grep -E "tests (successful|failed)|✘" $w/proxy-test.log | head
perf() { # build round benchmarks sizes
  local b=$1 r=$2 bench=$3 sizes=$4
  local cp="$here/lib/*:$here/mpi.jar"; [ $b = before ] && cp="$here/before/shmem-core-0.1.0-SNAPSHOT.jar:$here/before/shmem-device-0.1.0-SNAPSHOT.jar:$cp"
  local f="$w/device-$b-$r"
  JSHMEM_TRANSPORT=remote JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=256M timeout 120 mpirun -np 2 --bind-to none \
    java --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.perf.PerfMain $bench --sizes $sizes --form device --reps 3 --csv "$f.csv" > "$f.log" 2>&1
  echo "$b $r rc=$? $(grep -E '^jshmem,' $f.csv | cut -d, -f2,7,11 | tr '\n' ' ')"
}
SECONDS=0
for r in 1 2; do
  for b in before parts; do
    perf $b $r "put_bw get_bw" 64K,256K,1M,4M
  done
  tar czf "$out/callB.tgz" -C $w .
done 2>&1 | tee $w/ab.txt
echo "A/B done in ${SECONDS}s"
mps_stop
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/callB.tgz" -C $w .
