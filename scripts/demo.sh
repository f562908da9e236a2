#!/usr/bin/env bash
# The README's first command: sets up what is missing, builds jshmem, and runs the demo
# (a ring of put-with-signal plus a sum over all PEs) on 4 PEs, or on the number given.
# On a machine with a GPU it runs on the GPU backend, else on host shared memory.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/setup.sh
. build/env.sh
echo "[jshmem] building (mvn package, tests skipped)"
mvn -B -q -DskipTests package
bin/jshmemrun -np "${1:-4}" org.jshmem.examples.RingDemo
