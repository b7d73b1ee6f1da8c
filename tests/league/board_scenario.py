"""A rated ladder's random life, with two filling processes' kept boards checked against a
fresh read of the board after every step: fills by either process, matches finished (several
between two fills of a process, or none), failed, cancelled and re-run, versions placed,
replaced, retired, disabled and enabled, counters set right by the recount.

``test_boards.py`` runs it on PostgreSQL in its own process, and on the embedded default
(SQLite) by running this module, which prints what it checked as JSON."""

from __future__ import annotations

import functools
import json
import os
import random
from typing import Any

from replay import MatchRecord


@functools.cache
def play_records() -> list[MatchRecord]:
    """A few played stones records, reused for every finish (a finish takes the record as
    it is): a win for either seat."""
    from sandbox import run_match

    records: dict[int | None, MatchRecord] = {}
    for seed in range(40):
        record = run_match("stones", ["builtin:random", "builtin:random"], seed=seed)
        assert record.result is not None
        records.setdefault(record.result.winner, record)
        if 0 in records and 1 in records:
            break
    return list(records.values())


def same_board(kept: Any, fresh: Any) -> list[str]:
    """The fields in which two boards differ (when each was read is not one)."""
    return [name for name in ("players", "order", "members", "roster", "watched",
                              "last_match", "met", "novices")
            if getattr(kept, name) != getattr(fresh, name)]


