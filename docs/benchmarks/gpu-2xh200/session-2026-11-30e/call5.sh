#!/usr/bin/env bash
# Session 2026-11-30e, call 5 on 2 x H200, the final build (cfa8300: a one-sided put or get of heap bytes makes no
# slice and acquires no shared arena): gpu-run.sh remote, GPU heaps with every peer remote and on two "nodes", the
# device proxy, then RemoteTransportTest, RemoteSettingsTest and PeFailureTest on this machine's MPI.
# Run as: cd .devpack && OUT=$OUT bash on-device.sh bash call5.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/c5; rm -rf $w; mkdir -p $w
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
OUT=$w/r timeout 560 bash "$here/gpu-run.sh" remote > $w/run.log 2>&1
echo "remote rc=$? at ${SECONDS}s"
sed 's/\x1b\[[0-9;]*m//g' $w/run.log | grep -hE "^== |tests (successful|failed|aborted|skipped)|✘" | head -40
ls /dev/shm > $w/dev-shm-after.txt; echo "dev/shm: $(wc -l < $w/dev-shm-after.txt) entries"
cp $w/run.log $w/dev-shm-after.txt "$out/"
