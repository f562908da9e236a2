#!/usr/bin/env bash
# Session 2026-12-01, call 6 on one H200: DeviceModuleTest's chained-launch check (the second kernel starts while the
# first runs) without and with JSHMEM_GPU_SERVICE_US=1000 in the PEs' environment, alternated, twice each.
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/c6; mkdir -p $w
SECONDS=0
for round in 1 2; do
  for us in 0 1000; do
    JSHMEM_GPU_SERVICE_US=$us OUT=$w/r$round-svc$us TRAP_TESTS=0 timeout 120 bash "$here/gpu-run.sh" classes \
      --select-class org.jshmem.it.gpu.DeviceModuleTest > $w/r$round-svc$us.log 2>&1
    echo "== round $round, JSHMEM_GPU_SERVICE_US=$us: rc=$? at ${SECONDS}s"
    sed 's/\x1b\[[0-9;]*m//g' $w/r$round-svc$us.log | grep -E "✘|tests successful|expected:" | head -4
  done
done
cp -r $w "$out/call6"
