#!/usr/bin/env bash
# The README's second command: sets up what is missing (with hipcc for the HIP compile check),
# builds everything and runs every test: unit tests, and the multi-PE tests, which start real
# mpirun jobs of 1 to 4 PEs on this machine. On a GPU machine, JSHMEM_BACKEND=cuda runs the
# multi-PE suite on the GPU backend.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/setup.sh --hip
. build/env.sh
# install: shmem-core and shmem-device (with sources and javadoc jars) into the local repository,
# where examples/consumer takes them by coordinates, as another project would.
mvn -B install "$@"
examples/consumer/run.sh
# The device library under both compilers (no GPU needed): the test and benchmark kernels.
shmem-device/scripts/compile-check.sh
# gemm-ext's kernels under both compilers: every portable variant and element type, the utilities.
gemm-ext/scripts/compile-check.sh
# The layering of docs/architecture.md: no import from a lower layer up, none from the API past the SPI.
python3 scripts/check-layers.py
