#!/usr/bin/env bash
# Session 2026-11-30f, call 2 on 2 x H200: where the all-scatter's time goes, this build (tail kernel) against the
# build before (lib-old/), both with the timeline experiment (call2-experiment.patch, not kept): events before the
# GEMM kernel, after it and after the all-scatter's end on the caller's stream; JSHMEM_X_NOCE=1 leaves the copy
# stream's copies out (timing only: the results are wrong, so those runs are not validated).
# Run as: cd .devpack && OUT=$OUT bash on-device.sh bash call2.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/c2; mkdir -p $w/runs $w/tl
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
new="$here/lib/*:$here/mpi.jar"
old="$(ls $here/lib-old/*.jar):$(ls $here/lib/*.jar | grep -v /gemm-ext | tr '\n' ':')$here/mpi.jar"
SECONDS=0
g() { # label classpath collective shape iters [options]
  local label=$1 cp=$2 c=$3 shape=$4 iters=$5; shift 5
  env JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G JSHMEM_X_TIMELINE=$w/tl/$label ${XENV:-} timeout 150 mpirun -np 2 \
    --oversubscribe -x JSHMEM_X_TIMELINE ${XENV:+-x JSHMEM_X_NOCE} java \
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
for r in 1 2; do
  mkdir -p $w/tl/new-$r $w/tl/old-$r $w/tl/new-noce-$r $w/tl/old-noce-$r
  g alone-$r "$new" none 8192x4096x8192 20
  g new-$r "$new" all_scatter 8192x8192x8192 20 --path fused --validate
  g old-$r "$old" all_scatter 8192x8192x8192 20 --path fused --validate
  XENV=JSHMEM_X_NOCE=1 g new-noce-$r "$new" all_scatter 8192x8192x8192 20 --path fused
  XENV=JSHMEM_X_NOCE=1 g old-noce-$r "$old" all_scatter 8192x8192x8192 20 --path fused
done
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call2.tgz" -C $w .
