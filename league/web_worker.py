"""gunicorn's worker for the league's web server (``-k league.web_worker.Worker``): uvicorn's,
serving ``league.asgi:application``, set up as the league needs.

- ``proxy_headers`` off: the client's address stays the peer's; ``league.rate_limits`` reads
  ``X-Forwarded-For`` itself, through exactly ``NUM_PROXIES`` proxies of ours, so that a
  made-up header never moves a client to another count.
- uvicorn's own access log off: ``league.asgi`` writes one with the request's time.
- no ``Server`` header: nothing for a stranger to fingerprint.
- the lifespan on, so a process closes its waits' connections when it stops.
"""

from __future__ import annotations

from typing import Any, ClassVar

from uvicorn_worker import UvicornWorker


class Worker(UvicornWorker):
    CONFIG_KWARGS: ClassVar[dict[str, Any]] = {
        "loop": "auto", "http": "auto", "proxy_headers": False, "access_log": False,
        "server_header": False, "lifespan": "on"}
