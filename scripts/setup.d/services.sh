#!/usr/bin/env bash
# Services the league's tests talk to (run by ./dev setup): PostgreSQL on 127.0.0.1:5432 with
# trust auth for user postgres, and Redis on 127.0.0.1:6379. Started when down, installed from
# Debian when missing. ./dev up needs neither (SQLite and a filesystem broker by default).
set -euo pipefail
log() { printf '    services: %s\n' "$*" >&2; }
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo

pg_up() { pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; }
redis_up() { [ "$(redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null)" = PONG ]; }

install() {
  log "installing $*"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

if ! pg_up; then
  command -v pg_ctlcluster >/dev/null || install postgresql
  version=$(ls /etc/postgresql | sort -V | tail -1)
  conf=/etc/postgresql/$version/main
  if ! grep -q "botleague" "$conf/pg_hba.conf" 2>/dev/null; then
    # local test database only: trust for postgres on loopback, as the test settings expect
    # (first lines win in pg_hba.conf, so these go on top)
    $SUDO sed -i '1i # botleague tests\nhost all postgres 127.0.0.1/32 trust\nhost all postgres ::1/128 trust' \
      "$conf/pg_hba.conf"
  fi
  log "starting PostgreSQL $version"
  $SUDO pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  for _ in $(seq 60); do pg_up && break; sleep 0.5; done
  pg_up || { log "PostgreSQL did not start"; exit 1; }
fi

if ! redis_up; then
  command -v redis-server >/dev/null || install redis-server
  log "starting Redis"
  $SUDO mkdir -p /var/lib/redis /var/log/redis
  $SUDO redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" \
    --appendonly no --dir /var/lib/redis --logfile /var/log/redis/botleague.log
  for _ in $(seq 40); do redis_up && break; sleep 0.25; done
  redis_up || { log "Redis did not start"; exit 1; }
fi
log "PostgreSQL and Redis are up"
