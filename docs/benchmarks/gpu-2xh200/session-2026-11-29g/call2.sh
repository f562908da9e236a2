#!/usr/bin/env bash
# Session 2026-11-29 (thirty-first), call 2 on 2 x H200: the host's cost of queuing a copy, a launch or a stream
# memory operation, by API (enqueue_api_probe.cu), on 8 CPUs, twice. Run as cd .devpack && bash on-device.sh bash call2.sh
set -u
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/o2; rm -rf $w; mkdir -p $w
nvcc -O2 -arch=sm_90 -o /tmp/enqueue_api enqueue_api_probe.cu -lcuda > $w/build.log 2>&1 || { cat $w/build.log; exit 1; }
{ echo "== 4 KB"; /tmp/enqueue_api 4096 0 4 8 12 16 20 24 28
  echo "== 4 KB again"; /tmp/enqueue_api 4096 0 4 8 12 16 20 24 28; } 2>&1 | tee $w/summary.txt
tar czf "$out/call2.tgz" -C $w .
