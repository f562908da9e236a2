#!/usr/bin/env bash
# Session 2026-11-29e, call 4 on one H200, the final build (Java changes since call 3: the Hopper kernel's messages,
# GemmGpuTest's argument helper; the kernel sources as in calls 1-3):
# GemmGpuTest transposedBValidatesAgainstCublas (12 cases) and skinnyTileValidates (5), both through the new helper.
set -u
w=/tmp/o4s29e; rm -rf $w; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
SECONDS=0
{
M=org.jshmem.it.gpu.GemmGpuTest
S="(int, java.lang.String, java.lang.String, java.lang.String, java.lang.String)"
OUT=$w/junit timeout 400 bash gpu-run.sh classes --select-method "$M#transposedBValidatesAgainstCublas$S" \
  --select-method "$M#skinnyTileValidates$S" > $w/junit.log 2>&1
echo "junit rc=$? at ${SECONDS}s: $(grep -E 'tests (successful|failed)' $w/junit.log | tr -s ' ' | tr '\n' ' ')"
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call4.tgz" -C $w .
