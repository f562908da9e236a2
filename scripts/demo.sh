#!/usr/bin/env bash
# The README's first command: sets up what is missing, builds jshmem, and runs the demo
# (a ring of put-with-signal plus a sum over all PEs) on 4 PEs, or on the number given, then a
# validated gemm-ext run (fused GEMM + all-scatter).
# On a machine with a GPU it runs on the GPU backend, else on host shared memory.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/setup.sh
. build/env.sh
echo "[jshmem] building (mvn package, tests skipped)"
# Without an AMD GPU (/dev/kfd) nothing runs the HIP libraries: built at -O0 they take seconds, not minutes.
hip_opt=(); [ -e /dev/kfd ] || hip_opt=(-Djshmem.hip.opt=-O0)
mvn -B -q -DskipTests "${hip_opt[@]}" package
bin/jshmemrun -np "${1:-4}" org.jshmem.examples.Ring
# gemm-ext: a fused Stream-K GEMM + all-scatter, validated on every PE (on a GPU against cuBLAS,
# on the host heap against the product in double, with the CPU executor).
gpus=$( (nvidia-smi -L 2>/dev/null || true) | grep -c '^GPU' || true)
if [ "$gpus" -ge 2 ]; then
  JSHMEM_SYMMETRIC_SIZE=${JSHMEM_SYMMETRIC_SIZE:-2G} bin/jshmemrun -np 2 gemm -c all_scatter -m 4096 -n 4096 -k 4096 --validate
elif [ "$gpus" -eq 1 ]; then   # PEs sharing one GPU need MPS (scripts/device/one-gpu.sh): the GEMM alone here
  JSHMEM_SYMMETRIC_SIZE=${JSHMEM_SYMMETRIC_SIZE:-2G} bin/jshmemrun -np 1 gemm -c none -m 4096 -n 4096 -k 4096 --validate
else
  bin/jshmemrun -np "${1:-4}" gemm -c all_scatter -m 333 -n 257 -k 190 --validate --iters 3
fi
