#!/usr/bin/env bash
# Sandbox setup (run by ./dev setup): a running Docker engine, the Debian base image built
# locally with debootstrap, and the bot runner image. Idempotent; slow parts are cached under
# /var/cache/botleague (the base tarball) and in Docker itself (images tagged by content hash).
set -euo pipefail
cd "$(dirname "$0")/../.."

CACHE=${BOTLEAGUE_CACHE:-/var/cache/botleague}
BASE_IMAGE=botleague/base:bookworm
RUNNER=botleague/runner
MIRROR=${BOTLEAGUE_DEBIAN_MIRROR:-http://deb.debian.org/debian}
log() { printf '    sandbox: %s\n' "$*" >&2; }

if [ "$(id -u)" != 0 ]; then
  log "not root: skipping dockerd and images (the process backend works without them)"
  exit 0
fi
mkdir -p "$CACHE"
chmod 755 "$CACHE"
exec 9>"$CACHE/setup.lock"
# Bounded wait: a lock held forever (a daemon that inherited fd 9) must be an error, not a hang.
flock -w 900 9 || { log "could not take $CACHE/setup.lock in 15 min: $(fuser "$CACHE/setup.lock" 2>&1)"; exit 1; }

docker_ok() { docker info >/dev/null 2>&1; }

start_dockerd() {
  docker_ok && return 0
  command -v dockerd >/dev/null || { log "dockerd missing (apt install docker.io)"; return 1; }
  log "starting dockerd"
  # 9>&-: the daemon must not inherit the setup lock, or it holds it for its whole life
  setsid dockerd >/var/log/dockerd.log 2>&1 < /dev/null 9>&- &
  local pid=$!
  for _ in $(seq 60); do docker_ok && return 0; sleep 0.5; done
  # Hosts without usable iptables: bot containers use no network anyway.
  log "dockerd did not come up; retrying without iptables and bridge (see /var/log/dockerd.log)"
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  setsid dockerd --iptables=false --bridge=none >/var/log/dockerd.log 2>&1 < /dev/null 9>&- &
  for _ in $(seq 60); do docker_ok && return 0; sleep 0.5; done
  log "dockerd failed to start; docker-backend tests will be skipped"
  return 1
}

build_base() {
  docker image inspect "$BASE_IMAGE" >/dev/null 2>&1 && return 0
  local tarball=$CACHE/base-bookworm.tar
  if [ ! -s "$tarball" ]; then
    log "building the Debian base with debootstrap (once; cached in $tarball)"
    local root
    root=$(mktemp -d "$CACHE/rootfs.XXXXXX")
    debootstrap --variant=minbase bookworm "$root" "$MIRROR" >"$CACHE/debootstrap.log" 2>&1 \
      || { log "debootstrap failed, see $CACHE/debootstrap.log"; rm -rf "$root"; return 1; }
    rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
    tar -C "$root" -cf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
    rm -rf "$root"
  fi
  log "importing $BASE_IMAGE"
  docker import "$tarball" "$BASE_IMAGE" >/dev/null
}

build_runner() {
  local tag
  tag=$(sha256sum docker/runner.Dockerfile | cut -c1-12)
  if docker image inspect "$RUNNER:$tag" >/dev/null 2>&1; then
    docker tag "$RUNNER:$tag" "$RUNNER:latest"
    return 0
  fi
  log "building $RUNNER:$tag"
  docker build -q --build-arg BASE="$BASE_IMAGE" -t "$RUNNER:$tag" -t "$RUNNER:latest" \
    -f docker/runner.Dockerfile docker/ >"$CACHE/runner-build.log" 2>&1 \
    || { log "runner build failed:"; tail -20 "$CACHE/runner-build.log" >&2; return 1; }
}

if start_dockerd && build_base && build_runner; then
  log "docker ready: $(docker image inspect -f '{{.Id}}' "$RUNNER:latest" | cut -c1-19)"
fi
exit 0
