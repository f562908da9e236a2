#!/usr/bin/env bash
# Session 2026-11-29 (thirtieth), call 7 on one H200 (nvidia-h200): where a kernel launch from Java spends its host time
# (call7/LaunchProbe.java) beside the CUDA runtime's (call7/launch_probe.cu), both copied into .devpack, two rounds
# interleaved; then LaunchProbe once more under async-profiler 3.0 (itimer, 200 us; its libasyncProfiler.so from the
# Maven Central jar tools.profiler:async-profiler:3.0:linux-x64, copied into .devpack;
# LaunchProbe compiled here into .devpack/lp: the packed runtime has no jdk.compiler). Run as
#   cd .devpack && bash on-device.sh bash call7.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
export JSHMEM_BACKEND=cuda OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1   # java: on-device.sh's
nvcc -O2 -arch=sm_90 -o /tmp/launch_probe launch_probe.cu > $out/build.log 2>&1 || { cat $out/build.log; exit 1; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $out/machine.txt; lscpu | grep -E "Model name|^CPU\(s\)" >> $out/machine.txt
jp() { timeout 120 mpirun -np 1 --bind-to none java --enable-native-access=ALL-UNNAMED \
  -Djava.library.path=/usr/lib/x86_64-linux-gnu "$@" -cp "$here/lib/*:$here/mpi.jar:$here/lp" LaunchProbe; }
for r in 1 2; do
  echo "== round $r: CUDA runtime"; /tmp/launch_probe
  echo "== round $r: Java"; jp
done 2>&1 | tee $out/rounds.txt
echo "== Java under async-profiler" | tee -a $out/rounds.txt
jp -agentpath:$here/libasyncProfiler.so=start,event=itimer,interval=200us,file=$out/profile.txt,flat=40,traces=12 \
  2>&1 | tee -a $out/rounds.txt
ls /dev/shm > $out/dev-shm-after.txt
