#!/usr/bin/env bash
# Session 2026-11-27g, call E on 2 x H200, one PE per GPU: where the fused all-scatter's time over the GEMM alone goes.
# fp16, interleaved, two rounds: the shard alone (8192x4096x8192), the fused all-scatter of 8192^3 as built, the same
# with the peers' tiles stamped but unsent (-DJGEMM_SEND_STORES=0: an experiment, wrong results, not validated), and
# with the consumers' bulk copies in place of the sender warps (-DJGEMM_SM90_SENDER=0).
set -u
here=$(pwd)
w=/tmp/oE; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/lib/*:$here/mpi.jar"
SECONDS=0
g() { # name options collective shape [GemmMain options]
  local name=$1 opts=$2 c=$3 shape=$4; shift 4
  JSHMEM_GEMM_COMPILE_OPTIONS="$opts" JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 100 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shape --dtype fp16 "$@" --csv $w/as-$name.csv > $w/$name.log 2>&1
  echo "$name rc=$? PASS=$(grep -c PASS $w/$name.log) at ${SECONDS}s: $(tail -1 $w/as-$name.csv | cut -d, -f1-5,8 | tr '\n' ' ')"
}
for r in 1 2; do
  g alone-$r "" none 8192x4096x8192 --validate
  g fused-$r "" all_scatter 8192x8192x8192 --path fused --validate
  g unsent-$r "-DJGEMM_SEND_STORES=0" all_scatter 8192x8192x8192 --path fused
  g nosender-$r "-DJGEMM_SM90_SENDER=0" all_scatter 8192x8192x8192 --path fused --validate
  tar czf "$out/callE.tgz" -C $w .
done
