#!/usr/bin/env bash
# Builds the launcher for one OpenSearch version: target/<version>/classes and target/<version>/classpath.txt.
# Usage: build.sh [--version V]   (or OPENSEARCH_VERSION=V). Offline when Maven's local repository already has
# everything; online (Maven Central) otherwise. A no-op when the build is newer than its sources. Safe to run in parallel.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

VERSION="${OPENSEARCH_VERSION:-$OS_DEFAULT_VERSION}"
while (($#)); do
  case "$1" in
    --version) VERSION="$2"; shift 2 ;;
    -h | --help) sed -n '2,4p' "$0"; exit 0 ;;
    *) echo "build.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

OUT="$OS_TOOL_DIR/target/$VERSION"
up_to_date() {
  [[ -s "$OUT/classpath.txt" && -f "$OUT/classes/org/cds/opensearch/Launcher.class" ]] || return 1
  [[ -z "$(find "$OS_TOOL_DIR/pom.xml" "$OS_TOOL_DIR/src" -newer "$OUT/classpath.txt" -type f -print -quit)" ]] || return 1
  # The classpath names jars in Maven's local repository: one removed since (a cleaned ~/.m2) means building again.
  local jar
  while IFS= read -r jar; do
    [[ -z "$jar" || -f "$jar" ]] || return 1
  done < <(tr ':' '\n' <"$OUT/classpath.txt")
}
up_to_date && exit 0

command -v mvn >/dev/null || { echo "build.sh: mvn not found on PATH" >&2; exit 1; }
pick_java "$VERSION"
RELEASE=17
[[ "$VERSION" == 2.* ]] || RELEASE=21

mkdir -p "$OS_TOOL_DIR/target"
exec 9>"$OS_TOOL_DIR/target/.build.lock"
flock 9 # a concurrent build of the same tree waits here, then finds the work done
up_to_date && exit 0

MVN=(mvn -B -q -f "$OS_TOOL_DIR/pom.xml" "-Dopensearch.version=$VERSION" "-Dmaven.compiler.release=$RELEASE" compile)
LOG="$OS_TOOL_DIR/target/build-$VERSION.log"
if ! "${MVN[@]:0:2}" -o "${MVN[@]:2}" >"$LOG" 2>&1; then
  echo "opensearch: building the launcher for $VERSION (downloading from Maven Central)..." >&2
  if ! "${MVN[@]}" >"$LOG" 2>&1; then
    tail -n 40 "$LOG" >&2
    echo "build.sh: Maven build failed (log: $LOG)" >&2
    exit 1
  fi
fi
touch "$OUT/classpath.txt"
