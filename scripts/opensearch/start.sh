#!/usr/bin/env bash
# Starts a local single-node OpenSearch 3.8 (plain HTTP, no security plugin, bound to 127.0.0.1
# only) in the background and waits until its cluster health is yellow or green.
# If an OpenSearch already answers on the port, this is a no-op.
#
# Environment:
#   OPENSEARCH_PORT           HTTP port (default 9200), any free port above 1024; the cluster is
#                             named taxcert-<port>
#   OPENSEARCH_TRANSPORT_PORT transport port (default: a free loopback port chosen at launch)
#   OPENSEARCH_HEAP           JVM heap, -Xms and -Xmx (default 1g)
#   OPENSEARCH_DATA_DIR       node folder: config, data, logs, pid (default <repo>/.cache/opensearch/node-<port>)
#   OPENSEARCH_JAVA_HOME      a JDK >= 21 to use (default: the newest Temurin >= 21 under /usr/lib/jvm)
#   OPENSEARCH_JAVA_OPTS      extra JVM options, appended
#   OPENSEARCH_START_TIMEOUT  seconds to wait for health (default 120)
#   OPENSEARCH_CDS            1/0: class data sharing archive on/off (default on, off when CI=true; see below)
#   OPENSEARCH_NODES          nodes in the cluster (default 1). Above 1, the runner's node-count option
#                             starts them in one JVM on HTTP ports PORT, PORT+1, ...; health waits
#                             until all have joined (a test cluster for node-loss tests)
#   OPENSEARCH_CONTROL_PORT   with OPENSEARCH_NODES > 1: a loopback port where POST /nodes/<i>/stop
#                             and /nodes/<i>/start take one node away and bring it back (NodeLauncher.java)
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/../.." && pwd)"
CACHE_DIR="${OPENSEARCH_CACHE_DIR:-$REPO_ROOT/.cache}"
PORT="${OPENSEARCH_PORT:-9200}"
HEAP="${OPENSEARCH_HEAP:-1g}"
DATA_DIR="${OPENSEARCH_DATA_DIR:-$CACHE_DIR/opensearch/node-$PORT}"
TIMEOUT="${OPENSEARCH_START_TIMEOUT:-120}"
CLUSTER="taxcert-$PORT"
LIB_DIR="$CACHE_DIR/opensearch/lib"
URL="http://127.0.0.1:$PORT"
MIN_JAVA=21
NODES="${OPENSEARCH_NODES:-1}"
if ! [[ "$NODES" =~ ^[1-9]$ ]]; then
  echo "opensearch: OPENSEARCH_NODES must be 1 to 9, got '$NODES'" >&2
  exit 2
fi

if ! [[ "$PORT" =~ ^[0-9]+$ ]] || ((PORT < 1025 || PORT > 65535)); then
  echo "opensearch: OPENSEARCH_PORT must be a port number above 1024, got '$PORT'" >&2
  exit 2
fi
mkdir -p "$DATA_DIR"
DATA_DIR="$(cd "$DATA_DIR" && pwd)"
PID_FILE="$DATA_DIR/opensearch.pid"
LOG_FILE="$DATA_DIR/opensearch.log"
# Put on the java command line, so that stop.sh can tell our node from any other process.
MARKER="-Dtaxcert.opensearch.home=$DATA_DIR"

# Prints the cluster health JSON, or fails when nothing answers.
health() { curl -fsS --max-time 3 "$URL/_cluster/health" 2>/dev/null; }
status_of() { sed -n 's/.*"status" *: *"\([a-z]*\)".*/\1/p'; }
version_of() { curl -fsS --max-time 3 "$URL/" 2>/dev/null | tr -d '\n ' | sed -n 's/.*"number":"\([^"]*\)".*/\1/p'; }
cluster_of() { sed -n 's/.*"cluster_name" *: *"\([^"]*\)".*/\1/p'; }
nodes_of() { local n; n="$(sed -n 's/.*"number_of_nodes" *: *\([0-9]*\).*/\1/p')"; echo "${n:-0}"; }

