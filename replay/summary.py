"""Figures over several matches for the command line: results, forfeits, time per move."""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field

from games import Outcome
from replay.record import MatchRecord


@dataclass
class BotTally:
    name: str
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    scores: list[float] = field(default_factory=list)
    forfeits: Counter[str] = field(default_factory=Counter)
    move_times: list[float] = field(default_factory=list)

    @property
    def mean_score(self) -> float:
        return statistics.fmean(self.scores) if self.scores else 0.0

    def forfeit_text(self) -> str:
        return ", ".join(f"{kind} {n}" for kind, n in sorted(self.forfeits.items())) or "-"

    def time_text(self) -> str:
        if not self.move_times:
            return "-"
        mean = statistics.fmean(self.move_times) * 1000
        return f"{mean:.1f} ms (max {max(self.move_times) * 1000:.1f})"


def tally(records: list[MatchRecord], names: list[str]) -> list[BotTally]:
    """Per bot (by the name given on the command line, whatever seat it played)."""
    tallies = {name: BotTally(name) for name in names}
    for record in records:
        result = record.result
        if result is None:
            continue
        for player in record.players:
            t = tallies.setdefault(player.name, BotTally(player.name))
            t.games += 1
            t.scores.append(result.scores[player.seat])
            if result.outcomes is not None:
                outcome = result.outcomes[player.seat]
                t.wins += outcome is Outcome.WIN
                t.losses += outcome is Outcome.LOSS
                t.draws += outcome is Outcome.DRAW
            if result.forfeit is not None and result.forfeit.player == player.seat:
                t.forfeits[result.forfeit.kind] += 1
            t.move_times.extend(m.time for i, m in enumerate(record.moves)
                                if m.seat == player.seat and not _first_of(record, i))
    return list(tallies.values())


def _first_of(record: MatchRecord, index: int) -> bool:
    """A bot's first move includes its start-up; leave it out of time per move."""
    seat = record.moves[index].seat
    return all(m.seat != seat for m in record.moves[:index])
