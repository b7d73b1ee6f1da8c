#!/usr/bin/env bash
# The league as a Docker Swarm stack (docker/stack.yml), run on a swarm manager:
#   docker/stack.sh up ENV_FILE        deploy, or update: secrets, node labels, images, wait
#   docker/stack.sh status             services, tasks and the nodes' roles
#   docker/stack.sh down [--volumes]   remove the stack, its secrets and the labels it added;
#                                      --volumes also its database volume (on this node)
# ENV_FILE is docker/env.example's format. Its secrets (POSTGRES_PASSWORD, REDIS_PASSWORD,
# SECRET_KEY, DATABASE_URL, REDIS_URL, CACHE_URL) become swarm secrets, named after the stack
# and a hash of their values and labelled botleague.stack=NAME; the rest are settings, put in
# the services' environment. Nothing secret is written to disk or put in a service spec.
# Environment (all optional):
#   BOTLEAGUE_STACK       the stack's name (botleague)
#   BOTLEAGUE_WEB_PORT    the published port (8000); BOTLEAGUE_WEB_REPLICAS (2);
#   BOTLEAGUE_WEB_PUBLISH ingress (the routing mesh) or host (kernels without IPVS)
#   BOTLEAGUE_HOST_DIR    the workers' host folder (/var/lib/botleague-host)
#   BOTLEAGUE_DB_NODE, BOTLEAGUE_REDIS_NODE, BOTLEAGUE_LEAGUE_NODES, BOTLEAGUE_WORKER_NODES
#                         the nodes given a role when no node has it yet (this node); a role
#                         label already on some node is left as it is, and down takes off
#                         only the labels this stack put on (marked botleague.ROLE.by=NAME)
#   BOTLEAGUE_IMAGE_LEAGUE, _POSTGRES, _REDIS  images (each botleague/...:latest's own tag:
#                         every node must have it; docs/deploy.md)
#   BOTLEAGUE_UP_TIMEOUT  seconds up waits for every service (600)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
STACK=${BOTLEAGUE_STACK:-botleague}
ROLES=(db redis league worker)
SECRETS=(POSTGRES_PASSWORD REDIS_PASSWORD SECRET_KEY DATABASE_URL REDIS_URL CACHE_URL)
log() { printf '    stack %s: %s\n' "$STACK" "$*" >&2; }
die() { log "$*"; exit 1; }

manager() {
  [ "$(docker info -f '{{.Swarm.ControlAvailable}}' 2>/dev/null)" = true ] \
    || die "this engine is not a swarm manager (docker swarm init, or run this on a manager)"
}

this_node() { docker info -f '{{.Swarm.NodeID}}'; }