node_pid() { # the pid from the pid file, if that process is alive and is our node
  local pid
  pid="$(cat "$PID_FILE" 2>/dev/null || true)"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  tr '\0' '\n' <"/proc/$pid/cmdline" 2>/dev/null | grep -qxF -- "$MARKER" || return 1
  echo "$pid"
}

running() { # $1 pid: exists and has not exited (a zombie not yet reaped has exited)
  local st
  st="$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' "/proc/$1/status" 2>/dev/null || true)"
  [[ -n "$st" && "$st" != Z && "$st" != X ]]
}

port_in_use() {
  [[ -n "$(ss -Hltn "( sport = :$PORT )" 2>/dev/null)" ]]
}

java_major() { # major version of the JDK in $1, or nothing
  local v
  v="$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" 2>/dev/null || true)"
  if [[ -z "$v" && -x "$1/bin/java" ]]; then
    v="$("$1/bin/java" -version 2>&1 | sed -n '1s/.*version "\([0-9]*\).*/\1/p')"
  fi
  echo "$v"
}

find_java_home() {
  local d m best="" best_major=0
  if [[ -n "${OPENSEARCH_JAVA_HOME:-}" ]]; then
    m="$(java_major "$OPENSEARCH_JAVA_HOME")"
    if [[ -x "$OPENSEARCH_JAVA_HOME/bin/java" && -n "$m" ]] && ((m >= MIN_JAVA)); then
      echo "$OPENSEARCH_JAVA_HOME"
      return 0
    fi
    echo "opensearch: OPENSEARCH_JAVA_HOME=$OPENSEARCH_JAVA_HOME is not a JDK >= $MIN_JAVA" >&2
    return 1
  fi
  # Temurin first (the machine's second JDK); then any other JDK that is new enough.
  for pass in temurin other; do
    for d in /usr/lib/jvm/*/ ${JAVA_HOME:+"$JAVA_HOME/"}; do
      d="${d%/}"
      case "$pass:$(basename "$d")" in
        temurin:temurin-*) ;;
        temurin:*) continue ;;
        other:temurin-*) continue ;;
      esac
      [[ -x "$d/bin/java" ]] || continue
      m="$(java_major "$d")"
      [[ -n "$m" ]] || continue
      if ((m >= MIN_JAVA && m > best_major)); then best="$d" best_major=$m; fi
    done
    if [[ -n "$best" ]]; then
      echo "$best"
      return 0
    fi
  done
  echo "opensearch: no JDK >= $MIN_JAVA found under /usr/lib/jvm (OpenSearch 3.x needs Java $MIN_JAVA+;" \
    "the default OpenJDK 17 is too old). Install one or set OPENSEARCH_JAVA_HOME." >&2
  return 1
}

# The node's own reason for failing, last on the console whatever the log's tail holds: the
# launcher's one-line summary, else the log's last ERROR or exception line.
show_reason() {
  local reason
  reason="$(grep -a 'node-launcher: failed: ' "$LOG_FILE" 2>/dev/null | tail -n 1 | sed 's/.*node-launcher: failed: //')"
  [[ -n "$reason" ]] || reason="$(grep -aE '\[ERROR\]|Exception: ' "$LOG_FILE" 2>/dev/null | tail -n 1)"
  [[ -n "$reason" ]] && echo "opensearch: the node failed to start: $reason" >&2
  return 0
}

started=$SECONDS
wait_ready() { # $1: pid to watch (or empty: a node this run did not launch)
  local pid="${1:-}" h st deadline=$((SECONDS + TIMEOUT))
  while ((SECONDS < deadline)); do
    if h="$(health)"; then
      st="$(status_of <<<"$h")"
      if [[ ("$st" == green || "$st" == yellow) && "$(nodes_of <<<"$h")" -ge "$NODES" ]]; then
        if [[ -n "$pid" ]]; then
          echo "opensearch: OpenSearch $(version_of) ready at $URL (cluster $(cluster_of <<<"$h"), status $st, pid $pid, $((SECONDS - started)) s)"
        else
          echo "opensearch: OpenSearch $(version_of) already running at $URL (cluster $(cluster_of <<<"$h"), status $st); not starting another"
        fi
        return 0
      fi
    fi
    if [[ -n "$pid" ]] && ! running "$pid"; then
      echo "opensearch: the node (pid $pid) exited before it was ready; last lines of $LOG_FILE:" >&2
      tail -n 40 "$LOG_FILE" >&2 || true
      show_reason
      rm -f "$PID_FILE"
      return 1
    fi
    sleep 0.5
  done
  echo "opensearch: no yellow/green cluster health at $URL after $TIMEOUT s; last lines of $LOG_FILE:" >&2
  tail -n 40 "$LOG_FILE" >&2 || true
  show_reason
  return 1
}

# 1. Something already answers with a cluster health: nothing to start (wait for yellow/green).
if health >/dev/null; then
  wait_ready ""
  exit 0
fi

# 2. One starter per node folder at a time; whoever comes second waits, then finds it running.
exec 9>"$DATA_DIR/.start.lock"
flock -w "$((TIMEOUT + 30))" 9 || { echo "opensearch: timed out waiting for another start.sh on $DATA_DIR" >&2; exit 1; }
if health >/dev/null; then
  wait_ready ""
  exit 0
fi
if pid="$(node_pid)"; then # launched, but not answering yet
  echo "opensearch: node (pid $pid) is already starting; waiting for it"
  wait_ready "$pid"
  exit 0
fi
rm -f "$PID_FILE"
if port_in_use; then
  echo "opensearch: port $PORT is in use by something that does not answer as OpenSearch:" >&2
  ss -Hltnp "( sport = :$PORT )" >&2 || true
  exit 1
fi

# 3. Jars and a JDK.
bash "$SCRIPT_DIR/install.sh"
JAVA_HOME_OS="$(find_java_home)"
JAVA="$JAVA_HOME_OS/bin/java"
JAVA_MAJOR="$(java_major "$JAVA_HOME_OS")"

# The launcher (NodeLauncher.java), compiled once per source version into a jar in the cache: run
# from source, the JVM's class data sharing archive never matched (nor does it accept a folder
# of classes on the class path) and was rebuilt at every stop.
LAUNCHER_SRC="$SCRIPT_DIR/NodeLauncher.java"
LAUNCHER_JAR="$CACHE_DIR/opensearch/launcher/node-launcher-$(sha256sum "$LAUNCHER_SRC" | cut -c1-12)-java$JAVA_MAJOR.jar"
if [[ ! -f "$LAUNCHER_JAR" ]]; then
  mkdir -p "$(dirname "$LAUNCHER_JAR")"
  launcher_tmp="$(mktemp -d "$(dirname "$LAUNCHER_JAR")/.build.XXXXXX")"
  if ! "$JAVA_HOME_OS/bin/javac" -nowarn -cp "$LIB_DIR/*" -d "$launcher_tmp/classes" "$LAUNCHER_SRC" >&2 ||
    ! "$JAVA_HOME_OS/bin/jar" --create --file "$launcher_tmp/launcher.jar" -C "$launcher_tmp/classes" . >&2; then
    rm -rf "$launcher_tmp"
    echo "opensearch: could not build the node launcher from $LAUNCHER_SRC" >&2
    exit 1
  fi
  mv -f "$launcher_tmp/launcher.jar" "$LAUNCHER_JAR" # atomic: a concurrent start sees all or nothing
  rm -rf "$launcher_tmp"
fi

# 4. The node's settings. The runner copies its own (all commented out) opensearch.yml only when
#    none exists, so ours wins; the runner then sets cluster.name, node.name, http.port and paths.
mkdir -p "$DATA_DIR/config" "$DATA_DIR/tmp"
cat >"$DATA_DIR/config/opensearch.yml" <<'YAML'
# Written by scripts/opensearch/start.sh at every start: edits here are overwritten.
# Loopback only, IPv4 only, for HTTP and transport.
network.host: 127.0.0.1
# A development/CI node: don't turn indices read-only when the disk is nearly full.
cluster.routing.allocation.disk.threshold_enabled: false
YAML
if ((NODES == 1)); then
  # One node, its own cluster: never looks for, nor joins, another node (a second local node
  # on another port is a separate cluster with its own name). A cluster's nodes find each
  # other through the seed hosts NodeLauncher gives them.
  echo "discovery.type: single-node" >>"$DATA_DIR/config/opensearch.yml"
fi

# 5. Launch, detached from this shell (own session, no stdin, output to a log file).
#    HTTP on exactly $PORT; transport on OPENSEARCH_TRANSPORT_PORT or a free loopback port.
[[ -f "$LOG_FILE" ]] && mv -f "$LOG_FILE" "$LOG_FILE.1"
java_args=(
  "$MARKER"
  "-Dtaxcert.opensearch.port=$PORT"
  "-Xms$HEAP" "-Xmx$HEAP"
  -XX:+UseG1GC
  -XX:+ExitOnOutOfMemoryError
  -XX:-OmitStackTraceInFastThrow
  --enable-native-access=ALL-UNNAMED
  -Djava.awt.headless=true
  -Dfile.encoding=UTF-8
  -Djna.nosys=true
  -Dlog4j2.formatMsgNoLookups=true
  -Dlog4j.shutdownHookEnabled=false
  -Dlog4j2.disable.jmx=true
  "-Djava.io.tmpdir=$DATA_DIR/tmp"
)
# Class data sharing (JDK 19+): the first run of a node folder records the classes it loaded in
# an archive (about 85 MB) when it stops; later starts map it and get healthy much sooner (measured
# here: 5-6 s instead of 13-19 s, on 2 cores shared with other work). The JDK checks the archive
# and rebuilds it when the JDK or the jars change. One archive per node folder, so two nodes never
# write the same file. The first stop of a node folder takes a few seconds longer (the dump), so
# it is off by default in CI, where every run starts from a fresh clone and would never reuse it.
cds_default=1
[[ "${CI:-}" == true || "${CI:-}" == 1 ]] && cds_default=0
if [[ "${OPENSEARCH_CDS:-$cds_default}" != 0 ]]; then
  java_args+=("-XX:SharedArchiveFile=$DATA_DIR/cds-java$JAVA_MAJOR.jsa" -XX:+AutoCreateSharedArchive)
fi
# shellcheck disable=SC2206 # word splitting of extra options is intended
[[ -n "${OPENSEARCH_JAVA_OPTS:-}" ]] && java_args+=(${OPENSEARCH_JAVA_OPTS})
# NodeLauncher sets the node's HTTP and transport ports itself: the runner's own main() finds
# HTTP ports only up to 9299 and hides why it failed.
java_args+=(
  -cp "$LAUNCHER_JAR:$LIB_DIR/*"
  NodeLauncher "$PORT"
  -basePath "$DATA_DIR"
  -confPath "$DATA_DIR/config"
  -numOfNode "$NODES"
  -baseHttpPort "$((PORT - 1))"
  -clusterName "$CLUSTER"
)
{
  echo "# $(date -u +%FT%TZ) start.sh: $JAVA ${java_args[*]}"
} >"$LOG_FILE"
# The inner bash writes its own pid and then becomes java (exec), so the pid file holds java's
# pid whether or not setsid had to fork.
cd "$DATA_DIR"
# shellcheck disable=SC2016 # expanded by the inner bash, on purpose
OPENSEARCH_NODES="$NODES" setsid nohup bash -c 'echo $$ >"$0"; exec "$@"' "$PID_FILE" "$JAVA" "${java_args[@]}" \
  </dev/null >>"$LOG_FILE" 2>&1 9>&- &
for _ in $(seq 1 50); do
  [[ -s "$PID_FILE" ]] && break
  sleep 0.1
done
pid="$(cat "$PID_FILE" 2>/dev/null || true)"
if [[ -z "$pid" ]]; then
  echo "opensearch: the node did not start; last lines of $LOG_FILE:" >&2
  tail -n 40 "$LOG_FILE" >&2 || true
  exit 1
fi
echo "opensearch: starting OpenSearch (pid $pid, cluster $CLUSTER, heap $HEAP, Java $JAVA_MAJOR) on $URL; log: $LOG_FILE"

if ! wait_ready "$pid"; then
  echo "opensearch: stopping the node that did not become ready" >&2
  OPENSEARCH_PORT="$PORT" OPENSEARCH_DATA_DIR="$DATA_DIR" bash "$SCRIPT_DIR/stop.sh" >&2 || true
  exit 1
fi