def run(steps: int, seed: int) -> dict[str, Any]:
    """Runs the ladder's life on the current database; raises AssertionError at the first
    step after which a process's kept board, brought up to date, is not the fresh one."""
    from django.contrib.auth.models import User
    from django.db import connection, transaction

    from league.bots.models import Bot
    from league.bots.services import bot_enable
    from league.ladders import boards
    from league.ladders.claiming import match_claim
    from league.ladders.finishing import match_finish
    from league.ladders.lifecycle import FAILED, OPEN, QUEUED, match_move
    from league.ladders.matchmaking import ladder_fill
    from league.ladders.models import Ladder, Match, MatchKind, Standing
    from league.ladders.pairing import Entry, choose_pairings
    from league.ladders.recount import standings_recount
    from league.ladders.selectors import ladder_board
    from league.ladders.services import bot_disable, bot_retire, match_rerun, version_upload
    from tests.league import bots
    from tests.league.pages import active

    # every choice the scenario makes among rows is from rows in a stated order: the same
    # seed takes the same path whatever plans the database picks
    rng = random.Random(seed)
    records = play_records()
    ladder = Ladder.objects.get(game="stones")
    owner = User.objects.create_user(f"scenario{seed}")
    for i in range(6):
        active(owner, f"a{i}")
    processes: list[dict[int, Any]] = [{}, {}]  # each process's kept boards
    seen: dict[str, int] = {}

    def as_process(n: int) -> None:
        boards._kept = processes[n]  # two processes in one

    def finish(match: Match) -> None:
        claim = match_claim(match_id=match.pk, worker=f"scenario:{seed}")
        if claim is not None:
            assert match_finish(match=claim, record=rng.choice(records), error=None)

    def step(n: int) -> str:
        roll = rng.random()
        queued = list(Match.objects.filter(ladder=ladder, kind=MatchKind.LADDER,
                                           status=QUEUED).order_by("pk"))
        if roll < 0.35 or not queued:
            as_process(rng.randrange(2))
            ladder_fill(ladder=ladder, target=rng.choice([2, 4, 6]), rng=rng)
            return "fill"
        if roll < 0.65:
            for match in rng.sample(queued, rng.randint(1, len(queued))):
                finish(match)
            return "finish"
        if roll < 0.70:
            claim = match_claim(match_id=queued[0].pk, worker="scenario:lost")
            assert claim is not None
            match_move(Match.objects.filter(pk=claim.claim.match_id), FAILED, reason="test")
            return "fail"
        if roll < 0.78:
            ended = list(Match.objects.filter(ladder=ladder, kind=MatchKind.LADDER,
                                              status__in=[FAILED, "cancelled"]).order_by("pk"))
            if not ended:
                return "nothing to re-run"
            match = match_rerun(match=rng.choice(ended))
            if rng.random() < 0.7:  # played before either process fills again
                finish(match)
            return "re-run"
        if roll < 0.84:
            playing = list(Bot.objects.filter(owner=owner, retired=False, disabled=False)
                           .order_by("pk").values_list("name", flat=True))
            if not playing or rng.random() < 0.4:  # a new bot, or a new version of one
                playing = [f"b{n}"]
            name = rng.choice(playing)
            if rng.random() < 0.25:  # its validation match waits, open, for good
                version_upload(owner=owner, game="stones", name=name, filename="main.py",
                               data=f"{bots.RANDOM}# {name} {n}\n".encode())
                return "validating"
            active(owner, name)
            return "new version"
        if roll < 0.92:
            bot = rng.choice(list(Bot.objects.filter(owner=owner, retired=False).order_by("pk")))
            if bot.disabled:
                bot_enable(bot=bot)
                return "enable"
            if rng.random() < 0.8:
                bot_disable(bot=bot, reason="scenario")
                return "disable"
            bot_retire(bot=bot)
            return "retire"
        standing = rng.choice(list(Standing.objects.filter(ladder=ladder).order_by("pk")))
        Standing.objects.filter(pk=standing.pk).update(games=standing.games + 3, mu=1.0)
        standings_recount(fix=True)
        return "recount"

    for n in range(steps):
        what = step(n)
        seen[what] = seen.get(what, 0) + 1
        for p in range(2):
            as_process(p)
            known = boards.board_known(ladder)
            if known is None:
                continue
            with transaction.atomic():  # rolled back: the process keeps the board it had
                if connection.features.has_select_for_update:
                    Ladder.objects.select_for_update().filter(pk=ladder.pk).first()
                kept = boards.board_read(ladder, boards.seats_read(
                    ladder, after=known.last_match), known)
                fresh = boards.board_fresh(ladder)
                transaction.set_rollback(True)
            differ = same_board(kept, fresh)
            assert not differ, f"step {n} ({what}), process {p}: {differ} differ"
            # in the order of the board that pages show
            assert [x.version for x in fresh.ranked()] == [
                row.version_id for row in ladder_board(ladder)], f"step {n} ({what})"
            entries = [[Entry(key=x.version, skill=x.skill, recent=round(x.recent_now(0)),
                              placed=x.games // 2) for x in board.ranked()]
                       for board in (kept, fresh)]
            if len(entries[0]) >= 2:
                picks = [choose_pairings(e, 3, random.Random(n), ranked=True) for e in entries]
                assert picks[0] == picks[1]
                # the entries matchmaking pairs, made as pairing looks at them, pair the same
                lazy = kept.entries({}, 0.0)
                assert choose_pairings(lazy, 3, random.Random(n), ranked=True,
                                       placing=lazy.placing()) == picks[0], f"step {n}"
    open_now = Match.objects.filter(ladder=ladder, status__in=OPEN).count()
    return {"engine": connection.vendor, "steps": seen, "open": open_now,
            "finished": Match.objects.filter(ladder=ladder, status="finished").count(),
            "players": len(boards.board_fresh(ladder).players)}


def main() -> None:
    """On the embedded default in a scratch data folder (the caller's environment)."""
    assert "DATABASE_URL" not in os.environ
    import django

    django.setup()
    from django.core.management import call_command

    from league.ladders import boards
    from league.ladders.defaults import ladders_install
    from league.ladders.models import Ladder

    call_command("migrate", verbosity=0)
    ladders_install(Ladder)
    boards.STAMP_SLACK = 0.0  # only what the matches say, as in test_boards
    print(json.dumps(run(steps=int(os.environ.get("SCENARIO_STEPS", "60")), seed=7)))


if __name__ == "__main__":
    main()