nodes_with() {  # LABEL [VALUE]: ids of the nodes whose label LABEL is VALUE (true)
  local id
  for id in $(docker node ls -q); do
    [ "$(docker node inspect -f "{{index .Spec.Labels \"$1\"}}" "$id")" = "${2:-true}" ] \
      && echo "$id"
  done
  return 0
}

image_tag() {  # IMAGE:latest -> the same image's content tag (docker/build-images.sh)
  local tags
  tags=$(docker image inspect -f '{{range .RepoTags}}{{println .}}{{end}}' "$1" 2>/dev/null) \
    || die "$1 is missing here: docker/build-images.sh"
  tags=$(grep "^${1%:latest}:" <<<"$tags" | grep -v ':latest$' || true)
  echo "${tags%%$'\n'*}" | grep . || echo "$1"  # only :latest: that, then
}

up() {
  local env_file=$1 line key value version name role nodes node
  [ -f "$env_file" ] || die "no env file $env_file (docker/env.example is the template)"
  manager
  declare -A secret=()
  SETTINGS=$(mktemp)  # global: the trap runs after this function has returned
  trap 'rm -f "$SETTINGS"' EXIT
  while IFS= read -r line || [ -n "$line" ]; do
    [[ $line =~ ^[[:space:]]*(#|$) ]] && continue
    key=${line%%=*} value=${line#*=}
    if [[ " ${SECRETS[*]} " == *" $key "* ]]; then secret[$key]=$value
    else printf '%s\n' "$line" >> "$SETTINGS"; fi
  done < "$env_file"
  # Unset, CACHE_URL is REDIS_URL's Redis (league/settings.py): the same thing said once.
  [ -n "${secret[CACHE_URL]:-}" ] || secret[CACHE_URL]=${secret[REDIS_URL]:-}
  for key in "${SECRETS[@]}"; do
    [ -n "${secret[$key]:-}" ] || die "$env_file has no $key"
  done

  # Secrets can't be changed in place; new values make new ones, and the services roll.
  version=$(for key in "${SECRETS[@]}"; do printf '%s=%s\n' "$key" "${secret[$key]}"; done \
            | sha256sum | cut -c1-12)
  for key in "${SECRETS[@]}"; do
    name="${STACK}_${key,,}_${version}"
    docker secret inspect "$name" >/dev/null 2>&1 && continue
    printf '%s' "${secret[$key]}" \
      | docker secret create --label "botleague.stack=$STACK" "$name" - >/dev/null
    log "secret $name"
  done

  for role in "${ROLES[@]}"; do
    [ -n "$(nodes_with "botleague.$role")" ] && continue
    case $role in
      db) nodes=${BOTLEAGUE_DB_NODE:-} ;;
      redis) nodes=${BOTLEAGUE_REDIS_NODE:-} ;;
      league) nodes=${BOTLEAGUE_LEAGUE_NODES:-} ;;
      worker) nodes=${BOTLEAGUE_WORKER_NODES:-} ;;
    esac
    for node in ${nodes:-$(this_node)}; do
      docker node update --label-add "botleague.$role=true" \
        --label-add "botleague.$role.by=$STACK" "$node" >/dev/null
      log "node $node labelled botleague.$role"
    done
  done

  # Swarm does not make a bind mount's source: the worker's must exist on every worker node.
  export BOTLEAGUE_HOST_DIR=${BOTLEAGUE_HOST_DIR:-/var/lib/botleague-host}
  if [ -n "$(nodes_with botleague.worker | grep -Fx "$(this_node)")" ]; then
    mkdir -p /run/botleague "$BOTLEAGUE_HOST_DIR"
  fi
  if [ -n "$(nodes_with botleague.worker | grep -vFx "$(this_node)")" ]; then
    log "other worker nodes need /run/botleague and $BOTLEAGUE_HOST_DIR (docs/deploy.md)"
  fi

  # A content tag, not :latest: every node runs the same image, and a rebuilt one changes
  # the spec, so the services roll onto it.
  # (Plain assignments: `export X=$(...)` would hide a failed look-up from set -e.)
  BOTLEAGUE_IMAGE_LEAGUE=${BOTLEAGUE_IMAGE_LEAGUE:-$(image_tag botleague/league:latest)}
  BOTLEAGUE_IMAGE_POSTGRES=${BOTLEAGUE_IMAGE_POSTGRES:-$(image_tag botleague/postgres:latest)}
  BOTLEAGUE_IMAGE_REDIS=${BOTLEAGUE_IMAGE_REDIS:-$(image_tag botleague/redis:latest)}
  export BOTLEAGUE_IMAGE_LEAGUE BOTLEAGUE_IMAGE_POSTGRES BOTLEAGUE_IMAGE_REDIS
  export BOTLEAGUE_STACK=$STACK BOTLEAGUE_SECRETS_VERSION=$version BOTLEAGUE_SETTINGS_FILE=$SETTINGS
  if [ "${BOTLEAGUE_WEB_PUBLISH:-ingress}" = host ]; then
    export BOTLEAGUE_WEB_UPDATE_ORDER=stop-first
  fi
  # --resolve-image never: the images are built on the nodes, no registry knows them.
  # --detach=false: back once every service has converged (tasks running and healthy, the
  # migration's job complete), or not within the timeout.
  local timeout=${BOTLEAGUE_UP_TIMEOUT:-600}
  if ! timeout "$timeout" docker stack deploy --detach=false --quiet --prune \
       --resolve-image never -c "$HERE/stack.yml" "$STACK" >/dev/null; then
    docker stack ps "$STACK" --no-trunc >&2 || true
    die "not up within $timeout s (docker/stack.sh status; docker service logs ${STACK}_web)"
  fi
  rm -f "$SETTINGS"  # read by the deploy, now in the services' specs
  log "up (images ${BOTLEAGUE_IMAGE_LEAGUE##*:}, secrets $version)"

  # Secrets of earlier values, now that no service holds them.
  for name in $(docker secret ls --filter "label=botleague.stack=$STACK" --format '{{.Name}}'); do
    [[ $name == *"_$version" ]] || docker secret rm "$name" >/dev/null 2>&1 || true
  done
}

sweep_bots() {
  # A worker that dies mid-match (SIGKILL; or its broker and database gone under it while the
  # stack is removed, when Celery exits and its pool processes go with it) leaves its bots'
  # containers behind. A worker started on the node removes those of free slots; with the
  # stack gone, nothing would: so down does, on this node, for each slot no worker holds
  # (its lock in /run/botleague/slots, shared with the workers, free). A worker's container
  # is reported gone a moment before its last processes are, so a held lock is waited for
  # a little: one still held after that belongs to a live worker of another deployment.
  local id slot lock
  for id in $(docker ps -aq --filter label=org.botleague.sandbox); do
    slot=$(docker inspect -f '{{index .Config.Labels "org.botleague.slot"}}' "$id" 2>/dev/null) \
      || continue
    lock=/run/botleague/slots/$slot.lock
    if [ -z "$slot" ] || [ ! -e "$lock" ] || flock -w 10 "$lock" true 2>/dev/null; then
      docker rm -f "$id" >/dev/null 2>&1 && log "bot container $id left by a worker removed"
    fi
  done
  return 0
}

down() {
  local volumes=${1:-} role node name
  manager
  if docker stack ls --format '{{.Name}}' | grep -qFx "$STACK"; then
    docker stack rm "$STACK" >/dev/null
    log "stack removed"
  fi
  # Its containers stop in the background (workers get their grace period to finish a
  # match); its network, secrets and volume can go only once they have. The migration's
  # finished container is left behind by the engine (20.10 does not remove a job's
  # completed tasks with their service): it goes here, on this node.
  local deadline=$((SECONDS + 180)) label="label=com.docker.stack.namespace=$STACK"
  while [ -n "$(docker ps -q --filter "$label")" ] \
        || [ -n "$(docker network ls -q --filter "$label")" ]; do
    [ $SECONDS -ge $deadline ] && die "its containers or network are still here"
    sleep 2
  done
  while [ -n "$(docker ps -aq --filter "$label")" ]; do
    docker ps -aq --filter "$label" | xargs -r docker rm >/dev/null 2>&1 || true
    [ $SECONDS -ge $deadline ] && die "its stopped containers are still here"
    sleep 1
  done
  sweep_bots
  for name in $(docker secret ls --filter "label=botleague.stack=$STACK" --format '{{.Name}}'); do
    if docker secret rm "$name" >/dev/null; then log "secret $name removed"
    else log "secret $name is still in use: docker secret rm $name, later"; fi
  done
  if [ "$volumes" = --volumes ]; then
    for name in $(docker volume ls -q --filter "label=com.docker.stack.namespace=$STACK"); do
      docker volume rm "$name" >/dev/null && log "volume $name removed"
    done
  fi
  for role in "${ROLES[@]}"; do
    for node in $(nodes_with "botleague.$role.by" "$STACK"); do
      docker node update --label-rm "botleague.$role" --label-rm "botleague.$role.by" \
        "$node" >/dev/null
      log "node $node: label botleague.$role removed"
    done
  done
}

status() {
  manager
  docker stack services "$STACK"
  echo
  docker stack ps "$STACK" --filter desired-state=running
  echo
  local id
  for id in $(docker node ls -q); do
    docker node inspect -f '{{.Description.Hostname}} ({{.Status.State}}, {{.Spec.Availability}}):
      {{- range $k, $v := .Spec.Labels}} {{$k}}={{$v}}{{end}}' "$id"
  done
}

case ${1:-} in
  up) [ $# -eq 2 ] || die "usage: $0 up ENV_FILE"; up "$(realpath -- "$2")" ;;
  down) down "${2:-}" ;;
  status) status ;;
  *) sed -n '2,6p' "$0" >&2; exit 2 ;;  # the usage at the top
esac
