"""A small league for the API tests, made without a worker: alice owns a bot (an active
version and a rejected one, both with logs) whose source she keeps, and one whose source she
shares; bob owns a bot; sam is staff. One finished match between alice's and bob's bots has
logs and a replay."""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

from league.accounts.services import token_create
from league.bots.models import Bot, BotVersion
from league.ladders.defaults import ladders_install
from league.ladders.models import Ladder, Match, Participant, Replay
from league.ladders.services import version_upload
from tests.league import bots


@dataclass
class World:
    alice: User
    bob: User
    sam: User
    public_bot: Bot
    active: BotVersion
    rejected: BotVersion
    shared_bot: Bot
    """Alice lets others download its source."""
    shared_version: BotVersion
    bobs_bot: Bot
    match: Match
    tokens: dict[str, str]

    def client(self, who: str) -> APIClient:
        """An API client for ``anonymous``, ``owner`` (alice), ``other`` (bob), ``staff``."""
        client = APIClient()
        if who != "anonymous":
            client.credentials(HTTP_AUTHORIZATION=f"Bearer {self.tokens[who]}")
        return client


def _version(owner: User, name: str, source: str, status: str, log: str,
             reason: str = "") -> BotVersion:
    version = version_upload(owner=owner, game="stones", name=name, filename="main.py",
                             data=source.encode())
    BotVersion.objects.filter(pk=version.pk).update(status=status, log=log, reason=reason,
                                                    validated_at=timezone.now())
    if status == "active":
        Bot.objects.filter(pk=version.bot_id).update(active_version=version)
    version.refresh_from_db()
    return version


def make_world() -> World:
    ladders_install(Ladder)
    Match.objects.all().delete()
    alice = User.objects.create_user("alice")
    bob = User.objects.create_user("bob")
    sam = User.objects.create_user("sam", is_staff=True)
    active = _version(alice, "alices-bot", bots.RANDOM, "active", "alice's secret plan")
    rejected = _version(alice, "alices-bot", bots.CRASH, "rejected", "oh no, alice's log",
                        "crash: exited with code 3")
    shared = _version(alice, "open-bot", bots.RANDOM, "active", "open bot's log")
    Bot.objects.filter(pk=shared.bot_id).update(source_public=True)
    bobs = _version(bob, "bobs-bot", bots.FIRST, "active", "bob's log")
    Match.objects.all().delete()  # the validation matches the uploads queued
    ladder = Ladder.objects.get(game="stones")
    now = timezone.now()
    match = Match.objects.create(ladder=ladder, seed=7, status="finished", attempts=1,
                                 started_at=now, finished_at=now, reason="game-over",
                                 moves=2, result={"outcome": [1, 0]})
    for seat, (version, log) in enumerate([(active, "alice in match"),
                                           (bobs, "bob in match")]):
        Participant.objects.create(match=match, seat=seat, version=version,
                                   outcome="win" if seat == 0 else "loss", moves=1,
                                   log=log, mu_before=25.0, sigma_before=8.3,
                                   mu_after=27.0 - 4 * seat, sigma_after=7.9)
    record = {"game": "stones", "seed": 7, "options": {}, "moves": [],
              "players": [{"seat": 0, "name": "alices-bot", "log": "alice in match"},
                          {"seat": 1, "name": "bobs-bot", "log": "bob in match"}]}
    Replay.objects.create(match=match, data=zlib.compress(json.dumps(record).encode()))
    tokens = {who: token_create(user=user, name="tests")[1]
              for who, user in (("owner", alice), ("other", bob), ("staff", sam))}
    return World(alice=alice, bob=bob, sam=sam, public_bot=active.bot, active=active,
                 rejected=rejected, shared_bot=shared.bot, shared_version=shared,
                 bobs_bot=bobs.bot, match=match, tokens=tokens)
