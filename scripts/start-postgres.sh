#!/usr/bin/env bash
# Installs (when missing) and starts a PostgreSQL server on localhost for the fleet database
# tests, with a role and a database of their own; prints the URL to give them
# (EVOHARNESS_TEST_POSTGRES). Idempotent: a server already running is reused, the role and
# database are made once.
set -euo pipefail
# Only the URL goes to stdout: the tools below print notes there (pg_ctlcluster says "Removed
# stale pid file." on a machine whose image kept one), so all of them write to stderr. (Not
# through a saved descriptor: the server would inherit it and hold the caller's $(...) open.)
{
if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
    echo "installing PostgreSQL (Debian's package)" >&2
    export DEBIAN_FRONTEND=noninteractive
    sudo_if() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
    sudo_if apt-get update -qq >&2
    sudo_if apt-get install -y -qq postgresql >&2
fi
as_postgres() { if [ "$(id -u)" = 0 ]; then su postgres -c "$*"; else sudo -u postgres sh -c "$*"; fi; }

version=$(ls /usr/lib/postgresql | sort -n | tail -1)
# (Tests on captured output, not `cmd | grep -q`: under pipefail that can fail on a match.)
if [ -z "$(pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main"')" ]; then
    as_postgres "pg_createcluster $version main" >&2 || true
fi
if [ -z "$(pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" && $4 == "online"')" ]; then
    if [ "$(id -u)" = 0 ]; then pg_ctlcluster "$version" main start; else sudo pg_ctlcluster "$version" main start; fi
fi
port=$(pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" { print $3 }')

[ "$(as_postgres "psql -p $port -tAc \"SELECT 1 FROM pg_roles WHERE rolname = 'evoharness'\"")" = 1 ] ||
    as_postgres "psql -p $port -qc \"CREATE ROLE evoharness LOGIN PASSWORD 'evoharness'\"" >&2
[ "$(as_postgres "psql -p $port -tAc \"SELECT 1 FROM pg_database WHERE datname = 'evoharness_test'\"")" = 1 ] ||
    as_postgres "createdb -p $port -O evoharness evoharness_test" >&2
# pg_terminate_backend on the role's own sessions (the dropped-connection test) needs nothing
# more: a role may end its own sessions.
} >&2
echo "postgres://evoharness:evoharness@127.0.0.1:$port/evoharness_test"
