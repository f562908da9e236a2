#!/usr/bin/env bash
# Session 2026-11-29 (thirty-first), call 9 on 2 x H200: more of the GPU suite on the driver-launched build (calls
# 5 and 8 ran the rest): CompletenessTest, ErrorsTest and StressTest on the GPU backend, GemmGpuTest's six fused
# forms 1000 calls back to back, and DeviceProxyTest (kernels' calls to PEs of other "nodes"), then the debug-trap
# cases. Run as cd .devpack && bash on-device.sh bash call9.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/o9; rm -rf $w; mkdir -p $w
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
s="java.lang.String"
OUT=$w/t timeout 480 bash "$here/gpu-run.sh" classes --select-class org.jshmem.it.CompletenessTest \
  --select-class org.jshmem.it.ErrorsTest --select-class org.jshmem.it.StressTest \
  --select-method "org.jshmem.it.gpu.GemmGpuTest#thousandCallsBackToBack($s, $s, $s)" \
  --select-class org.jshmem.it.gpu.DeviceProxyTest > $w/tests.log 2>&1
echo "tests rc=$? at ${SECONDS}s"; grep -hE "tests (successful|failed|aborted)|✘" $w/tests.log | head -20
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call9.tgz" -C $w .
