#!/usr/bin/env bash
# Packs what a GPU machine needs to run jshmem's GPU tests and benchmarks into .devpack/
# (a trimmed Java 25 runtime, jshmem's jars with the native shim inside, the compiled tests, the JUnit
# console launcher, mpi.jar, the run scripts, the anchors and the launcher on-device.sh).
# Then, on the GPU machine (device tool, carry .devpack):  bash .devpack/on-device.sh bash .devpack/gpu-run.sh tests
# The benchmark run (NVSHMEM anchor + jshmem's GPU forms, ~3-7 min):  bash .devpack/on-device.sh bash .devpack/bench-gpu.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
. build/env.sh
mvn -B -q -DskipTests package
out=.devpack   # kept between packs: jre.txz (slow to make) and what a run put there; the rest is made anew
mkdir -p "$out"
rm -rf "$out"/{lib,test-classes,anchors,junit-platform-console-standalone.jar,jre.tgz}
mkdir "$out/lib"
cp build/lib/*.jar "$out/lib/"
# The device tool carries at most 64 MiB, the tracked tree included: leave out what the GPU
# machine never loads, the HIP shim (an NVIDIA machine), JMH's jars and XChart's PDF, SVG and GIF exporters (its
# PNG charts need none of them).
rm -f "$out"/lib/{jmh-core,jopt-simple,commons-math3,pdfbox,fontbox,VectorGraphics2D,graphics2d,animated-gif,commons-logging}*.jar
python3 - "$out"/lib/shmem-core-*.jar <<'PY'
import os, sys, zipfile
jar = sys.argv[1]
with zipfile.ZipFile(jar) as zi, zipfile.ZipFile(jar + ".tmp", "w", zipfile.ZIP_DEFLATED) as zo:
    for e in zi.infolist():
        if not e.filename.endswith("/libjshmem_hip.so"):
            zo.writestr(e, zi.read(e.filename))
os.replace(jar + ".tmp", jar)
PY
# PACK_TESTS=0 leaves out the compiled tests and the JUnit launcher (3.5 MiB): the gemm and perf commands need
# neither, for when the carry nears the limit.
if [ "${PACK_TESTS:-1}" != 0 ]; then
  cp -r tests/integration/target/test-classes "$out/test-classes"   # a directory: JUnit scans it without a zip file system
  mvn -B -q dependency:copy -Dartifact=org.junit.platform:junit-platform-console-standalone:1.11.4 \
    -DoutputDirectory="$out" -Dmdep.stripVersion=true
fi
cp build/mpi/mpi.jar "$out/"
cp scripts/device/gpu-run.sh scripts/device/one-gpu.sh scripts/device/smoke.sh scripts/device/bench-gpu.sh scripts/anchor-to-csv.sh "$out/"
cp build/native/native/linux-x86_64/libfinegrained_alloc_cuda.so finegrained-alloc/examples/torch_allocator.py \
  finegrained-alloc/examples/torch_training.py "$out/"
mkdir -p "$(git rev-parse --git-dir)/info"; exclude="$(git rev-parse --git-dir)/info/exclude"
grep -qx "/.devpack/" "$exclude" 2>/dev/null || echo "/.devpack/" >> "$exclude"
# Our own trimmed runtime: the shared recipe's modules plus jdk.zipfs (JUnit's class-path scan of a jar) and
# java.desktop (the PNG charts), packed as jre.txz for our own on-device.sh. The shared recipe's jre.tgz (modules
# zip-compressed inside, then gzip) took 39 MiB; uncompressed modules, a stripped libjvm.so and xz take 21.
# An existing jre.txz is kept (xz takes half a minute here).
if [ ! -s "$out/jre.txz" ]; then
  tmp=$(mktemp -d)
  "$JAVA_HOME/bin/jlink" --add-modules java.base,java.logging,java.management,jdk.unsupported,java.naming,jdk.management,jdk.zipfs,java.desktop \
    --strip-debug --no-header-files --no-man-pages --compress=zip-0 --output "$tmp/jre"
  strip --strip-unneeded "$tmp/jre/lib/server/libjvm.so"
  tar -cf - -C "$tmp" jre | xz -6 -T0 > "$out/jre.txz.part" && mv "$out/jre.txz.part" "$out/jre.txz"
  rm -rf "$tmp"
fi
cp scripts/device/on-device.sh "$out/"
cp -r ../shared/anchors "$out/"
tree=$(git ls-files -z | xargs -0 stat -c %s | awk '{s += $1} END {print s}')
carry=$(( $(du -sb "$out" | cut -f1) + tree ))
echo "carry: .devpack and the tracked tree, $((carry >> 20)) MiB (the device tool takes at most 64)"
if [ "$carry" -gt $((60 << 20)) ]; then
  echo "pack.sh: the carry is near the device tool's limit; PACK_TESTS=0 leaves out the tests (see above)" >&2
fi
