#!/usr/bin/env bash
# Starts a local OpenSearch cluster of N nodes (one JVM each) on 127.0.0.1, built from Maven Central artifacts.
#
#   start.sh --http-port P --data DIR [--nodes N] [--heap 512m] [--transport-port T] [--version V]
#            [--timeout SECONDS] [--cluster-name NAME] [-Ekey=value ...]
#   start.sh --data DIR --restart-node K     (starts node K again, as first started, after --kill-node)
#   start.sh --build-only [--version V]
#
# Node K (1..N) serves HTTP on P+K-1 and transport on T+K-1 (T defaults to P+100); its pid goes to DIR/node-K.pid,
# its folder (data, logs/opensearch.log, logs/stdout.log) is DIR/node-K/. Waits for /_cluster/health to be green
# with N nodes (yellow is enough for one node) and prints the URL http://127.0.0.1:P as the last line of stdout.
# On failure (timeout, a node exiting) prints the tail of the logs, stops what it started and exits 1.
# Environment: OPENSEARCH_VERSION (default 2.19.6), OPENSEARCH_JAVA_HOME (else JAVA_HOME, else java on PATH).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

VERSION="${OPENSEARCH_VERSION:-$OS_DEFAULT_VERSION}"
HTTP_PORT="" TRANSPORT_PORT="" DATA="" NODES=1 HEAP=512m TIMEOUT=180 CLUSTER_NAME="" BUILD_ONLY=0 RESTART=""
EXTRA=()
while (($#)); do
  case "$1" in
    --http-port) HTTP_PORT="$2"; shift 2 ;;
    --transport-port) TRANSPORT_PORT="$2"; shift 2 ;;
    --data) DATA="$2"; shift 2 ;;
    --nodes) NODES="$2"; shift 2 ;;
    --heap) HEAP="$2"; shift 2 ;;
    --version) VERSION="$2"; shift 2 ;;
    --timeout) TIMEOUT="$2"; shift 2 ;;
    --cluster-name) CLUSTER_NAME="$2"; shift 2 ;;
    --restart-node) RESTART="$2"; shift 2 ;;
    --build-only) BUILD_ONLY=1; shift ;;
    -E?*) EXTRA+=("$1"); shift ;;
    -h | --help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "start.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done

if [[ -n "$RESTART" ]]; then
  [[ -n "$DATA" && -f "$DATA/cluster.env" ]] || { echo "start.sh: --restart-node needs --data DIR of a started cluster" >&2; exit 2; }
  # shellcheck disable=SC1091
  source "$DATA/cluster.env" # VERSION HTTP_PORT TRANSPORT_PORT NODES HEAP CLUSTER_NAME EXTRA
fi

"$OS_TOOL_DIR/build.sh" --version "$VERSION"
((BUILD_ONLY)) && exit 0

[[ -n "$HTTP_PORT" && -n "$DATA" ]] || { echo "start.sh: --http-port and --data are required (see --help)" >&2; exit 2; }
[[ "$NODES" =~ ^[1-9][0-9]*$ ]] || { echo "start.sh: --nodes must be a positive integer" >&2; exit 2; }
TRANSPORT_PORT="${TRANSPORT_PORT:-$((HTTP_PORT + 100))}"
# Default name: unique per data folder, so the readiness check below never mistakes another cluster on the port for ours.
CLUSTER_NAME="${CLUSTER_NAME:-cds-opensearch-$HTTP_PORT-$(printf %s "$(realpath -m "$DATA")" | cksum | cut -d' ' -f1)}"
command -v curl >/dev/null || { echo "start.sh: curl not found" >&2; exit 1; }
pick_java "$VERSION"
mkdir -p "$DATA"
DATA="$(cd "$DATA" && pwd)"
OUT="$OS_TOOL_DIR/target/$VERSION"
CP="$OUT/classes:$(cat "$OUT/classpath.txt")"
URL="http://127.0.0.1:$HTTP_PORT"

alive() { [[ -f "$DATA/node-$1.pid" ]] && kill -0 "$(cat "$DATA/node-$1.pid")" 2>/dev/null; }

if [[ -z "$RESTART" ]]; then
  for ((k = 1; k <= NODES; k++)); do
    if alive "$k"; then echo "start.sh: node $k of $DATA is already running (pid $(cat "$DATA/node-$k.pid")); stop.sh first" >&2; exit 1; fi
  done
  {
    printf 'VERSION=%q\nHTTP_PORT=%q\nTRANSPORT_PORT=%q\nNODES=%q\nHEAP=%q\nCLUSTER_NAME=%q\n' \
      "$VERSION" "$HTTP_PORT" "$TRANSPORT_PORT" "$NODES" "$HEAP" "$CLUSTER_NAME"
    printf 'EXTRA=(%s)\n' "$(((${#EXTRA[@]})) && printf '%q ' "${EXTRA[@]}")"
  } >"$DATA/cluster.env"
elif alive "$RESTART"; then
  echo "start.sh: node $RESTART is already running" >&2; exit 1
fi

SEEDS="" MANAGERS=""
for ((k = 1; k <= NODES; k++)); do
  SEEDS+="${SEEDS:+,}127.0.0.1:$((TRANSPORT_PORT + k - 1))"
  MANAGERS+="${MANAGERS:+,}node-$k"
