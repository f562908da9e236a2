#!/usr/bin/env bash
# Session 2026-11-30 (thirty-third), call 1 on 2 x H200: the GPU tests of this session's build (4e21bbb: the copy
# helper, device code byte-identical; ca2a8b0: the launcher's cached answers without data races, host code):
# GpuStreamOpsTest, GpuCollectivesTest, TeamCollectivesTest, ApiTest, DeviceModuleTest, DeviceApiTest, GemmGpuTest's
# validations against cuBLAS, one PE per GPU, then the debug-trap cases. Run as cd .devpack && bash on-device.sh bash call1.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/o1; rm -rf $w; mkdir -p $w
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
nvidia-smi --query-gpu=index,name,driver_version,power.limit --format=csv > $w/gpus.csv 2>&1
s="java.lang.String"
OUT=$w/t timeout 560 bash "$here/gpu-run.sh" classes --select-class org.jshmem.it.gpu.GpuStreamOpsTest \
  --select-class org.jshmem.it.coll.GpuCollectivesTest --select-class org.jshmem.it.coll.TeamCollectivesTest \
  --select-class org.jshmem.it.ApiTest --select-class org.jshmem.it.gpu.DeviceModuleTest \
  --select-class org.jshmem.it.gpu.DeviceApiTest \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#validatesAgainstCublas(int, $s, $s, $s, $s)" > $w/tests.log 2>&1
echo "tests rc=$? at ${SECONDS}s"; grep -hE "tests (successful|failed|aborted|skipped)|✘" $w/tests.log | head -20
ls /dev/shm > $w/dev-shm-after.txt
cp $w/tests.log $w/gpus.csv $w/dev-shm-after.txt "$out/"
