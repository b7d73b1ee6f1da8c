"""How a view that waits for something gives its request back instead of holding a thread.

The web server (``league/asgi.py``) serves the site's ordinary views from a small pool of
threads; a request that would wait — the play page asking for its game's next move — must not
keep one of them. So when the server allows it, such a view answers at once with a *park*
response: not sent to the client, it tells the server what the request waits for (a
``Watch``: a match, the step and status the page has) and for whom (the person, whose
concurrent waits are capped). The server then waits on the event loop, costing no thread, and
when the match moves (or the wait times out, or the client goes away) runs the same request
through the view again, now told to answer with what it finds.

A view sees which of three cases it is in through ``mode(request)``:

- ``BLOCK``: served without that server (Django's test client, a plain WSGI server): the view
  waits in its thread as it always did;
- ``PARK``: the first pass under the server: answer now if there is news, else ``park()``;
- ``ANSWER``: the pass after the wait: answer now, never wait.

The server marks the request in its ASGI scope, which no client can write to.
"""

from __future__ import annotations

import enum
import json
from dataclasses import asdict, dataclass

from django.http import HttpRequest, HttpResponse

SCOPE_KEY = "botleague.park"
"""The key of the request's ASGI scope the server sets: ``"park"`` or ``"answer"``."""
HEADER = "X-Botleague-Park"
"""The park response's header, read and removed by the server (never reaches a client)."""


class Mode(enum.Enum):
    BLOCK = "block"
    PARK = "park"
    ANSWER = "answer"


@dataclass(frozen=True)
class Watch:
    """What a parked request waits for: the match ``match`` to move past step ``since``, to
    leave status ``status``, or to be claimed again (an attempt other than ``attempt``)."""

    match: int
    since: int
    status: str
    attempt: int


@dataclass(frozen=True)
class Park:
    watch: Watch
    who: str
    """Whose wait this is (a person's concurrent waits are capped)."""
    timeout: float
    """The longest the server waits before it asks the view to answer anyway."""

    def to_header(self) -> str:
        return json.dumps({**asdict(self), "watch": asdict(self.watch)})

    @classmethod
    def from_header(cls, text: str) -> Park:
        data = json.loads(text)
        return cls(watch=Watch(**data["watch"]), who=str(data["who"]),
                   timeout=float(data["timeout"]))


def mode(request: HttpRequest) -> Mode:
    scope = request.META.get("asgi.scope")
    value = scope.get(SCOPE_KEY) if isinstance(scope, dict) else None
    return Mode(value) if value in ("park", "answer") else Mode.BLOCK


def park(parked: Park) -> HttpResponse:
    """The response that hands the request to the server to wait on (``mode`` was PARK)."""
    response = HttpResponse(status=202)
    response[HEADER] = parked.to_header()
    return response
