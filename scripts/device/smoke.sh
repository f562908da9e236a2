#!/usr/bin/env bash
# First look on a GPU machine: the demo on the GPU backend, the GPU-only tests, the PyTorch
# allocator check and the API suite on the GPU backend. Run: bash .devpack/on-device.sh bash .devpack/smoke.sh
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/jshmem-out}; mkdir -p "$out"
nvidia-smi -L
cp="$here/lib/*:$here/mpi.jar"
echo "== demo on cuda"
JSHMEM_BACKEND=cuda timeout 120 mpirun -np 2 java --enable-native-access=ALL-UNNAMED \
  -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" org.jshmem.examples.RingDemo 2>&1 | tee "$out/demo.log" | tail -20
echo "== torch allocator"; timeout 120 bash "$here/gpu-run.sh" torch-allocator | tail -5
echo "== gpu-only tests"; timeout 240 bash "$here/gpu-run.sh" gpu-tests | tail -40
echo "== API suite on cuda"; timeout 240 bash "$here/gpu-run.sh" tests --include-classname '.*ApiTest' | tail -40
