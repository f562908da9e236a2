#!/usr/bin/env bash
# Builds this project against the installed jshmem artifacts (by coordinates, no reactor) and
# runs it on 2 PEs with mpirun, with only what Maven resolved on the class path (and mpi.jar,
# which jshmem leaves to the runtime). Needs `mvn install` of jshmem first (scripts/test.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
[ -f "$root/build/env.sh" ] && . "$root/build/env.sh"
mvn -B -q -f "$here/pom.xml" package
mpi_jar=${JSHMEM_MPI_JAR:-$root/build/mpi/mpi.jar}
extra=()
if [ "$(id -u)" -eq 0 ]; then
  extra+=(--allow-run-as-root)
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
[ "$(nproc)" -lt 2 ] && extra+=(--oversubscribe)
out=$(JSHMEM_BACKEND=${JSHMEM_BACKEND:-host} JSHMEM_SYMMETRIC_SIZE=16M mpirun "${extra[@]}" -np 2 \
  java --enable-native-access=ALL-UNNAMED -Djava.library.path="${JSHMEM_MPI_LIB_DIR:-/usr/lib/x86_64-linux-gnu}" \
  -cp "$here/target/consumer.jar:$here/target/lib/*:$mpi_jar" com.example.consumer.Consumer)
echo "$out"
[ "$(grep -c '^consumer OK' <<< "$out")" -eq 2 ] || { echo "tests/consumer: expected 'consumer OK' from 2 PEs" >&2; exit 1; }
