#!/usr/bin/env bash
# Session 2026-11-30d, call 1 on 2 x H200: what bounds device put at 256 MB (target 375 GB/s)?
#   1. the raw peer figures (anchors/p2p.cu: copy engine, SM push with 528 blocks);
#   2. put_path_probe.cu twice: a plain kernel against jshmem's block copy and its device API, into an IPC
#      mapping of another process and into a peer-access buffer, 32 blocks x 1024 threads, 10 puts of each piece;
#   3. ce_offload_probe.cu: the same pieces as copy-engine copies on 1, 2 and 4 streams;
#   4. bench-gpu.sh: the NVSHMEM anchor, then jshmem's suite beside it;
#   5. put_path_probe.cu again.
# Run as: cd .devpack && OUT=$OUT bash on-device.sh bash call1.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv > $out/gpus.csv 2>&1
nvidia-smi topo -m > $out/topo.txt 2>&1
nvcc -O3 -gencode=arch=compute_90,code=sm_90 -o /tmp/p2p anchors/p2p.cu && timeout 120 /tmp/p2p > $out/p2p.log 2>&1
echo "p2p rc=$? at ${SECONDS}s"
nvcc -O2 -arch=sm_90 -I ../shmem-device/include -o /tmp/pp ../scripts/device/put_path_probe.cu 2>/dev/null
nvcc -O2 -arch=sm_90 -o /tmp/ce ../scripts/device/ce_offload_probe.cu
cuobjdump -res-usage /tmp/pp | grep -E "Function|REG" > $out/put-path-probe-resources.txt
for i in 1 2; do timeout 60 /tmp/pp; done > $out/put-path-probe-1.log 2>&1
echo "put_path_probe rc=$? at ${SECONDS}s"; cat $out/put-path-probe-1.log
timeout 60 /tmp/ce > $out/ce-offload-probe.log 2>&1; echo "ce probe rc=$? at ${SECONDS}s"; cat $out/ce-offload-probe.log
OUT=$out/bench BENCH_BUDGET_S=150 timeout 260 bash "$here/bench-gpu.sh" > $out/bench-console.log 2>&1
echo "bench-gpu rc=$? at ${SECONDS}s"
cat $out/bench/summary.txt 2>/dev/null
timeout 60 /tmp/pp > $out/put-path-probe-2.log 2>&1; echo "put_path_probe again at ${SECONDS}s"; cat $out/put-path-probe-2.log
grep -E "bytes|^ +[0-9]+ " $out/p2p.log | head -12
ls /dev/shm > $out/dev-shm-after.txt
