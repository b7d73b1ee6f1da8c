#!/usr/bin/env bash
# Build the deployment's images from the Debian base made locally (scripts/setup.d/sandbox.sh
# makes botleague/base:bookworm; nothing is pulled from a registry):
#   botleague/league    web, beat, migrate and worker-engine (docker/league.Dockerfile)
#   botleague/worker-bwrap  the same on the bot runner image, with bubblewrap: the compose
#                       worker, which sandboxes bots inside its own container
#   botleague/postgres  PostgreSQL 15 from Debian      botleague/redis  Redis from Debian
# Each is tagged with a hash of what goes into it and :latest; an image whose hash exists is
# not rebuilt, so a second run takes a second. Python wheels are built on this machine into
# docker/wheels/ (git-ignored) so the image build needs no PyPI access.
#   BASE=other/image:tag docker/build-images.sh   builds on another base
set -euo pipefail
cd "$(dirname "$0")/.."
BASE=${BASE:-botleague/base:bookworm}
PIP=${PIP:-.venv/bin/pip}
[ -x "$PIP" ] || PIP="python3 -m pip"
log() { printf '    images: %s\n' "$*" >&2; }

docker image inspect "$BASE" >/dev/null 2>&1 \
  || { log "base image $BASE is missing: run ./dev setup (scripts/setup.d/sandbox.sh)"; exit 1; }

# The runtime part of requirements.txt: everything above its "-- end of the league image" line.
sed '/^# -- end of the league image/q' requirements.txt | grep -v '^#' > docker/requirements-image.txt
want=$(sha256sum docker/requirements-image.txt | cut -c1-16)
if [ "$(cat docker/wheels/.stamp 2>/dev/null)" != "$want" ]; then
  log "building wheels into docker/wheels/"
  rm -rf docker/wheels && mkdir -p docker/wheels
  $PIP wheel -q --disable-pip-version-check -w docker/wheels -r docker/requirements-image.txt \
    2>docker/wheels/pip.log || { log "pip wheel failed:"; grep -v '^WARNING: Location' \
    docker/wheels/pip.log | tail -20 >&2; exit 1; }
  echo "$want" > docker/wheels/.stamp
fi

build() {  # NAME DOCKERFILE CONTEXT HASHED-PATHS...; FROM=image and EXTRA=packages optional
  local name=$1 file=$2 context=$3; shift 3
  local from=${FROM:-$BASE} tag from_id
  from_id=$(docker image inspect -f '{{.Id}}' "$from") \
    || { log "$from is missing: run ./dev setup (scripts/setup.d/sandbox.sh)"; exit 1; }
  tag=$( { echo "$from_id ${EXTRA:-}"; find "$file" "$@" -type f ! -name '*.pyc' -print0 | sort -z \
          | xargs -0 sha256sum; } | sha256sum | cut -c1-12)
  if ! docker image inspect "$name:$tag" >/dev/null 2>&1; then
    log "building $name:$tag"
    local out
    out=$(mktemp)
    docker build -q --build-arg BASE="$from" --build-arg EXTRA_PACKAGES="${EXTRA:-}" \
      -t "$name:$tag" -f "$file" "$context" \
      >"$out" 2>&1 || { log "building $name failed:"; tail -30 "$out" >&2; rm -f "$out"; exit 1; }
    rm -f "$out"
  fi
  docker tag "$name:$tag" "$name:latest"
  echo "$name:$tag"
}

build botleague/postgres docker/services/postgres.Dockerfile docker/services docker/services
build botleague/redis docker/services/redis.Dockerfile docker/services docker/services/redis.Dockerfile
build botleague/league docker/league.Dockerfile . docker/requirements-image.txt manage.py \
  pyproject.toml games replay sandbox league viewer docs/rules docs/protocol.md examples
FROM=botleague/runner:latest EXTRA=bubblewrap build botleague/worker-bwrap \
  docker/league.Dockerfile . docker/requirements-image.txt manage.py pyproject.toml games replay \
  sandbox league viewer docs/rules docs/protocol.md examples
