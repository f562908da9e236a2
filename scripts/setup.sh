#!/usr/bin/env bash
# Sets up what jshmem needs on a Debian/Ubuntu machine, installing only what is missing:
#   - OpenMPI (openmpi-bin, libopenmpi-dev; libmpi_java.so comes with libopenmpi3)
#   - OpenMPI's Java bindings jar, which Debian does not ship: built from Debian's openmpi
#     source package (the same version as the installed library) into build/mpi/mpi.jar and
#     installed into the local Maven repository as org.open-mpi:mpi-java
#   - a JDK 22+ (found, not installed: JAVA_HOME, then /usr/lib/jvm)
#   - with --hip: Debian's hipcc, to compile-check the HIP build of the native parts
# Writes build/env.sh (JAVA_HOME, PATH) for the other scripts. Safe to run again.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
want_hip=0
for a in "$@"; do
  case $a in
    --hip) want_hip=1 ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "setup.sh: unknown option $a (try --help)" >&2; exit 2 ;;
  esac
done
say() { echo "[jshmem setup] $*"; }
die() { echo "[jshmem setup] ERROR: $*" >&2; exit 1; }

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || die "not root and no sudo: install openmpi-bin and libopenmpi-dev by hand, or run as root"
  sudo_cmd=(sudo)
fi
apt_updated=0
apt_install() {
  command -v apt-get >/dev/null || die "apt-get not found: this script supports Debian and Ubuntu; install $* by hand"
  if [ $apt_updated -eq 0 ]; then "${sudo_cmd[@]}" apt-get update -q >/dev/null; apt_updated=1; fi
  say "installing $*"
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "$@" >/dev/null
}

# 1. OpenMPI
mpi_lib_dir=
find_mpi_java_so() {
  for d in /usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu /usr/lib64 /usr/lib; do
    [ -e "$d/libmpi_java.so" ] || [ -e "$d/libmpi_java.so.40" ] && { mpi_lib_dir=$d; return 0; }
  done
  return 1
}
if ! command -v mpirun >/dev/null || ! command -v mpicc >/dev/null || ! find_mpi_java_so; then
  apt_install openmpi-bin libopenmpi-dev
  find_mpi_java_so || die "libmpi_java.so not found after installing OpenMPI"
fi
say "OpenMPI: $(mpirun --version 2>/dev/null | head -1), Java native part in $mpi_lib_dir"

