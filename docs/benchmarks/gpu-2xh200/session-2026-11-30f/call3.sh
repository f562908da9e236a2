#!/usr/bin/env bash
# Session 2026-11-30f, call 3 on 2 x H200: the tail kernel's copy, four ways (experiment build: JSHMEM_X_TAIL_GRID, -DJGEMM_TAIL_WORDS),
# rows (a block a row, as call 1 and 2), 264 blocks looping over rows, the grid's threads over 16-byte words with
# 264 or 132 blocks; the build before (lib-old/) beside them; every run validated, with the timeline.
# Run as: cd .devpack && OUT=$OUT bash on-device.sh bash call3.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/c3; mkdir -p $w/runs $w/tl
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
new="$here/lib/*:$here/mpi.jar"
old="$(ls $here/lib-old/*.jar):$(ls $here/lib/*.jar | grep -v /gemm-ext | tr '\n' ':')$here/mpi.jar"
SECONDS=0
g() { # label classpath collective shape iters [options]
  local label=$1 cp=$2 c=$3 shape=$4 iters=$5; shift 5
  env JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G JSHMEM_X_TIMELINE=$w/tl/$label ${XENV:-} timeout 150 mpirun -np 2 \
    --oversubscribe -x JSHMEM_X_TIMELINE java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shape --dtype fp16 --iters $iters --warmup 5 \
    --csv $w/runs/$label.csv "$@" > $w/runs/$label.log 2>&1
  local rc=$?
  printf "%-24s rc=%d at %4ds: %s PASS %s FAIL %s\n" "$label" $rc $SECONDS \
    "$(grep -hE '^(none|all_scatter) ' $w/runs/$label.log | awk '{print $5, $6}' | tr '\n' ' ')" \
    "$(grep -o PASS $w/runs/$label.log | wc -l)" "$(grep -oE 'FAIL|mismatch|Exception' $w/runs/$label.log | wc -l)"
  cat $w/tl/$label/timeline-pe*.txt 2>/dev/null | sed 's/^/    /'
}
{
for r in 1 2 3; do
  mkdir -p $w/tl/{rows,grid264,words264,words132,old}-$r
  g alone-$r "$new" none 8192x4096x8192 20
  g rows-$r "$new" all_scatter 8192x8192x8192 20 --path fused --validate
  XENV=JSHMEM_X_TAIL_GRID=264 g grid264-$r "$new" all_scatter 8192x8192x8192 20 --path fused --validate
  XENV="JSHMEM_X_TAIL_GRID=264 JSHMEM_GEMM_COMPILE_OPTIONS=-DJGEMM_TAIL_WORDS=1" g words264-$r "$new" all_scatter 8192x8192x8192 20 --path fused --validate
  XENV="JSHMEM_X_TAIL_GRID=132 JSHMEM_GEMM_COMPILE_OPTIONS=-DJGEMM_TAIL_WORDS=1" g words132-$r "$new" all_scatter 8192x8192x8192 20 --path fused --validate
  g old-$r "$old" all_scatter 8192x8192x8192 20 --path fused --validate
done
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call3.tgz" -C $w .
