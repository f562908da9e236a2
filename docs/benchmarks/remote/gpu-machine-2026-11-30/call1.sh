#!/usr/bin/env bash
# Session 2026-11-30b (thirty-fourth), call 1 on one H200: the remote transport's GPU-machine tests on this session's
# build (83982d5: CallClock numbers its calls, and its readers time them): `gpu-run.sh remote`, GPU heaps with every
# peer remote and on two "nodes" (two-sided protocol), the device proxy, then RemoteTransportTest, RemoteSettingsTest
# and PeFailureTest on that machine's MPI. Run as cd .devpack && bash on-device.sh bash call1.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/o1; rm -rf $w; mkdir -p $w
SECONDS=0
nvidia-smi --query-gpu=index,name,driver_version,power.limit --format=csv > $w/gpus.csv 2>&1
OUT=$w/r timeout 570 bash "$here/gpu-run.sh" remote > $w/run.log 2>&1
echo "remote rc=$? at ${SECONDS}s"
grep -hE "^== |tests (successful|failed|aborted|skipped)|✘" $w/run.log | head -40
ls /dev/shm > $w/dev-shm-after.txt; echo "dev/shm: $(wc -l < $w/dev-shm-after.txt) entries"
cp $w/run.log $w/gpus.csv $w/dev-shm-after.txt "$out/"
cp $w/r/gpu-remote.log "$out/" 2>/dev/null
true
