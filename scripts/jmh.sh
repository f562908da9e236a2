#!/usr/bin/env bash
# jmh.sh - run jshmem's JMH benchmarks (host-path costs, one process, no MPI).
#
#   scripts/jmh.sh [REGEX] [JMH options]      e.g. scripts/jmh.sh Copy -p size=4096
#
# Short defaults are in the benchmarks' annotations (1 fork, 2 x 1 s warm-up, 3 x 1 s measured);
# JMH options override them (-f, -wi, -i, -w, -r, -p name=value, -rf csv -rff FILE; -h lists all,
# -l lists the benchmarks). Build first: mvn -B -q -pl tests/bench -am -DskipTests package.
set -euo pipefail
home=$(cd "$(dirname "$0")/.." && pwd)
[ -f "$home/build/env.sh" ] && . "$home/build/env.sh"
[ -f "$home/build/lib/jmh-core-1.37.jar" ] || ls "$home"/build/lib/jmh-core-*.jar >/dev/null 2>&1 \
  || { echo "jmh.sh: build/lib has no JMH; build first: mvn -B -q -pl tests/bench -am -DskipTests package" >&2; exit 1; }
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
flags=(--enable-native-access=ALL-UNNAMED)
# JMH 1.37 uses sun.misc.Unsafe, which JDK 24+ warns about at every start (forks inherit these flags)
v=$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
[ "${v%%.*}" -ge 23 ] 2>/dev/null && flags+=(--sun-misc-unsafe-memory-access=allow)
exec "$java" "${flags[@]}" -cp "$home/build/lib/*" org.openjdk.jmh.Main "$@"
