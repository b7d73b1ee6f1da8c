# The league's one image: web (gunicorn + WhiteNoise), Celery worker, Celery beat and the
# one-shot migration all run it, with different commands (docker/compose.yml).
#   docker/build-images.sh builds it (and the PostgreSQL and Redis images) from the Debian
#   base made locally with debootstrap; nothing is pulled from a registry.
# Python packages come from wheels built on the host into docker/wheels/ by that script, so
# the build needs no network for PyPI (and no proxy certificate inside the image).
# No secret is baked in: SECRET_KEY, database and broker URLs come from the environment.
# The same file also builds botleague/worker-bwrap, the compose worker that sandboxes bots
# with bubblewrap inside its own container: BASE is then the bot runner image, so bots see
# exactly the /usr they see in the docker backend's containers, and EXTRA_PACKAGES adds
# bubblewrap.
ARG BASE=botleague/base:bookworm
FROM ${BASE}
ARG EXTRA_PACKAGES=""
USER root
# python3: the league itself runs on Debian's interpreter, the same build bots would run on.
# curl: health checks. bubblewrap only in botleague/worker-bwrap (docs/deploy.md).
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      python3 python3-venv ca-certificates curl ${EXTRA_PACKAGES} \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb \
 && python3 -m venv /venv \
 && groupadd --system --gid 10001 league \
 && useradd --system --uid 10001 --gid league --home-dir /app --shell /usr/sbin/nologin league
COPY docker/wheels/ /tmp/wheels/
COPY docker/requirements-image.txt /tmp/requirements-image.txt
RUN /venv/bin/pip install --no-cache-dir --no-index --find-links /tmp/wheels \
      -r /tmp/requirements-image.txt \
 && rm -rf /tmp/wheels /tmp/requirements-image.txt
ENV PATH=/venv/bin:$PATH PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 LANG=C.UTF-8 \
    DJANGO_SETTINGS_MODULE=league.settings BOTLEAGUE_DATA=/var/lib/botleague/data \
    STATIC_ROOT=/app/static LOG_FORMAT=json
WORKDIR /app
COPY manage.py pyproject.toml ./
COPY games/ games/
COPY replay/ replay/
COPY sandbox/ sandbox/
COPY viewer/ viewer/
COPY league/ league/
# the game pages show the rules and the protocol and offer the starters as zips
COPY docs/rules/ docs/rules/
COPY docs/protocol.md docs/
COPY examples/ examples/
# Static files collected once at build time; WhiteNoise serves them with far-future caching.
# The key here is a throwaway for this one command, not kept in the image.
RUN SECRET_KEY=collectstatic-only BOTLEAGUE_DATA=/tmp/build-data \
      python manage.py collectstatic --noinput -v 0 \
 && rm -rf /tmp/build-data \
 && python -m compileall -q games replay sandbox league viewer \
 && mkdir -p /var/lib/botleague/data && chown league:league /var/lib/botleague/data
# Web and beat run as this user; the workers run as root (compose.yml says why).
USER league
EXPOSE 8000
CMD ["gunicorn", "-c", "python:league.gunicorn_conf", "--bind", "0.0.0.0:8000", "--workers", "2"]
