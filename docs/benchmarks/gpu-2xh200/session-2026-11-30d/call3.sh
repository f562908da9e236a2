#!/usr/bin/env bash
# Session 2026-11-30d, call 3 on 2 x H200: PerfGpuSmokeTest (smoke.sh's perf-gpu-tests step, TRAP_TESTS=0, not run
# on the device last session), then, while time is left, the demo and the API suite on the GPU backend.
# Run as: cd .devpack && OUT=$OUT bash on-device.sh bash call3.sh
set -u
SECONDS=0
bash smoke.sh perf-gpu-tests; echo "perf-gpu-tests step ended at ${SECONDS}s"
if [ $SECONDS -lt 250 ]; then bash smoke.sh demo-on-cuda api-suite-on-cuda; echo "ended at ${SECONDS}s"; fi
ls /dev/shm > ${OUT:-/tmp}/dev-shm-after.txt
