#!/usr/bin/env bash
# GPU heaps across "nodes" of one machine (issue 17 item 3) and the remote transport on this machine's MPI
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"
timeout 560 bash gpu-run.sh remote
echo "rc=$?"
