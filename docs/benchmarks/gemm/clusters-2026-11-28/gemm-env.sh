# Sourced by the call scripts, from .devpack on the GPU machine: the class path and one GEMM run.
here=$(pwd)
out=${OUT:-/tmp/jshmem-out}
export JSHMEM_MPI_JAR=$here/mpi.jar JSHMEM_MPI_LIB_DIR=/usr/lib/x86_64-linux-gnu
cp="$here/lib/*:$here/mpi.jar"
# gemm DTYPE CLUSTER SHAPES TAG [more GemmMain options]: the GEMM alone on one PE, validated, CSV per tag
gemm() {
  local dt=$1 cl=$2 shapes=$3 tag=$4; shift 4
  echo "== gemm alone $dt cluster $cl ($tag) $shapes"
  env JSHMEM_BACKEND=cuda JSHMEM_SYMMETRIC_SIZE=3G timeout 300 mpirun -np 1 java --enable-native-access=ALL-UNNAMED \
    -Djava.library.path=/usr/lib/x86_64-linux-gnu -cp "$cp" org.jshmem.gemm.cli.GemmMain -c none --shapes "$shapes" \
    --dtype "$dt" --validate --iters 20 --warmup 5 --cluster "$cl" "$@" --csv "$out/gemm-$tag.csv" 2>&1 \
    | tee -a "$out/gemm-$tag.log" | grep -v "^\s*$" | tail -n 40
}
