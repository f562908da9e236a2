#!/usr/bin/env bash
# Session 2026-12-01, call 9 on one H200: the service kernel after the second review mend (its box and stream from the shim's own host_alloc and stream_create), as call 5.
#   1. its SASS: does the acquire of `posted` invalidate L1 (CCTL) before the block reads the user's data?
#   2. GpuCollectivesTest: the two service tests, the LL 3-PE test and the default test (PEs under MPS);
#   3. BlockingProbe (host-called 1 KB reduce, fcollect, ...), 1 PE and 2 PEs under MPS, without and with the
#      service, two interleaved rounds; GpuCollectivesBench to 64 KB on 2 PEs, without and with;
#   4. GemmMain, all-scatter 4096^3 fp16 on 2 PEs (MPS) with the service on (its SM taken off the grid), validated.
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/c9; mkdir -p $w
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nproc; } > $w/machine.txt 2>&1
part=${1:-all}
if [ "$part" != bench ]; then   # all, tests, sass
so=$w/libjshmem_cuda.so
python3 -c 'import sys, zipfile; sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1]).read("META-INF/native/linux-x86_64/libjshmem_cuda.so"))' lib/shmem-core-0.1.0-SNAPSHOT.jar > $so
cuobjdump -sass $so > $w/all-sass.txt 2>&1
awk '/Function : /{p = /jshmemk_service/} p' $w/all-sass.txt > $w/service-sass.txt; rm -f $w/all-sass.txt $so
grep -m2 "Function :" $w/service-sass.txt
grep -nE "LDG.*SYS|LDG.E.64|CCTL|MEMBAR|FENCE|BAR.SYNC|GLOBALTIMER|CS2R" $w/service-sass.txt | head -24
echo "== sass at ${SECONDS}s"
fi
if [ "$part" = all ] || [ "$part" = tests ]; then
t=org.jshmem.it.coll.GpuCollectivesTest
OUT=$w/tests TRAP_TESTS=0 timeout 420 bash "$here/gpu-run.sh" classes \
  --select-method "$t#hostCalledOneBlockCollectivesOnTheServiceKernel" --select-method "$t#serviceKernelThatReturnsAfterEveryCall" \
  --select-method "$t#lowLatencyReductionsAroundTheirLimitOnThreePes" --select-method "$t#everyCollectiveBlockingAndOnAStream" \
  > $w/tests.log 2>&1
echo "tests rc=$? at ${SECONDS}s"
sed 's/\x1b\[[0-9;]*m//g' $w/tests.log | grep -E "✔|✘|tests (successful|failed|found)|\[gpu coll\]|results wrong|expected" | head -30
fi
if [ "$part" != tests ] && [ "$part" != sass ]; then
. ./one-gpu.sh
mps_start > /dev/null
pcp="$here/probe:$here/lib/*:$here/mpi.jar"
for round in 1 2; do
  for us in 0 1000; do
    for np in 1 2; do
      log=$w/probe-r$round-np$np-svc$us.log
      JSHMEM_GPU_SERVICE_US=$us JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=1G timeout 120 mpirun -np $np --oversubscribe \
        java --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$pcp" BlockingProbe > $log 2>&1
      echo "== round $round, $np PE(s), JSHMEM_GPU_SERVICE_US=$us: rc=$? at ${SECONDS}s"
      grep -E "^PE 0 (reduce 1KB blocking|fcollect 1KB blocking|reduceOnStream)" $log
      grep -E "Exception|rror" $log | head -3
    done
  done
done
for us in 0 1000; do
  JSHMEM_GPU_SERVICE_US=$us JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=1G timeout 150 mpirun -np 2 --oversubscribe \
    java --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/lib/*:$here/mpi.jar" \
    org.jshmem.perf.gpu.GpuCollectivesBench $w/coll-svc$us.csv 64K 5 > $w/coll-svc$us.log 2>&1
  echo "== GpuCollectivesBench, 2 PEs on one GPU, JSHMEM_GPU_SERVICE_US=$us: rc=$? at ${SECONDS}s"
  grep -iE "blocking|host|wrong|differ" $w/coll-svc$us.log | head -12
done
JSHMEM_GPU_SERVICE_US=1000 JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 100 mpirun -np 2 --oversubscribe java \
  --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$here/lib/*:$here/mpi.jar" \
  org.jshmem.gemm.cli.GemmMain -c all_scatter --shapes 4096x4096x4096 --dtype fp16 --validate --iters 20 --warmup 5 \
  --path fused > $w/gemm-svc.log 2>&1
echo "== GemmMain all_scatter with the service: rc=$? at ${SECONDS}s"; grep -vi warning $w/gemm-svc.log | tail -8
mps_stop > /dev/null
fi
if [ "$part" = all ] || [ "$part" = more ]; then
  # more classes with the service in every PE's environment: GEMM's fused forms (its SM off the grid), the device
  # API and modules, stream operations
  t=org.jshmem.it.gpu.GemmGpuTest
  s5="int,java.lang.String,java.lang.String,java.lang.String,java.lang.String"
  JSHMEM_GPU_SERVICE_US=1000 OUT=$w/more TRAP_TESTS=0 timeout 300 bash "$here/gpu-run.sh" classes \
    --select-iteration "method:$t#validatesAgainstCublas($s5)[1..12]" --select-class org.jshmem.it.gpu.GpuStreamOpsTest \
    --select-class org.jshmem.it.gpu.DeviceModuleTest --select-class org.jshmem.it.gpu.DeviceApiTest > $w/more.log 2>&1
  echo "more tests rc=$? at ${SECONDS}s"
  sed 's/\x1b\[[0-9;]*m//g' $w/more.log | grep -E "✘|tests (successful|failed|found)" | head -20
fi
ls /dev/shm > $w/dev-shm-after.txt; cat $w/dev-shm-after.txt
cp -r $w "$out/call9-$part"
