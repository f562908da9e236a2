#!/usr/bin/env bash
# Session 2026-12-01, call 3 on one H200: the service kernel's SASS (the acquire of `posted`, then the copies), and
# test classes run with JSHMEM_GPU_SERVICE_US=1000 in every PE's environment (PEs under MPS).
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/c3; mkdir -p $w
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
so=$w/libjshmem_cuda.so
python3 -c 'import sys, zipfile; sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1]).read("META-INF/native/linux-x86_64/libjshmem_cuda.so"))' lib/shmem-core-0.1.0-SNAPSHOT.jar > $so
cuobjdump -sass $so > $w/all-sass.txt 2>&1
awk '/Function : /{p = /jshmemk_service/} p' $w/all-sass.txt > $w/service-sass.txt
grep -m3 "Function :" $w/service-sass.txt
grep -nE "LDG|LD\.|CCTL|MEMBAR|FENCE|BAR\.SYNC|ST\.E|STG|ERRBAR" $w/service-sass.txt | head -40
echo "== sass at ${SECONDS}s"
export JSHMEM_GPU_SERVICE_US=1000
OUT=$w/tests TRAP_TESTS=0 timeout 500 bash "$here/gpu-run.sh" classes --select-class org.jshmem.it.coll.GpuCollectivesTest \
  --select-class org.jshmem.it.coll.TeamCollectivesTest --select-class org.jshmem.it.coll.TeamErrorsTest \
  --select-class org.jshmem.it.PeFailureTest --select-class org.jshmem.it.ApiTest --select-class org.jshmem.it.CompletenessTest \
  > $w/tests.log 2>&1
echo "tests rc=$? at ${SECONDS}s"
sed 's/\x1b\[[0-9;]*m//g' $w/tests.log | grep -E "✘|tests (successful|failed|found)|\[gpu coll\]|results wrong" | head -30
sed 's/\x1b\[[0-9;]*m//g' $w/tests.log | grep -B2 -A12 "✘" | head -60
ls /dev/shm > $w/dev-shm-after.txt; cat $w/dev-shm-after.txt
rm -f $so $w/all-sass.txt
cp -r $w "$out/call3"