# 2. JDK 22+
java_major() { "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p'; }
jdk=
for cand in "${JAVA_HOME:-}" /usr/lib/jvm/temurin-2[2-9]* /usr/lib/jvm/java-2[2-9]* /usr/lib/jvm/jdk-2[2-9]* /usr/lib/jvm/*; do
  [ -n "$cand" ] && [ -x "$cand/bin/javac" ] || continue
  v=$(java_major "$cand"); [ -n "$v" ] && [ "${v%%.*}" -ge 22 ] 2>/dev/null && { jdk=$cand; break; }
done
[ -n "$jdk" ] || die "no JDK 22 or newer found (JAVA_HOME=${JAVA_HOME:-unset}, /usr/lib/jvm). Install one, e.g. Temurin 25, and set JAVA_HOME."
say "JDK: $jdk (Java $(java_major "$jdk"))"

# 3. OpenMPI Java bindings jar, from the source of the installed OpenMPI version
mpi_jar=$root/build/mpi/mpi.jar
mpi_pkg_version=$(dpkg-query -W -f='${Version}' libopenmpi3 2>/dev/null || true)
[ -n "$mpi_pkg_version" ] || die "libopenmpi3 is not installed (dpkg-query); cannot tell which OpenMPI source to build the Java bindings from"
stamp=$root/build/mpi/VERSION
if [ ! -s "$mpi_jar" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$mpi_pkg_version" ]; then
  say "building the OpenMPI Java bindings jar from Debian's openmpi $mpi_pkg_version source"
  src_list=/etc/apt/sources.list.d/jshmem-deb-src.sources
  apt_sources=(-r --include='*.list' --include='*.sources' /etc/apt/sources.list.d)
  [ -f /etc/apt/sources.list ] && apt_sources+=(/etc/apt/sources.list)
  if ! grep -qsE '^(Types:.*deb-src|deb-src )' "${apt_sources[@]}"; then
    codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
    [ -n "$codename" ] || die "cannot tell the Debian release (VERSION_CODENAME) to add a deb-src entry"
    # the mirror of an active entry (not of a comment): "URIs: <uri>" (deb822) or "deb <uri> ..."
    uri=$({ grep -hsE '^(URIs:|deb) ' "${apt_sources[@]}" || true; } | grep -oE 'https?://[^ ]+/debian/?' | head -1 || true)
    say "adding a deb-src entry for $codename (${uri:-http://deb.debian.org/debian})"
    printf 'Types: deb-src\nURIs: %s\nSuites: %s %s-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
      "${uri:-http://deb.debian.org/debian}" "$codename" "$codename" | "${sudo_cmd[@]}" tee "$src_list" >/dev/null
    apt_updated=0
  fi
  [ $apt_updated -eq 1 ] || { "${sudo_cmd[@]}" apt-get update -q >/dev/null; apt_updated=1; }
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && apt-get source --download-only -q "openmpi=$mpi_pkg_version" >/dev/null 2>&1) \
    || (cd "$work" && apt-get source --download-only -q openmpi >/dev/null 2>&1) \
    || die "apt-get source openmpi failed: check that a deb-src entry for your release is configured"
  orig=$(ls "$work"/openmpi_*.orig.tar.* | head -1)
  tar -xf "$orig" -C "$work" --wildcards '*/ompi/mpi/java/java/*.java'
  java_src=$(ls -d "$work"/openmpi-*/ompi/mpi/java/java)
  mkdir -p "$work/classes" "$(dirname "$mpi_jar")"
  "$jdk/bin/javac" -nowarn -encoding UTF-8 --release 11 -d "$work/classes" "$java_src"/*.java 2>&1 | grep -v '^Note:' || true
  [ -f "$work/classes/mpi/MPI.class" ] || die "compiling the OpenMPI Java bindings failed"
  printf 'Implementation-Title: OpenMPI Java bindings\nImplementation-Version: %s\nEnable-Native-Access: ALL-UNNAMED\n' "$mpi_pkg_version" > "$work/manifest"
  "$jdk/bin/jar" --create --file "$mpi_jar" --manifest "$work/manifest" -C "$work/classes" .
  echo "$mpi_pkg_version" > "$stamp"
  rm -f "$root/build/mpi/.installed"
fi
say "OpenMPI Java bindings: $mpi_jar"

# 4. Make the jar visible to Maven (compile-time dependency of the bootstrap)
if [ ! -f "$root/build/mpi/.installed" ]; then
  command -v mvn >/dev/null || die "Maven (mvn) not found: install it (apt-get install maven)"
  (cd / && JAVA_HOME=$jdk MAVEN_OPTS="--sun-misc-unsafe-memory-access=allow" mvn -q -B install:install-file -Dfile="$mpi_jar" -DgroupId=org.open-mpi \
    -DartifactId=mpi-java -Dversion=4.1 -Dpackaging=jar >/dev/null) \
    || die "mvn install:install-file of $mpi_jar failed"
  touch "$root/build/mpi/.installed"
fi

# 5. Optional: hipcc for the HIP compile check
if [ $want_hip -eq 1 ] && ! command -v hipcc >/dev/null; then
  apt_install hipcc libamdhip64-dev
fi

cat > "$root/build/env.sh" <<ENV
# written by scripts/setup.sh
export JAVA_HOME=$jdk
export PATH=$jdk/bin:\$PATH
export JSHMEM_MPI_JAR=$mpi_jar
export JSHMEM_MPI_LIB_DIR=$mpi_lib_dir
# Maven's own libraries warn about sun.misc.Unsafe on JDK 24+; this keeps its output readable.
export MAVEN_OPTS="\${MAVEN_OPTS:---sun-misc-unsafe-memory-access=allow}"
ENV
say "ready (environment in build/env.sh)"
