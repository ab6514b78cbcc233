#!/usr/bin/env bash
# Run a command against a throwaway PostgreSQL server: a fresh cluster in a temporary folder, listening
# on a unix socket only (no port to clash with), fsync off; DATABASE_URL points at it. The server is
# stopped and the folder removed when the command ends; the command's exit status is returned.
set -euo pipefail
bin=$(dirname "$(ls -d /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)")
dir=$(mktemp -d /tmp/everx-pg.XXXXXX)
chmod 755 "$dir"
as_postgres() {
  if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}
[[ $(id -u) -eq 0 ]] && chown postgres "$dir"
cleanup() {
  as_postgres "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
as_postgres "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
  || { cat "$dir/initdb.log"; exit 1; }
as_postgres "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
  -o "-c listen_addresses='' -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
  start >/dev/null || { cat "$dir/server.log"; exit 1; }
as_postgres "$bin/createdb" -h "$dir" -U postgres everx
export DATABASE_URL="postgres://postgres@${dir//\//%2F}/everx"
"$@"
