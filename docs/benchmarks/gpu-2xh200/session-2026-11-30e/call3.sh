#!/usr/bin/env bash
# Session 2026-11-30e, call 3 on 2 x H200, the build as committed (9624760): smoke.sh's ring demo on cuda and the
# GPU-only tests (tag "gpu", less GemmGpuTest and PerfGpuSmokeTest, with the debug-trap pass), one GPU per PE; the
# first run of the whole GPU-only selection on a pair since on-stream copies of 1-4 MiB between GPUs moved to the SMs.
# Run as: cd .devpack && OUT=$OUT bash on-device.sh bash call3.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
OUT=$out bash "$here/smoke.sh" demo-on-cuda gpu-only-tests
echo "smoke rc=$? at ${SECONDS}s"
ls /dev/shm > $out/dev-shm-after.txt; cat $out/dev-shm-after.txt
