"""A finished match's replay, served as the immutable data it is.

Once a match has ended with a stored replay, what its frames, viewer header, record and
self-contained ``replay.html`` say never changes: the replay is written with the match's end
and never rewritten. Only a failed or cancelled match moves again (staff re-run it: back to
queued, then a new end and a new replay), so a ``Stamp`` names what a match shows by its id,
its status, its replay's id and its end time, and anything that can follow "ended" gives a
new name. With the engine's and viewer's code (``replay.frames.derivation``) and what was
asked (a range, a view, whose logs) it makes:

* a strong ETag, so a reader who has the answer gets ``304 Not Modified`` for one query;
* ``Cache-Control``: ``public, max-age, immutable`` for what anyone may read; ``private``
  for an answer with logs only its reader may see; ``no-cache`` while the match runs (its
  moves grow); ``no-store`` on a refusal (hidden information withheld, nothing to show);
* the key of the derived bytes in the ``replays`` cache (``settings.CACHES``: Redis when the
  league has one, else files in the data folder), shared by the web server's processes, so
  the engine derives a range or a file once, not once per reader.

A running match is never cached here (the frame sources of ``league.ladders.replays`` follow
it). ``LEAGUE_REPLAY_CACHE=false`` turns all of it off: every answer is derived again and sent
without an ETag, as before.

An anonymous reader's frames and ``replay.html`` count against the ``heavy`` rate by address:
a copy already kept counts 1, one the engine has to work out (a cache miss, or any read with
the cache off) ``MISS_COST``, which is about what it costs more (``benchmarks/heavy_reads.py``:
a kept range or file is served 6 to 8 times as fast). So the rate bounds the CPU an address
can take, and a viewer scrubbing a game already kept is refused last; a 304 is not counted
(one query, no body).
"""

from __future__ import annotations

import gzip
import hashlib
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest, HttpResponseBase
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers

from league.ladders.lifecycle import ENDED
from league.ladders.models import Match, Participant
from league.ladders.replays import AnyUser, may_read_log
from league.rate_limits import client_address, rate_hit
from replay.frames import derivation

log = logging.getLogger(__name__)

CACHE = "replays"
"""The alias of the shared cache in ``settings.CACHES``."""
MISS_COST = 10
"""What an answer worked out by the engine counts against ``heavy``; a kept one counts 1."""


def enabled() -> bool:
    return settings.LEAGUE_REPLAY_CACHE


@dataclass(frozen=True)
class Stamp:
    """What names a match's shown data: one query, no replay bytes read."""

    match_id: int
    status: str
    replay_id: int | None
    finished_at: datetime | None
    title: str
    """The ladder's title, which ``replay.html`` is headed with."""
    game: str
    kind: str

    @property
    def immutable(self) -> bool:
        """Ended with a stored replay: its answers never change (a re-run gives a new
        stamp: its status, then a new replay and end)."""
        return self.status in ENDED and self.replay_id is not None

    def name(self, *asked: object) -> str | None:
        """The name of one answer of this match (``asked``: what, which range, whose logs),
        or None when it must not be kept (still running, nothing stored, or the cache off)."""
        if not (self.immutable and enabled()):
            return None
        ended = self.finished_at.isoformat() if self.finished_at else ""
        text = "|".join(map(str, (derivation(), self.match_id, self.replay_id, ended,
                                  self.title, *asked)))
        return hashlib.sha256(text.encode()).hexdigest()[:40]


def stamp_of(match_id: int) -> Stamp | None:
    """The match's stamp, or None when there is no such match."""
    row = (Match.objects.filter(pk=match_id)
           .values_list("status", "replay__id", "finished_at", "ladder__title", "ladder__game",
                        "kind")
           .first())
    if row is None:
        return None
    return Stamp(match_id, *row)


def log_seats(match_id: int, user: AnyUser) -> tuple[int, ...]:
    """The seats whose logs ``user`` may read (their bot's owner, staff): part of an answer's
    name where logs are in it. An anonymous reader's are none, with no query."""
    if not user.is_authenticated:
        return ()
    participants = (Participant.objects.filter(match_id=match_id)
                    .select_related("version__bot").order_by("seat"))
    return tuple(p.seat for p in participants if may_read_log(user, p))


def gzip_ok(request: HttpRequest) -> bool:
    """Whether the reader takes a gzip body (``Accept-Encoding``): a kept answer is then sent
    as it is kept, neither inflated here nor a tenth as small on the wire."""
    for token in request.META.get("HTTP_ACCEPT_ENCODING", "").split(","):
        coding, _, params = token.strip().partition(";")
        if coding.strip().lower() == "gzip":
            quality = params.strip().removeprefix("q=").strip()
            return not quality.startswith("q") and quality not in ("0", "0.0", "0.00", "0.000")
    return False


