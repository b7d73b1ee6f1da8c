"""Who may enter a tournament: its owners' allow-list, rated games on the game's ladder and a
rating band. Checked when a bot registers (``services.entry_register``) and when the league
fills a tournament open to its bots (``progress.league_bots``); the league's own entries (the
demo's, ``operator``) are not asked."""

from __future__ import annotations

from league.bots.models import Bot
from league.competitions.models import Tournament
from league.ladders.models import Standing


def has_conditions(t: Tournament) -> bool:
    return bool(t.allowed_owners or t.min_rated_games or t.rating_min is not None
                or t.rating_max is not None)


def entry_problem(t: Tournament, bot: Bot) -> str:
    """Why ``bot`` may not enter ``t``, in words for its owner; empty when it may."""
    if t.allowed_owners and bot.owner.username not in t.allowed_owners:
        return f"{t.name} takes bots of {', '.join(t.allowed_owners)} only"
    rated = t.min_rated_games or t.rating_min is not None or t.rating_max is not None
    if not rated:
        return ""
    standing = (Standing.objects.filter(ladder_id=t.ladder_id,
                                        version_id=bot.active_version_id).first()
                if bot.active_version_id else None)
    games = standing.games if standing else 0
    if games < t.min_rated_games:
        return (f"{t.name} takes bots with at least {t.min_rated_games} rated games on the "
                f"ladder; {bot.name}'s playing version has {games}")
    if t.rating_min is not None or t.rating_max is not None:
        if standing is None or not standing.games:
            return f"{t.name} takes rated bots only; {bot.name} has no rating yet"
        rating = standing.ordinal
        if (t.rating_min is not None and rating < t.rating_min) or \
                (t.rating_max is not None and rating > t.rating_max):
            return (f"{t.name} takes bots rated {band_words(t)}; {bot.name} is rated "
                    f"{rating:.1f}")
    return ""


def band_words(t: Tournament) -> str:
    if t.rating_min is not None and t.rating_max is not None:
        return f"{t.rating_min:g} to {t.rating_max:g}"
    if t.rating_min is not None:
        return f"{t.rating_min:g} or more"
    return f"{t.rating_max:g} or less"


def conditions_words(t: Tournament) -> list[str]:
    """The conditions as the tournament's page lists them."""
    words = []
    if t.allowed_owners:
        words.append(f"bots of {', '.join(t.allowed_owners)} only")
    if t.min_rated_games:
        words.append(f"at least {t.min_rated_games} rated games on the ladder")
    if t.rating_min is not None or t.rating_max is not None:
        words.append(f"ladder rating {band_words(t)}")
    return words
