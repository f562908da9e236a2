#!/usr/bin/env bash
# Session 2026-11-30e, call 4 on 2 x H200: scripts/device/rs_mixed_probe.cu, a reduce-scatter of 64 MB (32 MB each
# way) whose peer bytes are part pulled by the SMs and part pushed by the copy engine at once; then the same at 16 MB
# each way. Run as: cd .devpack && OUT=$OUT bash on-device.sh bash call4.sh
set -u
out=${OUT:-/tmp/out}; mkdir -p "$out"
SECONDS=0
nvcc -O3 -arch=sm_90 -Xptxas -v -o /tmp/rs_mixed ../scripts/device/rs_mixed_probe.cu -lcuda > $out/build.log 2>&1
echo "build rc=$?"; grep -E "registers|error" $out/build.log
timeout 200 /tmp/rs_mixed 32 > $out/rs-mixed-32mb.log 2>&1; echo "32 MB rc=$? at ${SECONDS}s"; cat $out/rs-mixed-32mb.log
timeout 100 /tmp/rs_mixed 16 > $out/rs-mixed-16mb.log 2>&1; echo "16 MB rc=$? at ${SECONDS}s"
grep -E "round 1|entry" $out/rs-mixed-16mb.log
