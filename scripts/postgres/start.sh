#!/usr/bin/env bash
# Starts the machine's PostgreSQL (Debian's cluster "main", as the postgresql package creates it)
# when nothing answers on 127.0.0.1:5432, and lets the tests connect as postgres without a
# password from 127.0.0.1 (a trust line in pg_hba.conf). Used by .ci/run and by the test run
# (test/helpers/global-setup.ts); installs nothing: exit 3 when PostgreSQL is not installed.
# Needs root or password-less sudo to start the cluster.
set -euo pipefail

pg_up() { pg_isready -q -h 127.0.0.1 -p 5432 >/dev/null 2>&1; }
as_root() { if [[ "$(id -u)" == 0 ]]; then "$@"; else sudo -n "$@"; fi; }

if pg_up; then
  exit 0
fi
if ! command -v pg_ctlcluster >/dev/null 2>&1 || ! compgen -G '/etc/postgresql/*/main' >/dev/null; then
  echo "postgres: PostgreSQL is not installed (apt-get install postgresql)" >&2
  exit 3
fi

pg_version="$(ls /etc/postgresql | sort -V | tail -n 1)"
pg_hba="/etc/postgresql/${pg_version}/main/pg_hba.conf"
if ! as_root grep -Eq '^host\s+all\s+all\s+127\.0\.0\.1/32\s+trust' "$pg_hba"; then
  as_root sed -i '1i host all all 127.0.0.1/32 trust' "$pg_hba"
fi
echo "postgres: starting PostgreSQL ${pg_version} (cluster main) on 127.0.0.1:5432"
as_root pg_ctlcluster --skip-systemctl-redirect "$pg_version" main start || true
for _ in $(seq 1 100); do pg_up && exit 0; sleep 0.2; done
echo "postgres: PostgreSQL does not answer on 127.0.0.1:5432" >&2
exit 1