done
LOCALE=SPI,COMPAT # as OpenSearch 2.x's jvm.options; COMPAT is gone from Java 23, and 3.x uses CLDR
JVM_EXTRA=()
if [[ "$VERSION" != 2.* ]]; then
  LOCALE=SPI,CLDR
  JVM_EXTRA+=(--add-modules=jdk.incubator.vector --enable-native-access=ALL-UNNAMED) # Lucene 10: vector API, madvise
fi

STARTED=()
launch() { # $1 = K
  local k="$1" home="$DATA/node-$1"
  mkdir -p "$home/config" "$home/logs" "$home/data" "$home/tmp"
  cp "$OS_TOOL_DIR/config/log4j2.properties" "$home/config/"
  local settings=(
    "-Ecluster.name=$CLUSTER_NAME" "-Enode.name=node-$k"
    "-Epath.home=$home" "-Epath.data=$home/data" "-Epath.logs=$home/logs"
    "-Enetwork.host=127.0.0.1" "-Ehttp.port=$((HTTP_PORT + k - 1))" "-Etransport.port=$((TRANSPORT_PORT + k - 1))"
    "-Ehttp.type=netty4" "-Etransport.type=netty4"
    "-Ecluster.routing.allocation.disk.threshold_enabled=false"
  )
  if ((NODES == 1)); then
    settings+=("-Ediscovery.type=single-node")
  else
    settings+=("-Ediscovery.seed_hosts=$SEEDS" "-Ecluster.initial_cluster_manager_nodes=$MANAGERS")
  fi
  # setsid: the node is not in this shell's process group, so it outlives start.sh and a Ctrl-C of its caller;
  # stop.sh (by pid file) is the way to end it.
  setsid "$JAVA_BIN" "-Xms$HEAP" "-Xmx$HEAP" -Xss1m -XX:+UseG1GC -XX:-OmitStackTraceInFastThrow \
    -Djava.awt.headless=true -Dfile.encoding=UTF-8 -Djna.nosys=true "-Djava.locale.providers=$LOCALE" \
    -Dio.netty.noUnsafe=true -Dio.netty.noKeySetOptimization=true -Dio.netty.recycler.maxCapacityPerThread=0 \
    -Dio.netty.allocator.numDirectArenas=0 -Dlog4j.shutdownHookEnabled=false -Dlog4j2.disable.jmx=true \
    "-Djava.io.tmpdir=$home/tmp" "-XX:ErrorFile=$home/logs/hs_err_pid%p.log" ${JVM_EXTRA[@]+"${JVM_EXTRA[@]}"} \
    -cp "$CP" org.cds.opensearch.Launcher "${settings[@]}" ${EXTRA[@]+"${EXTRA[@]}"} \
    </dev/null >"$home/logs/stdout.log" 2>&1 &
  echo $! >"$DATA/node-$k.pid"
  STARTED+=("$k")
}

fail() {
  echo "start.sh: $1" >&2
  local k
  for k in "${STARTED[@]}"; do
    local log="$DATA/node-$k/logs/opensearch.log" out="$DATA/node-$k/logs/stdout.log"
    echo "---- node-$k: errors and tail of $log ----" >&2
    if [[ -s "$log" ]]; then
      grep -E '^\[[^]]*\]\[(ERROR|FATAL)' "$log" | head -n 5 | cut -c1-400 >&2 || true
      echo "..." >&2
      grep -vE '^[[:space:]]+(at |\.\.\. [0-9]+ more)' "$log" | tail -n 15 | cut -c1-400 >&2
    fi
    if [[ -s "$out" ]]; then echo "---- node-$k: tail of $out ----" >&2; tail -n 15 "$out" >&2; fi
  done
  for k in "${STARTED[@]}"; do "$OS_TOOL_DIR/stop.sh" --data "$DATA" --kill-node "$k" >/dev/null 2>&1 || true; done
  exit 1
}
trap 'fail "interrupted"' INT TERM

T0=$(date +%s)
if [[ -n "$RESTART" ]]; then launch "$RESTART"; else for ((k = 1; k <= NODES; k++)); do launch "$k"; done; fi

# Ready: every node started answers HTTP, and the cluster is green with all N nodes (yellow for one node, or
# after a restart, when a restarted node's shards may still be recovering).
WANT=green
((NODES == 1)) && WANT=yellow
[[ -n "$RESTART" ]] && WANT=yellow
while :; do
  for k in "${STARTED[@]}"; do
    alive "$k" || fail "node-$k exited during startup"
  done
  if health="$(curl -sf --max-time 5 "http://127.0.0.1:$((HTTP_PORT + STARTED[-1] - 1))/_cluster/health?wait_for_status=$WANT&wait_for_nodes=$NODES&timeout=2s" 2>/dev/null)" &&
    [[ "$health" == *'"cluster_name":"'"$CLUSTER_NAME"'"'* && "$health" == *'"timed_out":false'* ]]; then
    break
  fi
  (($(date +%s) - T0 >= TIMEOUT)) && fail "cluster not ready (want $WANT, $NODES nodes) within ${TIMEOUT}s; last health: ${health:-none}"
  sleep 0.5
done
trap - INT TERM
echo "opensearch $VERSION: $NODES node(s) ready in $(($(date +%s) - T0))s, data $DATA" >&2
echo "$URL"
