#!/usr/bin/env bash
# jmh.sh - run jshmem's JMH benchmarks (host-path costs, one process, no MPI).
#
#   scripts/jmh.sh [REGEX] [JMH options]      e.g. scripts/jmh.sh Copy -p size=4096
#
# Short defaults are in the benchmarks' annotations (1 fork, 2 x 1 s warm-up, 3 x 1 s measured);
# JMH options override them (-f, -wi, -i, -w, -r, -p name=value, -rf csv -rff FILE; -h lists all,
# -l lists the benchmarks). Build first: mvn -B -q -pl tests -am -DskipTests package.
set -euo pipefail
home=$(cd "$(dirname "$0")/.." && pwd)
[ -f "$home/build/env.sh" ] && . "$home/build/env.sh"
[ -f "$home/build/lib/jmh-core-1.37.jar" ] || ls "$home"/build/lib/jmh-core-*.jar >/dev/null 2>&1 \
  || { echo "jmh.sh: build/lib has no JMH; build first: mvn -B -q -pl tests -am -DskipTests package" >&2; exit 1; }
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
exec "$java" --enable-native-access=ALL-UNNAMED -cp "$home/build/lib/*" org.openjdk.jmh.Main "$@"
