#!/usr/bin/env bash
# Session 2026-11-30f (fortieth), call 1 on 2 x H200: the copy-engine all-scatter's last chunk by a tail kernel
# (jgemm_scatter_tail.h) against the build before it (lib-old/: gemm-ext at 7198189), one PE per GPU:
#   1. both builds' kernels compiled once (cache), then three rounds of: the shard alone (8192x4096x8192 fp16),
#      the all-scatter fp16 8192^3 on this build, on the build before; 20 timed calls after 5, validated;
#   2. the same two all-scatters with 200 timed calls (the power cap);
#   3. smaller all-scatters on this build, copy engines against the kernel's stores (the auto threshold);
#   4. PyTorch's anchor (anchors/run-torch.sh).
# Run as: cd .devpack && OUT=$OUT bash on-device.sh bash call1.sh
set -u
here=$(pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
w=/tmp/c1; mkdir -p $w/runs
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
new="$here/lib/*:$here/mpi.jar"
old="$(ls $here/lib-old/*.jar):$(ls $here/lib/*.jar | grep -v /gemm-ext | tr '\n' ':')$here/mpi.jar"
SECONDS=0
{ nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv; nvidia-smi topo -m | head -3; } > $w/machine.txt 2>&1
g() { # label classpath collective shape iters [options]
  local label=$1 cp=$2 c=$3 shape=$4 iters=$5; shift 5
  env JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 150 mpirun -np 2 --oversubscribe java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shape --dtype fp16 --validate --iters $iters --warmup 5 \
    --csv $w/runs/$label.csv "$@" > $w/runs/$label.log 2>&1
  local rc=$?
  printf "%-34s rc=%d at %4ds: %s PASS %s FAIL %s\n" "$label" $rc $SECONDS \
    "$(grep -hE '^(none|all_scatter) ' $w/runs/$label.log | awk '{print $5, $6}' | tr '\n' ' ')" \
    "$(grep -o PASS $w/runs/$label.log | wc -l)" "$(grep -oE 'FAIL|mismatch|Exception' $w/runs/$label.log | wc -l)"
}
{
g warm-new "$new" all_scatter 8192x8192x8192 5 --path fused
g warm-old "$old" all_scatter 8192x8192x8192 5 --path fused
for r in 1 2 3; do
  g alone-$r "$new" none 8192x4096x8192 20
  g new-$r "$new" all_scatter 8192x8192x8192 20 --path fused
  g old-$r "$old" all_scatter 8192x8192x8192 20 --path fused
done
g new200 "$new" all_scatter 8192x8192x8192 200 --path fused
g old200 "$old" all_scatter 8192x8192x8192 200 --path fused
for s in 4096x8192x8192 4096x4096x4096; do
  for t in copy_engine stores; do g small-$s-$t "$new" all_scatter $s 20 --path fused --scatter $t; done
done
} 2>&1 | tee $w/summary.txt
left=$((560 - SECONDS)); [ $left -gt 240 ] && left=240
(export PATH=/opt/torch/.venv/bin:$PATH; timeout $left bash "$here/anchors/run-torch.sh") > $w/torch-anchor.log 2>&1
echo "torch rc=$? at ${SECONDS}s"; grep -iE "scatter|gather|mm" $w/torch-anchor.log | tail -12
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call1.tgz" -C $w .
