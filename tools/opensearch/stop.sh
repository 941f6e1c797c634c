#!/usr/bin/env bash
# Stops the OpenSearch nodes that start.sh started in DIR, by their pid files, and waits for them to exit.
#
#   stop.sh --data DIR [--timeout SECONDS]   SIGTERM every node (a clean close), SIGKILL after the timeout (30s)
#   stop.sh --data DIR --kill-node K         SIGKILL node K alone (fault tests); the others keep running
#
# A pid is only signalled while it is still that node's launcher (checked in /proc), never a recycled pid.
# Data and logs stay in DIR; remove the folder yourself.
set -euo pipefail

DATA="" KILL="" TIMEOUT=30
while (($#)); do
  case "$1" in
    --data) DATA="$2"; shift 2 ;;
    --kill-node) KILL="$2"; shift 2 ;;
    --timeout) TIMEOUT="$2"; shift 2 ;;
    -h | --help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "stop.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ -n "$DATA" ]] || { echo "stop.sh: --data DIR is required" >&2; exit 2; }
[[ -d "$DATA" ]] || exit 0
DATA="$(cd "$DATA" && pwd)"

# Echoes node K's pid when that process is running and is node K's launcher.
node_pid() {
  local f="$DATA/node-$1.pid" pid
  [[ -f "$f" ]] || return 1
  pid="$(cat "$f")"
  [[ "$pid" =~ ^[0-9]+$ && -r "/proc/$pid/cmdline" ]] || return 1
  [[ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" != Z ]] || return 1
  tr '\0' '\n' <"/proc/$pid/cmdline" | grep -qxF -- "-Epath.home=$DATA/node-$1" || return 1
  echo "$pid"
}

# Waits until none of the given pids runs; 1 when some still run after $1 seconds.
wait_gone() {
  local deadline=$((SECONDS + $1)) p left
  shift
  while :; do
    left=0
    for p in "$@"; do
      if kill -0 "$p" 2>/dev/null && [[ "$(awk '{print $3}' "/proc/$p/stat" 2>/dev/null)" != Z ]]; then left=1; fi
    done
    ((left)) || return 0
    ((SECONDS < deadline)) || return 1
    sleep 0.2
  done
}

if [[ -n "$KILL" ]]; then
  if pid="$(node_pid "$KILL")"; then
    kill -KILL "$pid"
    wait_gone 10 "$pid" || { echo "stop.sh: node-$KILL (pid $pid) survived SIGKILL" >&2; exit 1; }
    echo "killed node-$KILL (pid $pid)" >&2
  else
    echo "stop.sh: node-$KILL of $DATA is not running" >&2
  fi
  rm -f "$DATA/node-$KILL.pid"
  exit 0
fi

PIDS=() NAMES=()
for f in "$DATA"/node-*.pid; do
  [[ -e "$f" ]] || continue
  k="${f##*/node-}" k="${k%.pid}"
  if pid="$(node_pid "$k")"; then
    kill -TERM "$pid" 2>/dev/null || true
    PIDS+=("$pid") NAMES+=("node-$k")
  fi
done
if ((${#PIDS[@]})) && ! wait_gone "$TIMEOUT" "${PIDS[@]}"; then
  echo "stop.sh: nodes still running after ${TIMEOUT}s; SIGKILL" >&2
  kill -KILL "${PIDS[@]}" 2>/dev/null || true
  wait_gone 10 "${PIDS[@]}" || true
fi
rm -f "$DATA"/node-*.pid
((${#PIDS[@]})) && echo "stopped ${NAMES[*]}" >&2
exit 0
