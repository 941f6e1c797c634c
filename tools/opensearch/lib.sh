# Shared by build.sh, start.sh and stop.sh (sourced, not run).
OS_TOOL_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OS_DEFAULT_VERSION=2.19.6

# Echoes the Java feature version (17, 21, 25, ...) of the java binary $1.
java_major() {
  "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p' | cut -d. -f1
}

# Sets JAVA_BIN (and exports JAVA_HOME for Maven) for OpenSearch version $1: 2.x runs on Java 17+, 3.x on 21+.
# Order: $OPENSEARCH_JAVA_HOME, $JAVA_HOME, java on PATH, then any JDK under /usr/lib/jvm new enough.
pick_java() {
  local need=17 cand home
  [[ "$1" == 2.* ]] || need=21
  for home in "${OPENSEARCH_JAVA_HOME:-}" "${JAVA_HOME:-}" "$(dirname "$(dirname "$(readlink -f "$(command -v java || echo /nonexistent/bin/java)")")")" /usr/lib/jvm/*; do
    cand="$home/bin/java"
    [[ -n "$home" && -x "$cand" && -x "$home/bin/javac" ]] || continue
    if (( $(java_major "$cand") >= need )); then
      JAVA_BIN="$cand"
      export JAVA_HOME="$home"
      return 0
    fi
  done
  echo "opensearch: no JDK >= $need found (set OPENSEARCH_JAVA_HOME)" >&2
  return 1
}
