#!/usr/bin/env bash
# Runs every example that needs no GPU under bin/jshmemrun on the host backend, and checks what
# it prints: one line per PE ending in OK, and PE 0's summary. Exits non-zero if any example
# fails. Needs jshmem built: the examples jar sits in build/lib with jshmem's.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if ! ls "$root"/build/lib/jshmem-examples-*.jar > /dev/null 2>&1; then
  echo "run-host-examples: no examples jar in build/lib; build first: mvn -B -q -DskipTests package" >&2
  exit 1
fi
export JSHMEM_BACKEND=host
export JSHMEM_SYMMETRIC_SIZE=${JSHMEM_SYMMETRIC_SIZE:-64M}

failed=()
# example NP MAIN SUMMARY [ARGS...]: runs MAIN on NP PEs; SUMMARY is a pattern PE 0's summary line matches
example() {
  local np=$1 main=$2 summary=$3 out status lines
  shift 3
  echo "[examples] $main on $np PEs"
  out=$(timeout 300 "$root/bin/jshmemrun" -np "$np" "org.jshmem.examples.$main" "$@" 2>&1)
  status=$?
  echo "$out"
  lines=$(grep -cE "^PE [0-9]+ of $np: .*OK$" <<< "$out")
  if [ "$status" -ne 0 ]; then
    echo "[examples] $main FAILED: exit status $status"
  elif [ "$lines" -ne "$np" ] || grep -qE 'WRONG|FAILED' <<< "$out" || ! grep -qE "$summary" <<< "$out"; then
    echo "[examples] $main FAILED: expected $np lines 'PE i of $np: ... OK' and a summary matching '$summary'"
    status=1
  fi
  [ "$status" -eq 0 ] || failed+=("$main")
}

example 4 Ring '^ring: 4 PEs on .*: every PE OK$'
example 4 SplitTeams '^split teams: 4 PEs, .*: every PE OK$'
example 3 SplitTeams '^split teams: 3 PEs, .*: every PE OK$'
example 3 ContextsAndLocks '^contexts and locks: 3 PEs: every PE OK$'
example 2 FusedGemmExample '^fused gemm: all_scatter 192x160x128 BF16 on 2 PEs'
example 3 FusedGemmExample '^fused gemm: all_scatter 97x61x40 BF16 on 3 PEs' 97 61 40

if [ ${#failed[@]} -gt 0 ]; then
  echo "[examples] failed: ${failed[*]}" >&2
  exit 1
fi
echo "[examples] every host example passed"
