#!/usr/bin/env bash
# Fetches openapi-generator's command-line jar from Maven Central into
# <repo>/.cache/openapi-generator, through a project-local Maven repository (<repo>/.cache/m2),
# for the test that builds a Python client from the served OpenAPI document
# (test/integration/services/api/openapi/openapi-python-client.test.ts).
#
# Idempotent: when the jar of the pinned version is there it returns at once.
# Environment:
#   OPENAPI_GENERATOR_CACHE_DIR   where .cache lives (default <repo>/.cache)
set -euo pipefail

# 7.17.0: its python-pydantic-v1 generator (Debian 12's pydantic is 1.10)
# accepts OpenAPI 3.1's nullable form (anyOf with {type: null}), on which 7.14's stops.
VERSION=7.17.0

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/../.." && pwd)"
CACHE_DIR="${OPENAPI_GENERATOR_CACHE_DIR:-$REPO_ROOT/.cache}"
OUT_DIR="$CACHE_DIR/openapi-generator"
JAR="$OUT_DIR/openapi-generator-cli-$VERSION.jar"

if [[ -f "$JAR" ]]; then
  echo "openapi-generator: $JAR already installed"
  exit 0
fi
if ! command -v mvn >/dev/null 2>&1; then
  echo "openapi-generator: 'mvn' (Apache Maven) is needed to fetch the jar from Maven Central" >&2
  exit 1
fi

mkdir -p "$OUT_DIR"
# One installer at a time (a developer's shell and a test run may start together).
exec 8>"$OUT_DIR/.install.lock"
flock -w 900 8 || { echo "openapi-generator: timed out waiting for another install to finish" >&2; exit 1; }
if [[ -f "$JAR" ]]; then
  echo "openapi-generator: $JAR already installed"
  exit 0
fi

echo "openapi-generator: fetching $VERSION from Maven Central into $OUT_DIR ..."
tmp_dir="$OUT_DIR/tmp.$$"
# dependency:copy needs no pom: Maven runs in an empty folder so that no project's pom is read.
empty_dir="$(mktemp -d)"
trap 'rm -rf "$tmp_dir" "$empty_dir"' EXIT
# Debian's Maven writes colour codes even in batch mode: strip them, as opensearch/install.sh does.
no_colour() { sed -u $'s/\x1b\\[[0-9;]*[A-Za-z]//g'; }
attempt=1
until (cd "$empty_dir" && mvn -q -B -ntp -Dstyle.color=never \
  -Dmaven.repo.local="$CACHE_DIR/m2" \
  dependency:copy \
  -Dartifact="org.openapitools:openapi-generator-cli:$VERSION" \
  -DoutputDirectory="$tmp_dir" </dev/null) > >(no_colour) 2> >(no_colour >&2); do
  if ((attempt >= 3)); then
    echo "openapi-generator: Maven failed $attempt times; giving up" >&2
    exit 1
  fi
  attempt=$((attempt + 1))
  echo "openapi-generator: Maven failed; retrying (attempt $attempt of 3) ..." >&2
  rm -rf "$tmp_dir"
  sleep 5
done
mv "$tmp_dir/openapi-generator-cli-$VERSION.jar" "$JAR"
echo "openapi-generator: installed $JAR"
