#!/usr/bin/env bash
# Issue 17, 2026-11-29, on the 2-core machine. Two measurements:
# 1. The anchor at MPI_THREAD_SERIALIZED (plain), MPI_THREAD_MULTIPLE with no thread (--multiple) and with a
#    progress thread entering MPI every 200 us (--progress-thread 200), interleaved, 3 rounds
#    (thread-level-r<round>-<variant>.csv).
# 2. How long each process_vm_writev (the CMA copy under Open MPI's one-sided put) takes in the anchor's
#    put_bw and in jshmem's, timed by an LD_PRELOAD shim (cmawin.c) over the timed repetitions of each, and
#    the same with every copy made twice and the second one timed (CMA_TWICE=1): the first copy after the
#    program's own code against one made right after another.
set -u
cd "$(dirname "$0")/../../../.."
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
. build/env.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
o=${1:-/tmp/cma-2026-11-29}; mkdir -p $o
gcc -O2 -shared -fPIC -o $o/libcmawin.so docs/benchmarks/remote/cma-2026-11-29/cmawin.c -ldl
for r in 1 2 3; do
  for v in plain multiple progress; do
    case $v in plain) a=();; multiple) a=(--multiple);; progress) a=(--progress-thread 200);; esac
    mpirun -np 2 build/mpi_rma_anchor --min 8K --max 32K --factor 2 --reps 5 "${a[@]}" > $o/thread-level-r$r-$v.csv 2>/dev/null
  done
done
for r in 1 2 3; do
  for tw in "" "-x CMA_TWICE=1"; do
    CMA_FROM=20000 CMA_TO=120000 mpirun -np 2 -x CMA_FROM -x CMA_TO $tw -x LD_PRELOAD=$o/libcmawin.so \
      build/mpi_rma_anchor --min 8K --max 8K --reps 5 2>&1 | grep -E "cma|put_bw"
    CMA_FROM=240000 CMA_TO=340000 JSHMEM_TRANSPORT=remote JSHMEM_SYMMETRIC_SIZE=64M bin/jshmemrun -np 2 -x CMA_FROM \
      -x CMA_TO $tw -x LD_PRELOAD=$o/libcmawin.so perf put_bw --min 8K --max 8K --reps 5 --progress=never 2>&1 \
      | grep -E "cma|  8K"
  done
done
