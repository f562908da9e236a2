#!/usr/bin/env bash
# Session 2026-11-30 (thirty-third), call 6 on 2 x H200, this session's build: the fused all-scatter fp16 8192^3
# (issue 19's <= 0.800 ms) beside its shard alone (8192x4096x8192 on each GPU), one PE per GPU, as in
# ../session-2026-11-29h/call1.sh's pair runs (GemmMain's default calls), three rounds, the order alternating; round 1
# validated. Call 5's `tp` figure (0.874 ms) was the first case after the PyTorch anchor, with 20 calls.
# Run as cd .devpack && bash on-device.sh bash call6.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
SECONDS=0
run() { # name collective shape [options]
  local name=$1 c=$2 shape=$3; shift 3
  JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 120 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shape --dtype fp16 "$@" --csv $out/$name.csv > $out/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $out/$name.log) FAIL=$(grep -c FAIL $out/$name.log) at ${SECONDS}s:" \
    "$(tail -n +2 $out/$name.csv 2>/dev/null | cut -d, -f1-6,8 | tr '\n' ' ')"
}
for r in 1 2 3; do
  v=(); [ $r = 1 ] && v=(--validate)
  if [ $((r % 2)) -eq 1 ]; then
    run r$r-alone none 8192x4096x8192 "${v[@]}"; run r$r-fused all_scatter 8192x8192x8192 --path fused "${v[@]}"
  else
    run r$r-fused all_scatter 8192x8192x8192 --path fused; run r$r-alone none 8192x4096x8192
  fi
done 2>&1 | tee $out/summary.txt
ls /dev/shm > $out/dev-shm-after.txt
(cd $out && tar czf runs.tgz r*.csv r*.log && rm -f r*.csv r*.log)
