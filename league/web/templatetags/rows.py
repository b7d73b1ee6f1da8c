"""Table rows of the busiest lists (a board, lists of matches), built in Python.

Django's template engine spends about 150-400 µs on one such row (every variable tries a
dictionary lookup first, every number goes through localisation), and a ladder page shows
sixty of them; built with ``format_html`` a row costs a tenth of that. Everything a user or a
bot wrote is escaped by ``format_html``, as the templates would.
"""

from __future__ import annotations

from django import template
from django.conf import settings
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import Truncator

from games import Outcome
from league.ladders.boards import NOVICE_GAMES
from league.ladders.models import MatchKind, MatchStatus
from league.ladders.queues import Queued, wait_words
from league.ladders.reasons import STAR, forfeit_words, reason_words
from league.ladders.selectors import BoardRow
from league.web.match_lists import MatchRow, PlayerRow
from league.web.templatetags.league import board_bot, fixed, link, trend_class, trend_text

register = template.Library()


@register.simple_tag
def board_row(row: BoardRow, trend: float | None, seeds: int) -> SafeString:
    """One row of a ladder's board: rank, bot, owner, then rating, μ σ, games, W/L/D and the
    7-day trend (a rated ladder) or mean score ± 95 % and seeds played of ``seeds``."""
    # at phone width the columns marked hide-sm go: rank, bot, rating or score stay
    # a provisional row says so under the bot's name (a cell every width shows), with its
    # placement and likely ranks: the rank beside it is μ − 3σ's, the cautious one
    start = format_html('<tr{}><td>{}</td><td class="name">{}{}</td>'
                        '<td class="name hide-sm"><a href="{}">{}</a></td>',
                        mark_safe(' class="provisional"') if row.provisional else "", row.rank,
                        board_bot(row), certainty(row), link(row.owner, "user"), row.owner)
    if row.rating is not None:
        return format_html(
            '{}<td>{}{}</td><td class="hide-sm"><small>μ {} σ {}</small></td>'
            '<td class="hide-sm">{}</td><td>{}/{}/{}</td><td class="hide-sm {}">{}</td></tr>',
            start, fixed(row.rating), PROVISIONAL_MARK if row.provisional else "",
            fixed(row.mu), fixed(row.sigma), row.games, row.wins, row.losses, row.draws,
            trend_class(trend), trend_text(trend))
    if row.mean is None:
        mean = "–"
    elif row.ci is None:
        mean = fixed(row.mean)
    else:
        mean = format_html("{} <small>± {}</small>", fixed(row.mean), fixed(row.ci))
    return format_html('{}<td>{}</td><td class="hide-sm">{}/{}</td></tr>', start, mean,
                       row.seeds, seeds)


PROVISIONAL_MARK = mark_safe('<abbr class="prov-mark" title="provisional">?</abbr>')
"""After a provisional rating, as lichess writes one (the reasons are in the bot's cell)."""


def certainty(row: BoardRow) -> SafeString:
    """Under a provisional row's bot: "provisional", "placing: 3/8 games" while it places,
    and its likely ranks ("likely #2–6"); nothing for a row whose rank is trusted."""
    if not row.provisional:
        return mark_safe("")
    words = [format_html('<span title="{}">provisional</span>', provisional_title(row))]
    if row.placing is not None:
        words.append(format_html("placing: {}/{} games", row.placing, NOVICE_GAMES))
    if row.rank_range is not None:
        best, worst = row.rank_range
        words.append(format_html('<span title="the ranks its μ ± 2σ would take">likely #{}</span>',
                                 best if best == worst else f"{best}–{worst}"))
    elif row.rating is None:
        words.append(mark_safe("not every seed played"))
    return format_html('<small class="prov">{}</small>',
                       format_html_join(" · ", "{}", ((w,) for w in words)))


def provisional_title(row: BoardRow) -> str:
    """What "provisional" means, for its tooltip."""
    if row.rating is None:
        return "fewer seeds played than the ladder has: its mean may still move"
    return (f"σ above {settings.LEAGUE_PROVISIONAL_SIGMA:.2f}: "
            "its rank is not yet to be trusted")


@register.simple_tag
def match_row(match: MatchRow) -> SafeString:
    """One row of a list of matches: id, game (and kind), players with their version, forfeit,
    winner's star or score, how it ended, moves and when."""
    kind = "" if match.kind == MatchKind.LADDER else format_html(" <small>{}</small>", match.kind)
    players = format_html_join(" vs ", "{}", ((_player(match, p),) for p in match.players))
    if match.status == MatchStatus.FAILED:
        ended = format_html("failed: {}", Truncator(match.detail).chars(60))
    else:
        ended = reason_words(match.reason) if match.status == MatchStatus.FINISHED else match.status
    when = (timezone.localtime(match.finished_at).strftime("%m-%d %H:%M:%S")
            if match.finished_at else "")
    # at phone width: number, players and result; game, moves and time go (hide-sm)
    return format_html(
        '<tr class="{}"><td><a href="{}">{}</a></td><td class="hide-sm">{}{}</td>'
        '<td class="players">{}</td><td class="result">{}</td><td class="hide-sm">{}</td>'
        '<td class="hide-sm">{}</td></tr>', match.status, link(match.pk, "match"), match.pk,
        match.game, kind, players, ended, match.moves, when)


@register.simple_tag
def queued_row(match: MatchRow, wait: Queued) -> SafeString:
    """One of a ladder's next queued matches: id, players, and the guess at its start."""
    players = format_html_join(" vs ", "{}", ((_player(match, p),) for p in match.players))
    kind = "" if match.kind == MatchKind.LADDER else format_html(" <small>{}</small>", match.kind)
    return format_html('<tr><td><a href="{}">{}</a></td><td class="players">{}{}</td>'
                       '<td class="hide-sm">{}</td><td>{}</td></tr>',
                       link(match.pk, "match"), match.pk, players, kind, wait.ahead,
                       wait_words(wait.wait))


def _player(match: MatchRow, p: PlayerRow) -> SafeString:
    if p.version_id is not None:
        who = format_html('<a href="{}">{} <small>v{}</small></a>', link(p.version_id, "version"),
                          p.bot, p.number)
    elif p.person:
        who = format_html('<a href="{}">{}</a> <small>(person)</small>', link(p.person, "user"),
                          p.person)
    else:
        who = format_html("<small>builtin:</small>{}", p.builtin)
    forfeit = (format_html(' <small class="forfeit" title="forfeited: {}">{}</small>',
                           p.forfeit, forfeit_words(p.forfeit)) if p.forfeit else "")
    star = (format_html(' <span class="star" title="{}" aria-label="{}">★</span>', STAR, STAR)
            if p.outcome == Outcome.WIN else "")
    score = f" ({fixed(p.score, 0)})" if p.score is not None and not match.rated else ""
    return format_html("{}{}{}{}", who, forfeit, star, score)
