#!/usr/bin/env bash
# Session 2026-11-29 (thirty-second), call 5 on 2 x H200: the GPU tests of the final build (b428f5e; the shim's
# copies and runtime kernels launched through the driver since c33f57b): GpuStreamOpsTest, GpuCollectivesTest,
# TeamCollectivesTest, ApiTest, DeviceModuleTest, DeviceApiTest, GemmGpuTest's validations against cuBLAS, then the
# debug-trap cases. Run as cd .devpack && bash on-device.sh bash call5.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/o5; rm -rf $w; mkdir -p $w
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
s="java.lang.String"
OUT=$w/t timeout 560 bash "$here/gpu-run.sh" classes --select-class org.jshmem.it.gpu.GpuStreamOpsTest \
  --select-class org.jshmem.it.coll.GpuCollectivesTest --select-class org.jshmem.it.coll.TeamCollectivesTest \
  --select-class org.jshmem.it.ApiTest --select-class org.jshmem.it.gpu.DeviceModuleTest \
  --select-class org.jshmem.it.gpu.DeviceApiTest \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#validatesAgainstCublas(int, $s, $s, $s, $s)" > $w/tests.log 2>&1
echo "tests rc=$? at ${SECONDS}s"; grep -hE "tests (successful|failed|aborted)|✘" $w/tests.log | head -20
ls /dev/shm > $w/dev-shm-after.txt
cp $w/tests.log $w/dev-shm-after.txt "$out/"
