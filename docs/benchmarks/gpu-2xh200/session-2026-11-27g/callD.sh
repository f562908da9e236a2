#!/usr/bin/env bash
# Session 2026-11-27g, call D on 2 x H200: gpu-run.sh tp (PyTorch anchor, the four fused tensor-parallel cases beside
# the reference path, validated before and after 100 back-to-back calls, then GpuCollectivesBench to 64 MB).
set -u
here=$(pwd)
w=/tmp/oD; mkdir -p $w/tp
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
OUT=$w/tp timeout 400 bash "$here/gpu-run.sh" tp > $w/tp.log 2>&1; echo "tp rc=$? at ${SECONDS}s"
grep -E "^(jshmem|fused|reference|==)|PASS|FAIL|ms" $w/tp/tp.log | tail -30
grep -iE "all_scatter|all_gather|reduce_scatter|all_reduce|mm " $w/tp/torch-anchor.log | tail -12
grep -E "reduce_scatter|reduce\b|fcollect" $w/tp/tp-coll.csv | grep -E "67108864|64M" | head
tar czf "$out/callD.tgz" -C $w .
