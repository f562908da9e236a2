#!/usr/bin/env bash
# Session 2026-11-29 (thirty-first), call 5 on 2 x H200: the tests of the build whose copies and runtime kernels go
# through the driver (GpuStreamOpsTest, GpuCollectivesTest, TeamCollectivesTest, ApiTest, DeviceModuleTest,
# DeviceApiTest and its debug-trap cases), then perf against the build before (JSHMEM_NATIVE_DIR), alternated, two
# rounds: barrier and sync on a stream (call 4 selected none), on-stream put 4 and 16 KB.
# Run as cd .devpack && bash on-device.sh bash call5.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/o5; rm -rf $w; mkdir -p $w /tmp/before-native
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
gunzip -c before-native/libjshmem_cuda.so.gz > /tmp/before-native/libjshmem_cuda.so
SECONDS=0
OUT=$w/t timeout 420 bash "$here/gpu-run.sh" classes --select-class org.jshmem.it.gpu.GpuStreamOpsTest \
  --select-class org.jshmem.it.coll.GpuCollectivesTest --select-class org.jshmem.it.coll.TeamCollectivesTest \
  --select-class org.jshmem.it.ApiTest --select-class org.jshmem.it.gpu.DeviceModuleTest \
  --select-class org.jshmem.it.gpu.DeviceApiTest > $w/tests.log 2>&1
echo "tests rc=$? at ${SECONDS}s"; grep -hE "tests (successful|failed|aborted)|✘" $w/tests.log | head -20
p() { # build round
  local b=$1 r=$2 env=()
  [ $b = before ] && env=(JSHMEM_NATIVE_DIR=/tmp/before-native)
  for f in "on_stream barrier_latency" "on_stream put_bw --sizes 4K,16K"; do
    local form=${f%% *} rest=${f#* } name=$b-r$r-$(echo "$f" | cut -d' ' -f2)
    env ${env[@]+"${env[@]}"} JSHMEM_BACKEND=cuda timeout -k 5 60 mpirun -np 2 --bind-to none java --enable-native-access=ALL-UNNAMED \
      -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/lib/*:$here/mpi.jar" org.jshmem.perf.PerfMain \
      $rest --form $form --progress never --csv $w/$name.csv > $w/$name.log 2>&1 || echo "$name: exit $?"
    grep -h -v '^#' $w/$name.csv | grep -v '^library' | cut -d, -f2,4,7,11 | sed "s/^/$b r$r,/"
  done
}
for r in 1 2; do
  [ $SECONDS -gt 500 ] && break
  if [ $((r % 2)) = 1 ]; then p before $r; p new $r; else p new $r; p before $r; fi
done 2>&1 | tee $w/ab.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call5.tgz" -C $w .
