#!/usr/bin/env bash
# The README's test command.
#   scripts/test.sh [mvn options]   sets up what is missing (hipcc too, for the HIP compile check), builds
#                                   everything and runs every test: unit tests, the multi-PE tests (real
#                                   mpirun jobs of 1 to 8 PEs), the host examples, an outside project built
#                                   against the installed jars, the kernels' compile checks, the layering
#                                   and hygiene checks. CI runs this one.
#   scripts/test.sh --quick         once built: the unit tests, one 2-PE smoke job per backend path, and
#                                   the layering and hygiene checks; the check to run between edits.
# On a GPU machine the GPU suite runs through scripts/device/gpu-run.sh instead.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
quick=0
mvn_args=()
for a in "$@"; do
  case $a in
    --quick) quick=1 ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) mvn_args+=("$a") ;;
  esac
done
# each step with the time since the start (minutes:seconds), to show where the time goes
step() { printf '\n[test %d:%02d] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*"; }

# The checks that read sources only come first: they fail in a second, not after the build.
step "layering (docs/architecture.md) and hygiene (docs/README.md, docs/configuration.md)"
python3 scripts/check-layers.py
python3 scripts/check-hygiene.py

if [ "$quick" -eq 1 ]; then
  [ -f build/env.sh ] && [ -d build/lib ] || { echo "test.sh --quick: nothing is built yet; run scripts/test.sh once" >&2; exit 1; }
  . build/env.sh
  step "unit tests and the 2-PE smoke jobs"
  # each module's test count, and any failure
  set +e
  # (without the PEs' start-up cache: making it costs more than a few jobs save)
  mvn -B -o test -Djshmem.it.groups=smoke -Djshmem.it.aotCache= "${mvn_args[@]}" | grep -E '^\[(INFO|WARNING|ERROR)\] (Tests run:|BUILD|.*FAIL)|^\[ERROR\]' \
    | grep -v ' -- in '
  status=${PIPESTATUS[0]}
  set -e
  [ "$status" -eq 0 ] || { echo "[test] the quick check failed (above)" >&2; exit 1; }
  echo "[test] quick check passed"
  exit 0
fi

scripts/setup.sh --hip
. build/env.sh
# The kernels' compile checks need no build of ours: they run beside the Maven build and report at the
# end. At the lowest priority: the native build must not wait for them, and the multi-PE jobs leave
# cores idle while they wait.
step "kernel compile checks (in the background, at low priority)"
checks=$(mktemp -d)
trap 'rm -rf "$checks"' EXIT
(nice -n 19 scripts/compile-check.sh > "$checks/log" 2>&1; echo $? > "$checks/rc"; echo $SECONDS > "$checks/end") &
compile_check=$!
step "build, unit and multi-PE tests; install for tests/consumer"
# The HIP libraries at -O0: nothing here runs them, and -O3 takes minutes more on the build's critical path.
# No javadoc or source jars: tests/consumer needs the classes alone (the javadoc is not linted).
mvn -B install -Djshmem.hip.opt=-O0 -Dmaven.javadoc.skip=true -Dmaven.source.skip=true "${mvn_args[@]}"
step "host examples"
tests/examples/run-host-examples.sh
step "an outside project built against the installed jars"
tests/consumer/run.sh
wait "$compile_check" || true
end=$(cat "$checks/end")
step "kernel compile checks (done at $((end / 60)):$(printf %02d $((end % 60))))"
cat "$checks/log"
[ "$(cat "$checks/rc")" -eq 0 ] || { echo "[test] the kernels' compile check failed (above)" >&2; exit 1; }
echo "[test] every test passed in $((SECONDS / 60)):$(printf %02d $((SECONDS % 60)))"
