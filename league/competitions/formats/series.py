"""A pairing played as a series of games: which games it owes, and who won it.

Seats and seeds are where a series is fair or not, so the rule lives in one place for every
format. Seats alternate game by game, so each side has the first move equally often (with an
odd count the pairing's ``first`` has one more; formats choose who that is). Games 2k and 2k+1
share seed k with seats swapped, so a deal that favours one seat favours both entries once.
Every series of a round plays the same seeds: a round reserves ``games // 2 + 1`` seed indices,
the extra one for an elimination decider (after an odd count the decider instead shares the
last game's seed, seats swapped, and the spare index goes unused).

A series is won on game points (1 a win, 1/2 a draw). Level after its games, it is a draw,
except in elimination, where one extra game decides and, if that is drawn too, the better seed
(the pairing's ``first``) advances: a drawn decider should not go to a coin.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import cast

from league.competitions.formats.types import (
    Decision,
    EntryId,
    FormatError,
    Game,
    Pairing,
    PairingKind,
    Round,
    SeriesResult,
    Winners,
)


def seeds_per_round(games: int) -> int:
    """Seed indices one round of ``games``-game series reserves."""
    return games // 2 + 1


def game(pairing: Pairing, index: int) -> Game:
    """The pairing's ``index``-th game (0-based; ``games`` is the decider)."""
    if pairing.kind == PairingKind.SOLO:
        # A solo run owes each of the round's seeds once; nothing to swap.
        return Game(index, pairing.first, None, (pairing.round - 1) * pairing.games + index)
    if pairing.second is None:
        raise FormatError(f"pairing {pairing.key} is a bye: it has no games")
    first, second = ((pairing.first, pairing.second) if index % 2 == 0
                     else (pairing.second, pairing.first))
    return Game(index, first, second,
                (pairing.round - 1) * seeds_per_round(pairing.games) + index // 2)


def series_games(pairing: Pairing) -> tuple[Game, ...]:
    """The games a pairing owes in any case (a bye owes none; a decider is not among them)."""
    if not pairing.played:
        return ()
    return tuple(game(pairing, i) for i in range(pairing.games))


def _check(pairing: Pairing, winners: Sequence[EntryId | None]) -> None:
    if pairing.kind != PairingKind.SERIES:
        raise FormatError(f"pairing {pairing.key} is a {pairing.kind}, not a series")
    for w in winners:
        if w is not None and w not in pairing.entries:
            raise FormatError(f"pairing {pairing.key}: entry {w} did not play in it")
    if len(winners) <= pairing.games:
        return
    first, second = _score(pairing, winners[:pairing.games])
    if not pairing.decider or first != second or len(winners) > pairing.games + 1:
        raise FormatError(f"pairing {pairing.key} owes {pairing.games} games"
                          f"{' and a decider only when level' if pairing.decider else ''}; "
                          f"{len(winners)} were reported")


def _score(pairing: Pairing, winners: Sequence[EntryId | None]) -> tuple[float, float]:
    first = sum(1.0 if w == pairing.first else 0.5 if w is None else 0.0 for w in winners)
    second = sum(1.0 if w == pairing.second else 0.5 if w is None else 0.0 for w in winners)
    return first, second


def games_to_play(pairing: Pairing, played: Sequence[EntryId | None] | Sequence[float]
                  ) -> tuple[Game, ...]:
    """The games still owed after those played (their winners, or a solo run's scores): the
    rest of the series, then a decider if an elimination series is level; empty once the
    series is decided."""
    if pairing.kind == PairingKind.SOLO:
        return tuple(game(pairing, i) for i in range(len(played), pairing.games))
    if not pairing.played:
        return ()
    winners = cast(Sequence[EntryId | None], played)
    _check(pairing, winners)
    if len(winners) < pairing.games:
        return tuple(game(pairing, i) for i in range(len(winners), pairing.games))
    first, second = _score(pairing, winners[:pairing.games])
    if pairing.decider and first == second and len(winners) == pairing.games:
        return (game(pairing, pairing.games),)
    return ()


def series_result(pairing: Pairing, winners: Sequence[EntryId | None] = ()
                  ) -> SeriesResult | None:
    """The finished series, or ``None`` while it still owes games. A bye is a finished series
    won by its entry with par game points (half the owed games)."""
    if pairing.kind == PairingKind.BYE:
        return SeriesResult(pairing.key, pairing.round, pairing.first, None,
                            pairing.games / 2, 0.0, pairing.first, Decision.BYE)
    if games_to_play(pairing, winners):
        return None
    assert pairing.second is not None
    first, second = _score(pairing, winners)
    owed_first, owed_second = _score(pairing, winners[:pairing.games])
    decided_by = Decision.GAMES
    if owed_first != owed_second or not pairing.decider:
        winner = (None if owed_first == owed_second
                  else pairing.first if owed_first > owed_second else pairing.second)
    elif winners[-1] is not None:
        winner, decided_by = winners[-1], Decision.DECIDER
    else:
        winner, decided_by = pairing.first, Decision.SEEDING
    return SeriesResult(pairing.key, pairing.round, pairing.first, pairing.second, first, second,
                        winner, decided_by)


def finished_results(rounds: Iterable[Round], winners: Winners) -> dict[str, SeriesResult]:
    """Every finished series and bye of ``rounds``, by pairing key."""
    done = {}
    for r in rounds:
        for p in r.pairings:
            result = series_result(p, winners.get(p.key, ()))
            if result is not None:
                done[p.key] = result
    return done


def require_finished(rounds: Sequence[Round], winners: Winners) -> None:
    """Raise unless every series of ``rounds`` has finished (before pairing the next round)."""
    for r in rounds:
        for p in r.pairings:
            if p.kind == PairingKind.SERIES and series_result(p, winners.get(p.key, ())) is None:
                raise FormatError(f"round {r.number} is not finished: series {p.key} still "
                                  "owes games; the next round starts after it")
