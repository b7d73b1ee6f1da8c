#!/bin/sh
# First start: make the cluster (password from POSTGRES_PASSWORD, scram for the network) and
# the league's database. Every start: run postgres in the foreground as the container's pid 1
# (STOPSIGNAL SIGINT is its fast shutdown).
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD (the deployment's .env file)}"
  pwfile=$(mktemp)
  printf '%s' "$POSTGRES_PASSWORD" > "$pwfile"
  initdb -D "$PGDATA" -U postgres --pwfile="$pwfile" --auth-local=trust \
    --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  psql -v ON_ERROR_STOP=1 -q -U postgres -c "CREATE DATABASE \"${POSTGRES_DB:-botleague}\""
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
fi
exec postgres -D "$PGDATA" -c listen_addresses='*' "$@"
