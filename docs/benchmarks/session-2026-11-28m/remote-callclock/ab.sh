#!/usr/bin/env bash
# A/B of the remote transport (one-sided) on this 2-core machine: the MPI anchor, the build before and this build,
# alternating order per round; put_bw and get_bw at 8 KB and 32 KB.
set -u
out=${1:?out}; rounds=${2:-4}
mkdir -p $out
cd /work/main
. build/env.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 JSHMEM_TRANSPORT=remote JSHMEM_SYMMETRIC_SIZE=64M JSHMEM_REMOTE_PROTOCOL=rma
j() { # build round
  timeout 200 mpirun -np 2 -x JSHMEM_TRANSPORT -x JSHMEM_SYMMETRIC_SIZE -x JSHMEM_REMOTE_PROTOCOL java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "/tmp/ab/$1/shmem-core-0.1.0-SNAPSHOT.jar:build/lib/*:build/mpi/mpi.jar" \
    org.jshmem.perf.PerfMain put_bw get_bw --sizes 8K,32K --reps 5 --progress=never --library $1 --csv $out/round$2-$1.csv > /dev/null 2>&1
}
for r in $(seq 1 $rounds); do
  mpirun -np 2 build/mpi_rma_anchor --min 8K --max 32K --factor 4 --reps 5 > $out/round$r-mpi.csv 2>/dev/null
  if [ $((r % 2)) = 1 ]; then j before $r; j after $r; else j after $r; j before $r; fi
  echo "round $r: $(grep -h -E '^(mpi|before|after),(put|get)_bw' $out/round$r-*.csv | awk -F, '{printf "%s %s %s %.3f; ", $1, $2, $7, $11}')"
done
