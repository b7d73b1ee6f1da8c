"""The shape of ``GET /api/bots/<id>/stats/``: a version's statistics as the page shows them
(``league.ladders.stats.bot_stats``), built from the kept sums. Forfeit details are the
referee's public words (``league.redaction.public_text``); no log is in here."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from league.ladders.stats import FORFEITS, BotStats, Totals


class StatsQuery(serializers.Serializer):
    version = serializers.IntegerField(required=False, min_value=1, max_value=10**9,
                                       help_text="the version's number (default: the active "
                                                 "version, else the newest)")


class ForfeitCountsSerializer(serializers.Serializer):
    timeout = serializers.IntegerField()
    crash = serializers.IntegerField()
    illegal = serializers.IntegerField()
    malformed = serializers.IntegerField()
    limit = serializers.IntegerField(help_text="over the output or the memory limit")
    start = serializers.IntegerField(help_text="could not start: compile or package error")


class TotalsSerializer(serializers.Serializer):
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    mean_score = serializers.FloatField(allow_null=True, help_text="scored ladders")
    forfeits = ForfeitCountsSerializer()
    mean_length = serializers.FloatField(allow_null=True, help_text="moves in a game")
    timed_moves = serializers.IntegerField(help_text="own moves timed (not the first)")
    mean_move_time = serializers.FloatField(allow_null=True, help_text="seconds")
    longest_move = serializers.FloatField(help_text="the longest move, in move time limits")


class VersionTotalsSerializer(serializers.Serializer):
    version = serializers.IntegerField(help_text="version number")
    totals = TotalsSerializer()


class OpponentSerializer(serializers.Serializer):
    bot = serializers.IntegerField(allow_null=True, help_text="null: a deleted version")
    name = serializers.CharField(allow_null=True)
    version = serializers.IntegerField(allow_null=True, help_text="its version number")
    totals = TotalsSerializer()


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    totals = TotalsSerializer()


class SeedSerializer(serializers.Serializer):
    seed = serializers.IntegerField()
    totals = TotalsSerializer()


class BucketSerializer(serializers.Serializer):
    label = serializers.CharField()
    count = serializers.IntegerField()


class ForfeitExampleSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    kind = serializers.CharField(help_text="timeout, crash, illegal, malformed...")
    step = serializers.IntegerField(help_text="the replay's step it happened after: "
                                              "/matches/<match>/#step=<step>")
    detail = serializers.CharField()
    match_kind = serializers.CharField()
    finished_at = serializers.DateTimeField(allow_null=True)


class BotStatsSerializer(serializers.Serializer):
    bot = serializers.IntegerField()
    version = serializers.IntegerField(allow_null=True, help_text="the version shown")
    ladder = serializers.CharField(allow_null=True, help_text="ladder slug")
    rated = serializers.BooleanField()
    move_time_limit = serializers.FloatField(help_text="the ladder's seconds a move")
    totals = TotalsSerializer()
    versions = VersionTotalsSerializer(many=True, help_text="every version, newest first")
    opponents = OpponentSerializer(many=True, help_text="rated ladders: the opponent "
                                                        "versions met most often")
    opponents_met = serializers.IntegerField()
    seats = SeatSerializer(many=True)
    seeds = SeedSerializer(many=True, help_text="scored ladders")
    lengths = BucketSerializer(many=True, help_text="game length histogram (moves)")
    move_times = BucketSerializer(many=True,
                                  help_text="own move times as shares of the limit")
    latest_forfeits = ForfeitExampleSerializer(many=True, help_text="of any match kind")


def _totals(t: Totals) -> dict[str, Any]:
    return {"games": t.games, "wins": t.wins, "draws": t.draws, "losses": t.losses,
            "mean_score": t.mean_score,
            "forfeits": {c.removeprefix("forfeit_"): t.sums.get(c) or 0 for c in FORFEITS},
            "mean_length": t.mean_length, "timed_moves": t.timed_moves,
            "mean_move_time": t.mean_move_time, "longest_move": t.move_time_max}


def stats_data(page: BotStats) -> dict[str, Any]:
    """The page's figures in ``BotStatsSerializer``'s shape."""
    return {
        "bot": page.bot.pk, "version": page.version.number if page.version else None,
        "ladder": page.ladder.slug if page.ladder else None,
        "rated": bool(page.ladder and page.ladder.rated), "move_time_limit": page.move_limit,
        "totals": _totals(page.totals),
        "versions": [{"version": r["version"].number, "totals": _totals(r["totals"])}
                     for r in page.by_version],
        "opponents": [{"bot": o["version"].bot_id if o["version"] else None,
                       "name": o["version"].bot.name if o["version"] else None,
                       "version": o["version"].number if o["version"] else None,
                       "totals": _totals(o["totals"])} for o in page.opponents],
        "opponents_met": page.opponents_met,
        "seats": [{"seat": r["seat"], "totals": _totals(r["totals"])} for r in page.seats],
        "seeds": [{"seed": r["seed"], "totals": _totals(r["totals"])} for r in page.seeds],
        "lengths": [{"label": b["label"], "count": b["count"]} for b in page.lengths],
        "move_times": [{"label": b["label"], "count": b["count"]} for b in page.move_times],
        "latest_forfeits": [{"match": f["match_id"], "kind": f["kind"], "step": f["step"],
                             "detail": f["detail"], "match_kind": f["match_kind"],
                             "finished_at": f["finished_at"]} for f in page.forfeits]}
