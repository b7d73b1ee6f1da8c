"""gunicorn's settings for the compose deployment (``gunicorn -c python:league.gunicorn_conf``):
its error and access logs in the same JSON lines as Django's when ``LOG_FORMAT=json``, so a
log collector reads one format from every service."""

from __future__ import annotations

import os

json_logs = os.environ.get("LOG_FORMAT", "plain").strip() == "json"
accesslog = "-"
# method, path, status, response length, time in ms, client: in the message, which a
# collector can split; the request line is never trusted to be valid JSON, so it is escaped
# by the formatter rather than templated into JSON here.
access_log_format = '%(m)s %(U)s %(s)s %(B)s %(M)sms %({x-forwarded-for}i)s %(h)s'
if json_logs:
    logconfig_dict = {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": "league.logs.JsonFormatter"}},
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "json",
                                 "stream": "ext://sys.stdout"}},
        "loggers": {
            "gunicorn.error": {"handlers": ["console"], "level": "INFO", "propagate": False},
            "gunicorn.access": {"handlers": ["console"], "level": "INFO", "propagate": False},
        },
    }
