#!/usr/bin/env bash
# Session 2026-11-28 (twenty-second), call 3 on one H200: where the fused all-reduce's +22% over its shard alone
# goes when both PEs share the GPU. Call 2 found the owner's sum, its stores into the peer's C and the parking
# together worth only about a third of it. This call adds two more experiment flags (call3-ablation.patch, in
# variant/gemm-ext-x.jar first on the class path; timing only, results wrong): NOWAIT (the kernel does not wait
# for the peers' sums of their rows at its end) and IDENTITY_ORDER (tile rows in order, not TileRowOrder's
# rounds). Both PEs on GPU 0 under MPS, bf16 all-reduce 8192^3 against 8192x8192x4096 alone, 600 calls, two
# rounds interleaved.
set -u
here=$(pwd)
w=/tmp/o3; mkdir -p $w
out=${OUT:-/tmp/out}; mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cp="$here/variant/gemm-ext-x.jar:$here/lib/*:$here/mpi.jar"
nvidia-smi --query-gpu=name,driver_version,power.limit,clocks.max.sm --format=csv > $w/machine.txt
. ./one-gpu.sh
mps_start
export CUDA_VISIBLE_DEVICES=0
SECONDS=0
g() { # name compile-options collective shape
  local name=$1 opts=$2 c=$3 shape=$4; shift 4
  JSHMEM_GEMM_COMPILE_OPTIONS="$opts" JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=4G timeout 120 mpirun -np 2 --bind-to none java \
    --enable-native-access=ALL-UNNAMED -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" \
    org.jshmem.gemm.cli.GemmMain -c $c --shapes $shape --dtype bf16 --iters 600 "$@" --csv $w/all.csv > $w/$name.log 2>&1
  echo "$name rc=$? at ${SECONDS}s: $(tail -1 $w/all.csv | cut -d, -f1-5,8 | tr '\n' ' ')"
}
ar() { g "$1" "$2" all_reduce 8192x8192x8192 --path fused; }
{
for r in 1 2; do
  g alone-$r "" none 8192x8192x4096
  ar base-$r ""
  ar nowait-$r "-DJGEMM_X_NOWAIT"
  ar identity-$r "-DJGEMM_X_IDENTITY_ORDER"
  ar nowait-identity-$r "-DJGEMM_X_NOWAIT -DJGEMM_X_IDENTITY_ORDER"
  ar none3-$r "-DJGEMM_X_NOSUM -DJGEMM_X_OWNSTORE -DJGEMM_X_NEVERPARK"
  ar all5-$r "-DJGEMM_X_NOSUM -DJGEMM_X_OWNSTORE -DJGEMM_X_NEVERPARK -DJGEMM_X_NOWAIT -DJGEMM_X_IDENTITY_ORDER"
  tar czf "$out/call3.tgz" -C $w .
done
} 2>&1 | tee $w/summary.txt
mps_stop
ls /dev/shm > $w/dev-shm-after.txt
tar czf "$out/call3.tgz" -C $w .
