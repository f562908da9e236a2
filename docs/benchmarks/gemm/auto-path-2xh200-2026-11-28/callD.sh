#!/usr/bin/env bash
# Session 2026-11-28 (seventeenth), call D, the final build on one GPU: GemmGpuTest whole (the Hopper kernel's
# CTA tile coordinates now one helper; Kernel.maxCoResidentClusters on the shared SM share), every PE on the
# GPU under MPS, then the debug-trap cases (gpu-run.sh's suite).
set -u
here=$(pwd)
w=/tmp/oD; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv > $w/machine.txt
SECONDS=0
OUT=$w timeout 560 bash "$here/gpu-run.sh" classes --select-class org.jshmem.it.gpu.GemmGpuTest > $w/tests.log 2>&1
echo "GemmGpuTest rc=$? in ${SECONDS}s"; grep -E "tests (successful|failed|aborted)|✘" $w/tests.log | head -20
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/callD.tgz" -C $w .
