#!/usr/bin/env bash
# Session 2026-11-30e, call 6 on 2 x H200: the two reduce-scatter probes after their common parts moved into
# scripts/device/probe_pair.cuh (review mend): rs_push_probe.cu at 32 MB each way, rs_mixed_probe.cu at 16 MB.
# Run as: cd .devpack && OUT=$OUT bash on-device.sh bash call6.sh
set -u
out=${OUT:-/tmp/out}; mkdir -p "$out"
SECONDS=0
for p in rs_push rs_mixed; do
  nvcc -O3 -arch=sm_90 -Xptxas -v -o /tmp/$p ../scripts/device/${p}_probe.cu -lcuda > $out/$p-build.log 2>&1
  echo "$p build rc=$?: $(grep -E 'registers' $out/$p-build.log | sed 's/.*Used //' | tr '\n' ' ')"
done
timeout 200 /tmp/rs_push 32 > $out/rs-push-32mb.log 2>&1; echo "rs_push rc=$? at ${SECONDS}s"; cat $out/rs-push-32mb.log
timeout 100 /tmp/rs_mixed 16 > $out/rs-mixed-16mb.log 2>&1; echo "rs_mixed rc=$? at ${SECONDS}s"
grep -E "round 1 pulled (1.000|0.500)|entry" $out/rs-mixed-16mb.log
