"""gunicorn's settings for every way the league's web server is started (``./dev up``, the
compose deployment, the swarm stack, the tests and benchmarks that start one:
``gunicorn -c python:league.gunicorn_conf --bind ADDRESS --workers N``): uvicorn's worker
serving ``league.asgi:application`` (the site on a pool of threads, and waits that hold none;
``league/asgi.py``). Its error log in the same JSON lines as Django's when ``LOG_FORMAT=json``,
so a log collector reads one format from every service; the access log is the application's
own (logger ``league.access``, formatted as Django's logs are)."""

from __future__ import annotations

import os

import league.busy_pages  # noqa: F401  (its count made here, before the workers are forked)

wsgi_app = "league.asgi:application"
worker_class = "league.web_worker.Worker"
graceful_timeout = 5

json_logs = os.environ.get("LOG_FORMAT", "plain").strip() == "json"
if json_logs:
    logconfig_dict = {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": "league.logs.JsonFormatter"}},
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "json",
                                 "stream": "ext://sys.stdout"}},
        "loggers": {
            "gunicorn.error": {"handlers": ["console"], "level": "INFO", "propagate": False},
        },
    }
