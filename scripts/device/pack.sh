#!/usr/bin/env bash
# Packs what a GPU machine needs to run jshmem's GPU tests and benchmarks into .devpack/
# (a Java 25 runtime via ../shared/device/pack.sh, jshmem's jars with the native shim inside,
# the compiled tests, the JUnit console launcher, mpi.jar, the run script and the anchors).
# Then, on the GPU machine (device tool, carry .devpack):  bash .devpack/on-device.sh bash .devpack/gpu-run.sh all
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
. build/env.sh
mvn -B -q -DskipTests package
stage=build/devpack
rm -rf "$stage" && mkdir -p "$stage/lib"
cp build/lib/*.jar "$stage/lib/"
(cd tests/target/test-classes && "$JAVA_HOME/bin/jar" --create --file "$root/$stage/tests.jar" .)
mvn -B -q dependency:copy -Dartifact=org.junit.platform:junit-platform-console-standalone:1.11.4 \
  -DoutputDirectory="$stage" -Dmdep.stripVersion=true
cp build/mpi/mpi.jar "$stage/"
cp scripts/device/gpu-run.sh scripts/device/smoke.sh "$stage/"
cp build/native/native/linux-x86_64/libfinegrained_alloc_cuda.so finegrained-alloc/examples/torch_allocator.py "$stage/"
mkdir -p "$(git rev-parse --git-dir)/info"; exclude="$(git rev-parse --git-dir)/info/exclude"
grep -qx "/.devpack/" "$exclude" 2>/dev/null || echo "/.devpack/" >> "$exclude"
../shared/device/pack.sh -o .devpack "$stage"/* ../shared/anchors
du -sh .devpack