def etag(name: str, gzipped: bool = False) -> str:
    """A strong ETag: one representation, one tag (the gzip one is another)."""
    return f'"{name}-gz"' if gzipped else f'"{name}"'


def not_modified(request: HttpRequest, name: str | None) -> HttpResponseBase | None:
    """A 304 when the reader already has the answer named ``name`` (``If-None-Match``), in
    the coding it would be sent in."""
    if name is None:
        return None
    tag = etag(name, gzip_ok(request))
    response = get_conditional_response(request, etag=tag)
    if response is not None:
        response["ETag"] = tag
    return response


def headers(response: HttpResponseBase, stamp: Stamp | None, name: str | None, *,
            private: bool = False, per_reader: bool = False) -> HttpResponseBase:
    """The caching headers of an answer (a 200, a 304 or a refusal). ``private``: the answer
    holds what only this reader may see; ``per_reader``: what is in it depends on who asks
    (whose logs), so a shared cache keys it by the reader's credentials."""
    if response.status_code not in (200, 304):
        patch_cache_control(response, no_store=True)  # withheld now, or shown once re-run
    elif name is None:
        if stamp is not None and not stamp.immutable:
            patch_cache_control(response, no_cache=True)  # running: its moves grow
    else:
        if "ETag" not in response:  # a 304 has its own (``not_modified``)
            response["ETag"] = etag(name, response.get("Content-Encoding") == "gzip")
        scope = {"private": True} if private else {"public": True}
        patch_cache_control(response, max_age=settings.LEAGUE_REPLAY_MAX_AGE, immutable=True,
                            **scope)
        patch_vary_headers(response, ["Accept-Encoding"])
        if per_reader:
            patch_vary_headers(response, ["Cookie", "Authorization"])
    return response


def derived(name: str | None, make: Callable[[], bytes], *, gzipped: bool = False,
            charge: Callable[[int], None] = lambda cost: None) -> tuple[bytes, bool]:
    """The body of the answer named ``name`` and whether it is gzip: the kept one, or
    ``make()``'s, kept (gzip) for the next reader. With ``gzipped`` (the reader takes gzip,
    ``gzip_ok``) a named answer comes as it is kept, else inflated. ``charge(cost)`` is
    called before either is sent (a rate limit may refuse): 1 for a kept answer,
    ``MISS_COST`` before deriving. Without a name (not to be kept), ``make()`` every time.
    A cache that fails (Redis away) is logged and bypassed: the answer is derived, as
    without one."""
    key = f"gz:{name}"
    if name is not None:
        try:
            kept = caches[CACHE].get(key)
        except Exception:
            log.warning("the replay cache cannot be read; deriving", exc_info=True)
            kept = None
        if kept is not None:
            charge(1)
            return (kept, True) if gzipped else (gzip.decompress(kept), False)
    charge(MISS_COST)
    body = make()
    if name is None:
        return body, False
    packed = gzip.compress(body, 1)  # fast: a range's JSON shrinks about tenfold anyway
    if len(packed) <= settings.LEAGUE_REPLAY_CACHE_ENTRY_BYTES:
        try:
            caches[CACHE].set(key, packed)
        except Exception:
            log.warning("the replay cache cannot be written", exc_info=True)
    return (packed, True) if gzipped else (body, False)


def heavy_read(request: HttpRequest) -> Callable[[int], None]:
    """The charge of a heavy read for ``request``'s reader: an anonymous one counts against
    ``heavy`` by address (``RateLimited`` when over); a signed-in one has the rates of its
    own requests (the API's ``viewer``)."""
    def charge(cost: int) -> None:
        if not request.user.is_authenticated:
            rate_hit("heavy", client_address(request), cost=cost)
    return charge


def clear(names: Iterable[str] = ()) -> None:
    """Forget kept answers: ``names``' or, with none, every one (tests; an operator). On
    Redis only this cache's keys go (the broker's queues may share its database)."""
    cache = caches[CACHE]
    keys = [f"gz:{name}" for name in names]
    if keys:
        cache.delete_many(keys)
        return
    client = getattr(cache, "_cache", None)
    if client is not None and hasattr(client, "get_client"):  # Django's RedisCache
        redis = client.get_client(write=True)
        pattern = cache.make_key("*")
        for batch in _batches(redis.scan_iter(match=pattern, count=500), 500):
            redis.delete(*batch)
    else:
        cache.clear()


def _batches(items: Iterable[bytes], size: int) -> Iterable[list[bytes]]:
    batch: list[bytes] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch
