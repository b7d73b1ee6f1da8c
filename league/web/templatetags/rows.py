"""Table rows of the busiest lists (a board, lists of matches), built in Python.

Django's template engine spends about 150-400 µs on one such row (every variable tries a
dictionary lookup first, every number goes through localisation), and a ladder page shows
sixty of them; built with ``format_html`` a row costs a tenth of that. Everything a user or a
bot wrote is escaped by ``format_html``, as the templates would.
"""

from __future__ import annotations

from django import template
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.text import Truncator

from games import Outcome
from league.ladders.models import MatchKind, MatchStatus
from league.ladders.selectors import BoardRow
from league.web.match_lists import MatchRow, PlayerRow
from league.web.templatetags.league import board_bot, fixed, link, trend_class, trend_text

register = template.Library()


@register.simple_tag
def board_row(row: BoardRow, trend: float | None, seeds: int) -> SafeString:
    """One row of a ladder's board: rank, bot, owner, then rating, μ σ, games, W/L/D and the
    7-day trend (a rated ladder) or mean score ± 95 % and seeds played of ``seeds``."""
    # at phone width the columns marked hide-sm go: rank, bot, rating or score stay
    start = format_html('<tr><td>{}</td><td class="name">{}</td>'
                        '<td class="name hide-sm"><a href="{}">{}</a></td>', row.rank,
                        board_bot(row), link(row.owner, "user"), row.owner)
    if row.rating is not None:
        return format_html(
            '{}<td>{}</td><td class="hide-sm"><small>μ {} σ {}</small></td>'
            '<td class="hide-sm">{}</td><td>{}/{}/{}</td><td class="hide-sm {}">{}</td></tr>',
            start, fixed(row.rating), fixed(row.mu), fixed(row.sigma), row.games, row.wins,
            row.losses, row.draws, trend_class(trend), trend_text(trend))
    if row.mean is None:
        mean = "–"
    elif row.ci is None:
        mean = fixed(row.mean)
    else:
        mean = format_html("{} <small>± {}</small>", fixed(row.mean), fixed(row.ci))
    return format_html('{}<td>{}</td><td class="hide-sm">{}/{}</td></tr>', start, mean,
                       row.seeds, seeds)


@register.simple_tag
def match_row(match: MatchRow) -> SafeString:
    """One row of a list of matches: id, game (and kind), players with their version, forfeit,
    winner's star or score, how it ended, moves and when."""
    kind = "" if match.kind == MatchKind.LADDER else format_html(" <small>{}</small>", match.kind)
    players = format_html_join(" vs ", "{}", ((_player(match, p),) for p in match.players))
    if match.status == MatchStatus.FAILED:
        ended = format_html("failed: {}", Truncator(match.detail).chars(60))
    else:
        ended = match.reason if match.status == MatchStatus.FINISHED else match.status
    when = (timezone.localtime(match.finished_at).strftime("%m-%d %H:%M:%S")
            if match.finished_at else "")
    # at phone width: number, players and result; game, moves and time go (hide-sm)
    return format_html(
        '<tr class="{}"><td><a href="{}">{}</a></td><td class="hide-sm">{}{}</td>'
        '<td class="players">{}</td><td class="result">{}</td><td class="hide-sm">{}</td>'
        '<td class="hide-sm">{}</td></tr>', match.status, link(match.pk, "match"), match.pk,
        match.game, kind, players, ended, match.moves, when)


def _player(match: MatchRow, p: PlayerRow) -> SafeString:
    if p.version_id is not None:
        who = format_html('<a href="{}">{} <small>v{}</small></a>', link(p.version_id, "version"),
                          p.bot, p.number)
    elif p.person:
        who = format_html('<a href="{}">{}</a> <small>(person)</small>', link(p.person, "user"),
                          p.person)
    else:
        who = format_html("<small>builtin:</small>{}", p.builtin)
    forfeit = format_html(' <small class="forfeit">{}</small>', p.forfeit) if p.forfeit else ""
    star = " ★" if p.outcome == Outcome.WIN else ""
    score = f" ({fixed(p.score, 0)})" if p.score is not None and not match.rated else ""
    return format_html("{}{}{}{}", who, forfeit, star, score)
