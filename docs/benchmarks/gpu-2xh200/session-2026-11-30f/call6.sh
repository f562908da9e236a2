#!/usr/bin/env bash
# Session 2026-11-30f, call 6 on 2 x H200: what makes the all-scatter's GEMM kernel 25-30 us slower than the shard
# alone (calls 4-5), timing only (call6-experiment.patch): JSHMEM_X_NOCE=1 leaves the copy stream's copies out,
# JSHMEM_X_NOSTREAM=1 the whole copy stream (its waits for the chunk stamps too), -DJGEMM_X_NOCOUNT=1 (with it) the
# kernel's chunk counts as well; the results of those runs are wrong, so only the default is validated.
# Run as: cd .devpack && OUT=$OUT bash on-device.sh bash call6.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/c6; mkdir -p $w/runs $w/tl
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
for r in 1 2; do
  mkdir -p $w/tl/{alone,new,noce,nostream,nocount}-$r
  g alone-$r "$new" none 8192x4096x8192 20
  g new-$r "$new" all_scatter 8192x8192x8192 20 --path fused --validate
  XENV=JSHMEM_X_NOCE=1 g noce-$r "$new" all_scatter 8192x8192x8192 20 --path fused
  XENV=JSHMEM_X_NOSTREAM=1 g nostream-$r "$new" all_scatter 8192x8192x8192 20 --path fused
  XENV="JSHMEM_X_NOSTREAM=1 JSHMEM_GEMM_COMPILE_OPTIONS=-DJGEMM_X_NOCOUNT=1" g nocount-$r "$new" all_scatter 8192x8192x8192 20 --path fused
done
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call6.tgz" -C $w .
