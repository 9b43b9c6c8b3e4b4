#!/usr/bin/env bash
# Stops the local OpenSearch node that scripts/opensearch/start.sh started for OPENSEARCH_PORT,
# and waits until its process is gone (SIGTERM, then SIGKILL after OPENSEARCH_STOP_TIMEOUT s).
# A no-op when it is not running. Never touches a process that start.sh did not start: the pid
# must carry start.sh's marker (-Dtaxcert.opensearch.home=<node folder>) on its command line.
#
# Environment: OPENSEARCH_PORT (default 9200), OPENSEARCH_DATA_DIR (as for start.sh),
#              OPENSEARCH_STOP_TIMEOUT (default 60; a stop takes well under a second, but the first
#              stop of a node folder writes its class data sharing archive: about 10 s)
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/../.." && pwd)"
CACHE_DIR="${OPENSEARCH_CACHE_DIR:-$REPO_ROOT/.cache}"
PORT="${OPENSEARCH_PORT:-9200}"
DATA_DIR="${OPENSEARCH_DATA_DIR:-$CACHE_DIR/opensearch/node-$PORT}"
STOP_TIMEOUT="${OPENSEARCH_STOP_TIMEOUT:-60}"

if [[ ! -d "$DATA_DIR" ]]; then
  echo "opensearch: no node folder $DATA_DIR; nothing to stop"
  exit 0
fi
DATA_DIR="$(cd "$DATA_DIR" && pwd)"
PID_FILE="$DATA_DIR/opensearch.pid"
MARKER="-Dtaxcert.opensearch.home=$DATA_DIR"

is_ours() { # $1 pid: alive, and started by start.sh for this node folder
  [[ "$1" =~ ^[0-9]+$ ]] && tr '\0' '\n' <"/proc/$1/cmdline" 2>/dev/null | grep -qxF -- "$MARKER"
}

pids=()
pid="$(cat "$PID_FILE" 2>/dev/null || true)"
if is_ours "$pid"; then
  pids+=("$pid")
else
  # Pid file missing or stale: look for a process carrying this node folder's exact marker.
  for d in /proc/[0-9]*; do
    p="${d#/proc/}"
    [[ "$p" == "$$" ]] && continue
    if is_ours "$p"; then pids+=("$p"); fi
  done
fi

if ((${#pids[@]} == 0)); then
  rm -f "$PID_FILE"
  echo "opensearch: no node running for port $PORT ($DATA_DIR); nothing to stop"
  exit 0
fi

running() { # $1 pid: exists and has not yet exited (a zombie left for init to reap has exited)
  local st
  st="$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' "/proc/$1/status" 2>/dev/null || true)"
  [[ -n "$st" && "$st" != Z && "$st" != X ]]
}
alive() { local p; for p in "${pids[@]}"; do running "$p" && return 0; done; return 1; }

echo "opensearch: stopping node for port $PORT (pid ${pids[*]})"
kill -TERM "${pids[@]}" 2>/dev/null || true
deadline=$((SECONDS + STOP_TIMEOUT))
while alive && ((SECONDS < deadline)); do sleep 0.2; done
if alive; then
  echo "opensearch: still running after $STOP_TIMEOUT s; sending SIGKILL" >&2
  kill -KILL "${pids[@]}" 2>/dev/null || true
  deadline=$((SECONDS + 10))
  while alive && ((SECONDS < deadline)); do sleep 0.2; done
  if alive; then
    echo "opensearch: pid ${pids[*]} would not die" >&2
    exit 1
  fi
fi
rm -f "$PID_FILE"
echo "opensearch: stopped"
