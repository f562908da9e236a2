#!/usr/bin/env bash
# Session 2026-11-30f, call 5 on 2 x H200: the chunk counts settled by thread 0 a few K-iterations into the next
# unit (settle_issued, JGEMM_SM90_SETTLE_AT 4; and 16) on top of the tail kernel, against the tail kernel alone
# (lib-tail/: call 4's build) and the build before (lib-old/); the shard alone on this build and the one before.
# Timeline experiment as in call 4; every all-scatter validated.
# Run as: cd .devpack && OUT=$OUT bash on-device.sh bash call5.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/c5; mkdir -p $w/runs $w/tl
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
new="$here/lib/*:$here/mpi.jar"
tailonly="$(ls $here/lib-tail/*.jar):$(ls $here/lib/*.jar | grep -v /gemm-ext | tr '\n' ':')$here/mpi.jar"
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
  mkdir -p $w/tl/{alone,alone-old,new,new-at16,tail-only,old}-$r
  g alone-$r "$new" none 8192x4096x8192 20
  g alone-old-$r "$old" none 8192x4096x8192 20
  g new-$r "$new" all_scatter 8192x8192x8192 20 --path fused --validate
  XENV=JSHMEM_GEMM_COMPILE_OPTIONS=-DJGEMM_SM90_SETTLE_AT=16 g new-at16-$r "$new" all_scatter 8192x8192x8192 20 --path fused --validate
  g tail-only-$r "$tailonly" all_scatter 8192x8192x8192 20 --path fused --validate
  g old-$r "$old" all_scatter 8192x8192x8192 20 --path fused --validate
done
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call5.tgz" -C $w .
