#!/usr/bin/env bash
# Session 2026-11-30g, call 5 on 2 x H200: does the all-scatter's doubled row pitch of C slow its GEMM? lib-x/ holds
# gemm-ext with call5-experiment.patch (applied to e2b521e): under JSHMEM_X_PITCH each PE's TMA stores go to the start of C with the shard's own
# pitch (4096), as the shard alone stores (results wrong: timing only, not validated). Three rounds of: the shard
# alone, the all-scatter fp16 8192^3 (validated), the same with JSHMEM_X_PITCH.
# Run as: cd .devpack && OUT=$OUT bash on-device.sh bash call5.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/c5; mkdir -p $w/runs
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SECONDS=0
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -3; } > $w/machine.txt 2>&1
new="$here/lib/*:$here/mpi.jar"
x="$(ls $here/lib-x/*.jar):$(ls $here/lib/*.jar | grep -v /gemm-ext | tr '\n' ':')$here/mpi.jar"
g() { # label classpath collective shape [options]
  local label=$1 cp=$2 c=$3 shape=$4; shift 4
  env JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 120 mpirun -np 2 --oversubscribe ${XP:+-x JSHMEM_X_PITCH=1} java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shape --dtype fp16 --iters 20 --warmup 5 \
    --csv $w/runs/$label.csv "$@" > $w/runs/$label.log 2>&1
  printf "%-10s rc=%d at %4ds: %s PASS %s FAIL %s\n" "$label" $? $SECONDS \
    "$(grep -hE '^(none|all_scatter) ' $w/runs/$label.log | awk '{print $5, $6}' | tr '\n' ' ')" \
    "$(grep -o PASS $w/runs/$label.log | wc -l)" "$(grep -oE 'FAIL|mismatch|Exception' $w/runs/$label.log | wc -l)"
}
{
XP= g warm-x "$x" all_scatter 8192x8192x8192 --path fused
for r in 1 2 3; do
  XP= g alone-$r "$new" none 8192x4096x8192 --validate
  XP= g fused-$r "$new" all_scatter 8192x8192x8192 --path fused --validate
  XP=1 g pitch-$r "$x" all_scatter 8192x8192x8192 --path fused
done
} 2>&1 | tee $w/summary.txt
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call5.tgz" -C $w .
