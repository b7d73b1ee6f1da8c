# The image every bot container runs in (docker backend). Built by scripts/setup.d/sandbox.sh:
#   docker build --build-arg BASE=botleague/base:bookworm -f docker/runner.Dockerfile docker/
# BASE is a minimal Debian made locally with debootstrap (no registry is needed).
# The engine (games/) and the bot helper (botlib/) are mounted read-only at run time from the
# worker, so the rules in the container are always exactly the referee's.
ARG BASE=botleague/base:bookworm
FROM ${BASE}
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      python3 nodejs g++ libc6-dev \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb \
 && mkdir -p /bot /opt/botleague/lib /opt/botleague/build \
 && chmod 755 /bot /opt/botleague /opt/botleague/lib /opt/botleague/build
ENV LANG=C.UTF-8 HOME=/tmp TMPDIR=/tmp PYTHONDONTWRITEBYTECODE=1
WORKDIR /bot
# Never root by default; the backend runs each bot as its slot's own uid.
USER 65534:65534
