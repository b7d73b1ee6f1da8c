# Redis for the compose deployment: the Celery broker and the shared cache. It keeps nothing
# on disk (no RDB, no AOF): the database is the league's truth, the broker only a doorbell,
# and the reaper re-sends what a restarted Redis forgot. Password from REDIS_PASSWORD.
ARG BASE=botleague/base:bookworm
FROM ${BASE}
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends redis-server \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb
USER redis
EXPOSE 6379
CMD ["sh", "-c", "exec redis-server --bind 0.0.0.0 --port 6379 --save '' --appendonly no \
--protected-mode no --requirepass \"${REDIS_PASSWORD:?set REDIS_PASSWORD}\""]
